"""Results of a grader run, read from Catch2's XML reporter (v2 `<Catch>` and v3
`<Catch2TestRun>`), the only source of results the grading tool trusts.

A run may have been cut short (the process exited, crashed or was killed): the file is then not
valid XML. Every test case that closed with its `<OverallResult>` counts; one that did not is not
reported, and the caller scores it zero.
"""
import html
import re

# Catch2 escapes '<' in attributes but writes '>' as it is, so a tag's attributes run to the first
# '>' outside quotes: a check named "... Swizzle<B, M, S>" has one inside its name.
ATTRIBUTES = r'((?:[^>"]|"[^"]*")*?)'
TEST_CASE = re.compile(r"<TestCase\b" + ATTRIBUTES + r">(.*?)</TestCase>", re.S)
ATTRIBUTE = re.compile(r'(\w[\w-]*)="([^"]*)"')
OVERALL = re.compile(r"<OverallResult\b" + ATTRIBUTES + r"\s*(?:/>|>(.*?)</OverallResult>)",
                     re.S)
MESSAGE = re.compile(r"<(Failure|Warning|Skip|Info|FatalErrorCondition|Exception)\b" + ATTRIBUTES
                     + r">(.*?)</\1>", re.S)
EXPRESSION = re.compile(r"<Expression\b" + ATTRIBUTES + r">(.*?)</Expression>", re.S)

# Catch2 v2 has no SKIP: the workbook's GRADER_SKIP issues a warning that starts with this.
SKIP_PREFIX = "SKIP: "


def attributes(text):
    return {k: html.unescape(v) for k, v in ATTRIBUTE.findall(text)}


def text_of(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def parse(xml_text):
    """{check name: (status, message)} for every test case the run closed; status is "passed",
    "failed" or "skipped"."""
    results = {}
    for head, body in TEST_CASE.findall(xml_text):
        name = attributes(head).get("name", "")
        overall = OVERALL.search(body)
        if not name or not overall:
            continue
        result = attributes(overall.group(1))
        output = text_of(overall.group(2) or "")  # the check's own feedback (its stdout)
        messages = [(kind, text_of(text)) for kind, _, text in MESSAGE.findall(body)]
        failed_expressions = [text_of(e) for a, e in EXPRESSION.findall(body)
                              if attributes(a).get("success") == "false"]
        skip_reasons = [m for kind, m in messages if kind == "Skip"] + \
                       [m[len(SKIP_PREFIX):] for kind, m in messages
                        if kind == "Warning" and m.startswith(SKIP_PREFIX)]
        if result.get("success") != "true":
            detail = [m for kind, m in messages if kind != "Info" and kind != "Warning"]
            status, message = "failed", "\n".join(detail + failed_expressions + [output])
        elif int(result.get("skips", "0") or 0) > 0 or skip_reasons:
            status, message = "skipped", "\n".join(skip_reasons)
        else:
            status, message = "passed", ""
        results[name] = (status, message)
    return results
