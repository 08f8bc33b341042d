#!/usr/bin/env python3
"""Writes the lessons' full-text search index for the documentation site: every section (a `##`
heading and what follows it) of the README, each chapter's lesson and the analyser's pages, as
`search_index.js`, which docs/search.md's page searches with lunr (Debian's libjs-lunr) or, where
the site has no lunr, word by word. Doxygen's own search box finds titles and C++ names only.

    make_search_index.py OUTPUT.js PAGE.md ...

The README's instructors' parts are left out, as the students' site leaves them out. Each
section links to its page (Doxygen names a page after its file: md_chapters_01_x_README.html;
the README is index.html).
"""
import json
import os
import re
import sys


def page_file(path):
    """The HTML file Doxygen writes for the Markdown page at `path`."""
    parts = os.path.normpath(path).split(os.sep)
    if parts[-1] == "README.md" and "chapters" not in parts:
        return "index.html"
    start = max(i for i, p in enumerate(parts) if p in ("chapters", "docs"))
    return "md_" + "_".join(parts[start:])[:-3] + ".html"


def plain(markdown):
    """Markdown as words: no markers, tags, link targets or emphasis."""
    text = re.sub(r"<!--.*?-->|<[^>]+>", " ", markdown, flags=re.S)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[`*#|>]", " ", text)
    return " ".join(text.split())


def sections(path):
    with open(path, encoding="utf-8") as f:
        text = re.sub(r"<!-- instructors -->.*?<!-- /instructors -->", "", f.read(), flags=re.S)
    title = text.splitlines()[0].lstrip("# ").strip() if text else path
    parts = re.split(r"^## +(.*)$", text, flags=re.M)
    found = [(title, parts[0])] + list(zip(parts[1::2], parts[2::2]))
    return [{"page": title, "section": heading.strip() if i else "", "href": page_file(path),
             "text": plain(body)} for i, (heading, body) in enumerate(found) if plain(body)]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    docs = [d for path in argv[2:] for d in sections(path)]
    for number, doc in enumerate(docs):
        doc["id"] = str(number)
    with open(argv[1], "w", encoding="utf-8") as f:
        f.write("// Made by docs/make_search_index.py; do not edit.\nvar WORKBOOK_SEARCH = " +
                json.dumps(docs, ensure_ascii=False) + ";\n")


if __name__ == "__main__":
    main(sys.argv)
