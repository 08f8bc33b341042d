"""Results of a grader run, read from Catch2's XML reporter (v2 `<Catch>` and v3
`<Catch2TestRun>`), the only source of results the grading tool trusts.

The report comes through a pipe the tool reads while the grader runs (sandbox.py), and is read
strictly: one root element and nothing after it, no document type, no two results for one check,
a bounded size. A report that breaks any of these was written to by something other than the
grader, and none of its results count. A run may have been cut short (the process exited,
crashed or was killed): the report then stops early. Every test case that closed with its
`<OverallResult>` counts; one that did not is not reported, and the caller scores it zero.
"""
import xml.etree.ElementTree as ElementTree

ROOTS = {"Catch", "Catch2TestRun"}
MESSAGES = {"Failure", "Warning", "Skip", "Info", "FatalErrorCondition", "Exception"}
REPORT_BYTES = 16 << 20

# Catch2 v2 has no SKIP: the workbook's GRADER_SKIP issues a warning that starts with this.
SKIP_PREFIX = "SKIP: "


class ReportRefused(Exception):
    """The report is not one the grader wrote: nothing in it counts."""


def text_of(element):
    return "".join(element.itertext()).strip() if element is not None else ""


def result_of(case):
    """(status, message) of a closed <TestCase>, or None when it has no <OverallResult>."""
    overall = case.find("OverallResult")
    if overall is None:
        return None
    output = text_of(overall)  # the check's own feedback (its stdout)
    messages = [(e.tag, text_of(e)) for e in case.iter() if e.tag in MESSAGES]
    failed_expressions = [text_of(e) for e in case.iter("Expression")
                          if e.get("success") == "false"]
    skip_reasons = [m for kind, m in messages if kind == "Skip"] + \
                   [m[len(SKIP_PREFIX):] for kind, m in messages
                    if kind == "Warning" and m.startswith(SKIP_PREFIX)]
    if overall.get("success") != "true":
        detail = [m for kind, m in messages if kind not in ("Info", "Warning")]
        return "failed", "\n".join(detail + failed_expressions + [output])
    if int(overall.get("skips", "0") or 0) > 0 or skip_reasons:
        return "skipped", "\n".join(skip_reasons)
    return "passed", ""


def parse(data):
    """{check name: (status, message)} for every test case the run closed; status is "passed",
    "failed" or "skipped". Raises ReportRefused, saying why, for a report the grader did not
    write as it stands."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    if len(data) > REPORT_BYTES:
        raise ReportRefused(f"the report is larger than {REPORT_BYTES >> 20} MiB")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise ReportRefused("the report declares a document type, which Catch2 never writes")
    parser = ElementTree.XMLPullParser(events=("start", "end"))
    try:
        parser.feed(data)  # an unfinished document is no error until close(), never called
        events = list(parser.read_events())
    except ElementTree.ParseError as e:
        raise ReportRefused(f"the report is not the XML Catch2 writes ({e}): something else "
                            f"wrote to it") from None
    results, depth, in_case = {}, 0, 0
    for event, element in events:
        if event == "start":
            if depth == 0 and element.tag not in ROOTS:
                raise ReportRefused(f"the report's root is <{element.tag}>, not Catch2's")
            depth += 1
            if element.tag == "TestCase":
                in_case += 1
                if in_case > 1:
                    raise ReportRefused("a test case inside another one")
            continue
        depth -= 1
        if element.tag != "TestCase":
            continue
        in_case -= 1
        name = element.get("name", "")
        result = result_of(element)
        if not name or result is None:
            continue
        if name in results:
            raise ReportRefused(f"two results for the check '{name}'")
        results[name] = result
    return results
