#!/usr/bin/env python3
"""Checks a built HTML site: its links, and that it shows every inline code span of its Markdown
pages as written.

    tools/maintainer/check_built_site.py HTML_FOLDER [MARKDOWN ...]

- Links: each href, src and (object) data of every page that points into the site must name a
  file that exists (and, with a #fragment, an id or name in that file). Links to other sites
  (http:, https:, mailto:, ftp:) and javascript: are not followed; any other scheme (file:, or
  text such as `file:line` that Doxygen turned into a link) is broken.
- Code spans: each `span` of the MARKDOWN pages must appear, character for character, as the
  text of a <code> element of the site, and no page may show a backtick, a curly quote or a
  `**` outside code (Doxygen 1.9 turns a span ending in ' into a quotation, and leaves `**`
  before a code span as two stars: the student then copies a command with a curly quote in it,
  or reads stars for bold), nor Doxygen's commands or HTML tags as text (`@section`, `@code`,
  `<table`: Markdown Doxygen stopped reading as Markdown).

Prints each problem with its page; exit 1 when there is one, or no page.
"""
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Site(HTMLParser):
    """A page's links and anchors, the text of every <code> element, and the text shown outside
    code (<code>, <pre>, and Doxygen's code blocks, <div class="fragment">)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.codes, self.outside, self.links, self.anchors = [], [], [], set()
        self.depth = {"code": 0, "pre": 0, "script": 0, "style": 0}
        self.divs = []  # for each open <div>: whether it is a code block
        self.current = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "data") and value:
                self.links.append(value)
            if name in ("id", "name") and value:
                self.anchors.add(value)
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


def broken_links(site, pages):
    """The broken links of {page path: Site} under the folder `site`."""
    broken = []
    for page, parsed in sorted(pages.items()):
        where = os.path.relpath(page, site)
        for link in parsed.links:
            parts = urlsplit(link)
            if parts.scheme in ("http", "https", "mailto", "ftp", "javascript") or \
                    link.startswith("//"):
                continue
            if parts.scheme:  # file:, or text such as "file:line" that became a link
                broken.append(f"{where}: '{link}' is a {parts.scheme}: link, which no site follows")
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(page), unquote(parts.path))) \
                if parts.path else page
            if not os.path.exists(target):
                broken.append(f"{where}: '{link}' names a file that does not exist")
            elif parts.fragment and target in pages and \
                    parts.fragment not in pages[target].anchors:
                broken.append(f"{where}: '{link}' names an anchor the page does not have")
    return broken


def main():
    if len(sys.argv) < 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    folder, markdown = os.path.abspath(sys.argv[1]), sys.argv[2:]
    pages = {}
    for where, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".html"):
                site = pages[os.path.join(where, name)] = Site()
                with open(os.path.join(where, name), encoding="utf-8", errors="replace") as f:
                    site.feed(f.read())
    problems = broken_links(folder, pages)
    codes = set()
    for path, site in sorted(pages.items()):
        if os.path.dirname(path) != folder:
            continue
        codes.update(" ".join(c.split()) for c in site.codes)
        outside = "".join(site.outside)
        # Doxygen's own commands and escaped tags shown as text: the Markdown of the page was
        # not read as Markdown from there on (Doxygen 1.9.4 and a link broken over two lines
        # of a page's first paragraph, the rest of the page shown as @section ... <table ...).
        for bad in ("`", "**", "\u2018", "\u2019", "\u201c", "\u201d", "@section ", "@code",
                    "@endcode", "<table", "<tr"):
            at = outside.find(bad)
            if at >= 0:
                problems.append(f"{os.path.basename(path)}: shows {bad!r} outside code: "
                                f"...{' '.join(outside[max(0, at - 60):at + 40].split())}...")
    checked = 0
    for page in markdown:
        with open(page, encoding="utf-8") as f:
            for number, span in spans(f.read()):
                checked += 1
                if " ".join(span.split()) not in codes:
                    problems.append(f"{page}:{number}: the site does not show `{span}` as code")
    for p in problems:
        print(p)
    print(f"{len(pages)} pages, {sum(len(p.links) for p in pages.values())} links, "
          f"{checked} code spans of {len(markdown)} Markdown pages; {len(problems)} problems")
    sys.exit(1 if problems or not pages else 0)


if __name__ == "__main__":
    main()
