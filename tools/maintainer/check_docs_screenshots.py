#!/usr/bin/env python3
"""Looks at the built documentation as a reader would, in windows 1,280, 1,024 and 390 pixels
wide (a laptop, half a wide screen, a phone): the start page, the first lesson, the last, the one
with the widest code block, the analyser's page, the page about the bank model in the browser, and
that page itself (filled in with an example). In each, nothing may be cut off or stick out: the
page does not scroll sideways, and every code block, bank map, table, picture and form control
either fits in its box or scrolls inside it by design (overflow-x auto or scroll); no line of a
code block wraps (a bank map would lose its columns); on the phone the text gets at least 340
pixels; every lesson figure shows its labels at 11 pixels or more at 1,280. Writes a
screenshot of each, and checks that docs/screenshots holds the four the pages show, 1,280 wide.

    check_docs_screenshots.py HTML_FOLDER OUT_DIR

OUT_DIR gets NAME.png at 1,280 pixels (lesson.png is the first chapter's) and NAME-1024.png and
NAME-390.png (the top of each page, up to 2,400 pixels). The committed ones are docs/screenshots/
lesson.png, analyzer.png, bank_model_in_browser.png and bank_model.png (the page about the
browser shows bank_model.png): to renew them, run this with OUT_DIR docs/screenshots, look at
each, and commit those four. Prints one line per problem; exit 1 when there is one.
"""
import json
import os
import pathlib
import re
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_chromium import Chromium, ChromiumError  # noqa: E402

WIDTH, HEIGHT, LONGEST = 1280, 900, 2400
NARROWER = (1024, 390)  # also looked at, not committed
PHONE, PHONE_TEXT = 390, 340  # the phone's window, and the least width its text may get
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMMITTED = os.path.join(ROOT, "docs", "screenshots")
# The lesson shown is the first chapter's (Doxygen names a page after its file's path).
CHAPTERS = sorted(d for d in os.listdir(os.path.join(ROOT, "chapters"))
                  if re.fullmatch(r"\d\d_[a-z0-9_]+", d))
FIRST_CHAPTER = CHAPTERS[0]
COMMITTED_SHOTS = ("lesson.png", "analyzer.png", "bank_model_in_browser.png", "bank_model.png")


def png_width(path):
    """The width in pixels of the PNG at `path`, or None when it is not a PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">I", head[16:20])[0]

def widest_code():
    """The chapter whose lesson has the longest line in a code block (the likeliest to wrap)."""
    def widest(chapter):
        with open(os.path.join(ROOT, "chapters", chapter, "README.md"), encoding="utf-8") as f:
            blocks = re.findall(r"```.*?\n(.*?)```", f.read(), re.S)
        return max((len(line) for b in blocks for line in b.split("\n")), default=0)
    return max(CHAPTERS, key=widest)


# The pages: (screenshot, file of the site, JavaScript true once the page is ready). The browser
# page opens on a 16-byte load with the odd lanes off (validator case w16_inactive_odd): merged
# pairs, a picture per group, and the H200's count beside the model's.
PAGES = [
    ("start.png", "index.html", "true"),
    ("lesson.png", f"md_chapters_{FIRST_CHAPTER}_README.html", "true"),
] + [(f"lesson-{c[:2]}.png", f"md_chapters_{c}_README.html", "true")
     for c in sorted({widest_code(), CHAPTERS[-1]} - {FIRST_CHAPTER})] + [
    ("analyzer.png", "md_docs_analyzer.html", "true"),
    ("search.png", "md_docs_search.html?q=wavefront",
     "document.getElementById('workbook-search-results').dataset.ready === 'true'"),
    ("bank_model_in_browser.png", "md_docs_bank_model_in_browser.html", "true"),
    ("bank_model.png", "bank_model.html?width=16&active=0x55555555&expression=t*16",
     "document.getElementById('request') === null ||"
     " document.getElementById('request').dataset.ready === 'true'"),
]

# Every element that sticks out of the page's content area, or whose content is wider than its
# box without scrolling inside it: [description].
FIND_CUT_OFF = r"""
(() => {
  const problems = [];
  const html = document.documentElement;
  if (html.scrollWidth > html.clientWidth + 1) {
    problems.push(`the page scrolls sideways: ${html.scrollWidth} px wide in a ` +
                  `${html.clientWidth} px window`);
  }
  // Doxygen's pages scroll inside #doc-content, beside the navigation tree.
  const content = document.getElementById("doc-content") || document.body;
  if (content.scrollWidth > content.clientWidth + 1) {
    problems.push(`the content scrolls sideways: ${content.scrollWidth} px in a ` +
                  `${content.clientWidth} px box`);
  }
  const right = content.getBoundingClientRect().left + content.clientWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") +
    (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : "");
  const text = (e) => (e.textContent || e.getAttribute("src") || "").trim().slice(0, 60);
  const scrolls = (e) => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
  const inScroller = (e) => {
    for (let a = e.parentElement; a && a !== content; a = a.parentElement) {
      if (scrolls(a)) return true;
    }
    return false;
  };
  const selector = "pre, div.fragment, table, img, svg, object, iframe, textarea, input, select, " +
                   "div.image, code, h1, h2, h3, p, li, td, th";
  for (const e of content.querySelectorAll(selector)) {
    if (e.closest("svg") && e.tagName.toLowerCase() !== "svg") continue;
    if (e.tagName.toLowerCase() === "img" && e.complete && e.naturalWidth === 0) {
      problems.push(`${name(e)} shows no picture: ${text(e)}`);
    }
    if (e.tagName.toLowerCase() === "object" && !(e.contentDocument &&
        e.contentDocument.documentElement.tagName.toLowerCase() === "svg")) {
      problems.push(`${name(e)} shows no picture: ${e.getAttribute("data")}`);
    }
    const box = e.getBoundingClientRect();
    if (box.width === 0 || getComputedStyle(e).visibility === "hidden") continue;
    if (box.width <= 1 && box.height <= 1) continue;  // shown to screen readers only
    if (box.right > right + 1 && !inScroller(e)) {
      problems.push(`${name(e)} sticks out ${Math.round(box.right - right)} px past the ` +
                    `content: ${text(e)}`);
    }
    if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && !scrolls(e) &&
        !["img", "svg", "object", "input", "select", "code"].includes(e.tagName.toLowerCase())) {
      problems.push(`${name(e)} is cut off: ${e.scrollWidth} px of content in a ` +
                    `${e.clientWidth} px box that does not scroll: ${text(e)}`);
    }
  }
  return problems;
})()
"""

# True once every picture has loaded: the images, and the SVG drawings Doxygen embeds as
# <object> (each with its document loaded, an <svg> at its root).
PICTURES_LOADED = r"""
[...document.images].every((i) => i.complete) &&
[...document.querySelectorAll("object")].every((o) => o.contentDocument &&
  o.contentDocument.readyState === "complete" && o.contentDocument.documentElement &&
  o.contentDocument.documentElement.tagName.toLowerCase() === "svg")
