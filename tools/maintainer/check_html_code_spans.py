#!/usr/bin/env python3
"""Checks that the built documentation shows every inline code span of its Markdown pages as
written: each `span` of the README, the lessons and the docs pages must appear, character for
character, as the text of a <code> element of the site, and no page may show a backtick or a
curly quote outside code (Doxygen 1.9 turns a span ending in ' into a quotation: the student
then copies a command with a curly quote in it).

    tools/maintainer/check_html_code_spans.py HTML_FOLDER MARKDOWN [MARKDOWN ...]

Prints each span the site garbles, with its page and line; exit 1 when there is one.
"""
import html
import os
import re
import sys
from html.parser import HTMLParser


class Site(HTMLParser):
    """The text of every <code> element, and the text shown outside <code> and <pre>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.codes, self.outside = [], []
        self.depth = {"code": 0, "pre": 0, "script": 0, "style": 0}
        self.current = []

    def handle_starttag(self, tag, attrs):
        if tag in self.depth:
            self.depth[tag] += 1
            if tag == "code" and self.depth["code"] == 1:
                self.current = []

    def handle_endtag(self, tag):
        if tag in self.depth and self.depth[tag] > 0:
            self.depth[tag] -= 1
            if tag == "code" and self.depth["code"] == 0:
                self.codes.append("".join(self.current))

    def handle_data(self, data):
        if self.depth["code"]:
            self.current.append(data)
        elif not any(self.depth[t] for t in ("pre", "script", "style")):
            self.outside.append(data)


def spans(markdown_text):
    """(line number, span) for each inline code span outside fenced blocks."""
    found, fenced = [], False
    for number, line in enumerate(markdown_text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            continue
        for match in re.finditer(r"(`+)(.+?)\1", line):
            text = match.group(2)
            if text.startswith(" ") and text.endswith(" ") and text.strip():
                text = text[1:-1]
            found.append((number, text))
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    folder, pages = sys.argv[1], sys.argv[2:]
    codes, problems = set(), []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".html"):
            continue
        site = Site()
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            site.feed(f.read())
        codes.update(" ".join(c.split()) for c in site.codes)
        outside = "".join(site.outside)
        for bad in ("`", "\u2018", "\u2019", "\u201c", "\u201d"):
            at = outside.find(bad)
            if at >= 0:
                problems.append(f"{name}: shows {bad!r} outside code: "
                                f"...{' '.join(outside[max(0, at - 60):at + 40].split())}...")
    checked = 0
    for page in pages:
        with open(page, encoding="utf-8") as f:
            for number, span in spans(f.read()):
                checked += 1
                if " ".join(span.split()) not in codes:
                    problems.append(f"{page}:{number}: the site does not show `{span}` as code")
    for p in problems:
        print(p)
    print(f"{checked} code spans of {len(pages)} pages checked; {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
