#!/usr/bin/env python3
"""Checks every local link of a built HTML site: each href, src and (object) data that points into
the site must name a file that exists (and, with a #fragment, an id or name in that file).

    tools/maintainer/check_html_links.py HTML_FOLDER

Links to other sites (http:, https:, mailto:, ftp:) and javascript: are not followed; any other
scheme (file:, or text such as `file:line` that Doxygen turned into a link) is broken. Prints each broken
link with the page that holds it; exit 1 when there is one.
"""
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.anchors = [], set()

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src", "data") and value:
                self.links.append(value)
            if name in ("id", "name") and value:
                self.anchors.add(value)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    site = os.path.abspath(sys.argv[1])
    pages, anchors = {}, {}
    for folder, _, files in os.walk(site):
        for name in files:
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                parser = Links()
                parser.feed(open(path, encoding="utf-8", errors="replace").read())
                pages[path], anchors[path] = parser.links, parser.anchors
    broken = []
    for page, links in sorted(pages.items()):
        for link in links:
            parts = urlsplit(link)
            where = os.path.relpath(page, site)
            if parts.scheme in ("http", "https", "mailto", "ftp", "javascript") or \
                    link.startswith("//"):
                continue
            if parts.scheme:  # file:, or text such as "file:line" that became a link
                broken.append(f"{where}: '{link}' is a {parts.scheme}: link, which no site can follow")
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(page), unquote(parts.path))) \
                if parts.path else page
            if not os.path.exists(target):
                broken.append(f"{where}: '{link}' names a file that does not exist")
            elif parts.fragment and target.endswith(".html") and target in anchors \
                    and parts.fragment not in anchors[target]:
                broken.append(f"{where}: '{link}' names an anchor the page does not have")
    for b in broken:
        print(b)
    print(f"{len(pages)} pages, {sum(len(v) for v in pages.values())} links, {len(broken)} broken")
    return 1 if broken or not pages else 0


if __name__ == "__main__":
    sys.exit(main())