"""

# The first characters of each code line that wraps (is taller than 1.6 of its line height).
WRAPPED_LINES = r"""
[...document.querySelectorAll("div.fragment div.line, pre.fragment")].filter((e) => {
  const height = parseFloat(getComputedStyle(e).lineHeight);
  return e.tagName.toLowerCase() === "div" && height > 0 &&
    e.getBoundingClientRect().height > 1.6 * height;
}).map((e) => e.textContent.trim().slice(0, 60))
"""

# [figure, its smallest label as shown in px] of each SVG figure (an <object>) of a page.
LABELS = r"""
[...document.querySelectorAll("object")].filter((o) => o.contentDocument).map((o) =>
  [o.getAttribute("data"), Math.min(...[...o.contentDocument.querySelectorAll("text")].map((t) =>
    parseFloat(o.contentDocument.defaultView.getComputedStyle(t).fontSize) *
    t.getScreenCTM().a))])
"""

# The width the text of a page gets.
TEXT_WIDTH = """(document.querySelector("div.contents") || document.body).clientWidth"""

# Resolves once the page has been painted twice: what it shows is then what it has laid out.
PAINTED = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"

# Lays a Doxygen page out at full height, so that its whole text is on one screenshot (its
# content otherwise scrolls inside a window-high box). Returns the height to capture.
FULL_HEIGHT = r"""
(() => {
  const content = document.getElementById("doc-content");
  if (!content) return document.documentElement.scrollHeight;
  // Below the content, Doxygen's footer (#nav-path) stays at the bottom of the window.
  const footer = document.getElementById("nav-path");
  return content.getBoundingClientRect().top + content.scrollHeight +
    (footer ? footer.getBoundingClientRect().height : 0);
})()
"""


def look_at(browser, site, page_file, ready, width, shot_path):
    """The problems of one page in a window `width` pixels wide; writes its screenshot."""
    path = os.path.join(site, page_file.split("?")[0])
    if not os.path.isfile(path):
        return [f"{page_file}: the site has no such page"]
    problems, query = [], page_file[len(page_file.split("?")[0]):]
    page = browser.open(pathlib.Path(path).as_uri() + query, width, HEIGHT)
    page.wait_for(ready)
    try:
        page.wait_for(PICTURES_LOADED, timeout=15)
    except ChromiumError:
        problems.append(f"{page_file}: not every picture loaded in 15 s (below)")
    for problem in page.evaluate(FIND_CUT_OFF):
        problems.append(f"{page_file} at {width} px: {problem}")
    for line in page.evaluate(WRAPPED_LINES):
        problems.append(f"{page_file} at {width} px: a code line wraps: {line}")
    if width == PHONE and "README" in page_file and page.evaluate(TEXT_WIDTH) < PHONE_TEXT:
        problems.append(f"{page_file} at {width} px: the text gets "
                        f"{page.evaluate(TEXT_WIDTH)} px, less than {PHONE_TEXT}")
    height = min(LONGEST, int(page.evaluate(FULL_HEIGHT)) + 1)
    page.command("Emulation.setDeviceMetricsOverride", width=width, height=max(HEIGHT, height),
                 deviceScaleFactor=1, mobile=False)
    try:
        page.wait_for(PICTURES_LOADED, timeout=15)
    except ChromiumError:
        pass  # said above
    page.evaluate(PAINTED, await_promise=True)
    for problem in page.evaluate(FIND_CUT_OFF):
        problems.append(f"{page_file} at {width} x {height} px: {problem}")
    page.screenshot(shot_path, full_page=False)
    print(f"{os.path.basename(shot_path)}: {page_file} at {width} x {max(HEIGHT, height)} px")
    return problems


def walk_problems(site):
    """The lessons' "Next" links walk every chapter in order, from the first to the start page."""
    page, seen = f"md_chapters_{FIRST_CHAPTER}_README.html", []
    while page.startswith("md_chapters_") and page not in seen and len(seen) <= len(CHAPTERS):
        seen.append(page)
        with open(os.path.join(site, page), encoding="utf-8") as f:
            after = re.search(r'Next: <a [^>]*href="([^"#]+)', f.read())
        page = after.group(1) if after else "(no Next link)"
    print(f"previous/next: {len(seen)} lessons walked, then {page}")
    return [] if seen == [f"md_chapters_{c}_README.html" for c in CHAPTERS] and \
        page == "index.html" else [
        f"the lessons' Next links walk {seen} then {page}, not the chapters in order"]


