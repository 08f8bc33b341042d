#!/usr/bin/env python3
"""Checks that the built documentation shows every inline code span of its Markdown pages as
written: each `span` of the README, the lessons and the docs pages must appear, character for
character, as the text of a <code> element of the site, and no page may show a backtick, a
curly quote or a `**` outside code (Doxygen 1.9 turns a span ending in ' into a quotation, and
leaves `**` before a code span as two stars: the student then copies a command with a curly
quote in it, or reads stars for bold), nor Doxygen's commands or HTML tags as text (`@section`,
`@code`, `<table`: Markdown Doxygen stopped reading as Markdown).

    tools/maintainer/check_html_code_spans.py HTML_FOLDER MARKDOWN [MARKDOWN ...]

Prints each span the site garbles, with its page and line; exit 1 when there is one.
"""
import os
import re
import sys
from html.parser import HTMLParser


class Site(HTMLParser):
    """The text of every <code> element, and the text shown outside code (<code>, <pre>, and
    Doxygen's code blocks, <div class="fragment">)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.codes, self.outside = [], []
        self.depth = {"code": 0, "pre": 0, "script": 0, "style": 0}
        self.divs = []  # for each open <div>: whether it is a code block
        self.current = []

    def handle_starttag(self, tag, attrs):
        if tag == "div":
            self.divs.append("fragment" in (dict(attrs).get("class") or "").split())
        if tag in self.depth:
            self.depth[tag] += 1
            if tag == "code" and self.depth["code"] == 1:
                self.current = []

    def handle_endtag(self, tag):
        if tag == "div" and self.divs:
            self.divs.pop()
        if tag in self.depth and self.depth[tag] > 0:
            self.depth[tag] -= 1
            if tag == "code" and self.depth["code"] == 0:
                self.codes.append("".join(self.current))

    def handle_data(self, data):
        if self.depth["code"]:
            self.current.append(data)
        elif not any(self.depth[t] for t in ("pre", "script", "style")) and not any(self.divs):
            self.outside.append(data)


def spans(markdown_text):
    """(line number, span) for each inline code span outside code blocks (fenced or indented,
    in a block quote or not); a span may go on over a line break."""
    kept, fenced = [], False
    for line in markdown_text.splitlines():
        body = re.sub(r"^(\s*>)+ ?", "", line)  # the text of a block quote's line
        if body.lstrip().startswith("```"):
            fenced = not fenced
            kept.append("")
            continue
        kept.append("" if fenced or body.startswith("    ") else body)
    text = "\n".join(kept)
    found = []
    for match in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text, re.S):
        inner = " ".join(match.group(2).split("\n"))
        if inner.startswith(" ") and inner.endswith(" ") and inner.strip():
            inner = inner[1:-1]
        found.append((text.count("\n", 0, match.start()) + 1, inner))
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
        # Doxygen's own commands and escaped tags shown as text: the Markdown of the page was
        # not read as Markdown from there on (Doxygen 1.9.4 and a link broken over two lines
        # of a page's first paragraph, the rest of the page shown as @section ... <table ...).
        for bad in ("`", "**", "\u2018", "\u2019", "\u201c", "\u201d", "@section ", "@code",
                    "@endcode", "<table", "<tr"):
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