def search_problems(browser, site):
    """The lessons' search (docs/search.md) finds "wavefront" in at least 8 of them, by lunr."""
    page_path = os.path.join(site, "md_docs_search.html")
    if not os.path.isfile(page_path):
        return ["md_docs_search.html: the site has no search page"]
    page = browser.open(pathlib.Path(page_path).as_uri() + "?q=wavefront", WIDTH, HEIGHT)
    page.wait_for("document.getElementById('workbook-search-results').dataset.ready === 'true'")
    found = page.evaluate("({lunr: !!window.lunr, pages: [...new Set([...document."
                          "querySelectorAll('#workbook-search-results a')].map((a) => "
                          "a.getAttribute('href')))]})")
    lessons = [p for p in found["pages"] if p.startswith("md_chapters_")]
    with open(os.path.join(site, "search_index.js"), encoding="utf-8") as f:  # var X = [...];
        missing = sorted({d["href"] for d in json.loads(f.read().split("=", 1)[1].strip()[:-1])}
                         - set(os.listdir(site)))
    print(f"search: 'wavefront' in {len(lessons)} lessons ({'lunr' if found['lunr'] else 'words'})")
    return [f"search_index.js links to {href}, which the site lacks" for href in missing] + (
        [] if len(lessons) >= 8 and found["lunr"] else [
            f"md_docs_search.html: 'wavefront' found in {len(lessons)} lessons (at least 8), "
            f"lunr {'loaded' if found['lunr'] else 'not loaded (libjs-lunr)'}"])


def label_problems(browser, site):
    """Every figure of the lessons and the analyser page shows its labels at 11 px at 1,280."""
    found = []
    for name in [f"md_chapters_{c}_README.html" for c in CHAPTERS] + ["md_docs_analyzer.html"]:
        page = browser.open(pathlib.Path(os.path.join(site, name)).as_uri(), WIDTH, HEIGHT)
        page.wait_for(PICTURES_LOADED, timeout=15)
        found += [(name, figure, size) for figure, size in page.evaluate(LABELS)]
    print(f"figures: {len(found)}, the smallest label {min([f[2] for f in found] or [0]):.1f} px")
    return [f"{name}: {figure}'s smallest label shows at {size:.1f} px at {WIDTH} (11 at least)"
            for name, figure, size in found if size < 11]


def main():
    if len(sys.argv) != 3 or not os.path.isdir(sys.argv[1]):
        sys.exit(__doc__)
    site, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    problems = []
    try:
        with Chromium() as browser:
            for width in (WIDTH,) + NARROWER:
                for shot, page_file, ready in PAGES:
                    if width != WIDTH and shot == "bank_model.png":
                        continue  # its own layout, not yet made for narrow windows
                    name = shot if width == WIDTH else shot.replace(".png", f"-{width}.png")
                    problems += look_at(browser, site, page_file, ready, width,
                                        os.path.join(out, name))
            problems += search_problems(browser, site) + label_problems(browser, site)
    except ChromiumError as e:
        sys.exit(f"check_docs_screenshots.py: {e}")
    problems += walk_problems(site)
    # The committed screenshots are these pages' (the page about the browser shows two of them).
    for shot in COMMITTED_SHOTS:
        committed = os.path.join(COMMITTED, shot)
        if not os.path.isfile(committed):
            problems.append(f"docs/screenshots/{shot} is not committed: run this with OUT_DIR "
                            f"docs/screenshots, look at it, and commit it")
        elif png_width(committed) != WIDTH:
            problems.append(f"docs/screenshots/{shot} is {png_width(committed)} pixels wide, not "
                            f"{WIDTH}")
    for p in problems:
        print("PROBLEM: " + p)
    print(f"{len(PAGES)} pages at {WIDTH}, {NARROWER[0]} and {NARROWER[1]} px: " +
          ("nothing cut off or sticking out" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
