#!/usr/bin/env python3
"""Drives the bank model's tile view (build/tools/bank_model.html) in headless Chromium, as a
student would, and holds every cell it draws to what analyze_smem_access --json prints.

    check_bank_model_tile.py PAGE.html ANALYZER [--random N] [--seed S]

For each case (a request, its tile row in bytes, an address compared) it reads every cell of each
tile (row, column, address, banks, lanes, wavefronts, frame) and works them out again from the
analyser's JSON: the rows a lane touches; a cell's words' banks; the lanes whose access it is;
the passes its words take through their banks after the earlier groups' (none for cp.async); a
frame exactly where one is not its group's first pass. It points at cells and clicks them (that
bank's cells marked in both tiles, none after a second click), picks the menu's before/after
examples, opens the copied link anew, and opens the page 390 px wide (no sideways scrolling).
Exit 1 when anything differs, 77 (skipped) where there is no Chromium.
"""
import argparse
import json
import os
import pathlib
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_bank_model_page import FILL_AND_READ, READ_PAGE, arguments, form, random_cases  # noqa
from headless_chromium import Chromium, ChromiumError, find_chromium  # noqa: E402

MOST_COLUMNS = 256

CASES = [  # (form, tile row, address compared, its tile row); the last four refused in words
    (form("t*32*4 + 5*4"), "128", "t*33*4 + 5*4", "132"),
    (form("t*32*4 + 5*4"), "", "t*32*4 + ((5 ^ t) & 31)*4", ""),
    (form("(t%8)*128 + (t/8)*16", op="ldmatrix.x4"), "128",
     "(t%8)*128 + ((t/8 ^ t%8) & 7)*16", ""),
    (form("(t%8)*144 + (t/8)*16", op="ldmatrix.x2"), "144", "", ""),
    (form("(t/8)*144 + (t%8)*16", op="cp.async.g128"), "144",
     "(t/8)*128 + ((t%8) ^ (t/8))*16", "128"),
    (form("t*8", width=8), "256", "(t/2)*8", ""), (form("t*16", width=16), "512", "", ""),
    (form("t", width=1), "32", "t*128", "4096"), (form("t*64", width=2), "64", "", ""),
    (form("t*128", active="0-15"), "128", "", ""), (form("28"), "", "", ""),
    (form("t*8", op="store"), "64", "", ""), (form("t*4"), "4096", "", ""),
    (form("t*8", width=8), "132", "", ""), (form("t"), "1024", "", ""),
    (form("t*4"), "12x", "", ""), (form("t*4"), "128", "t*", ""),
]

FILL_TILE = r"""
(async (c, pitch, compare, comparePitch) => {
  document.getElementById("pitch").value = pitch;
  document.getElementById("compare").value = compare;
  document.getElementById("compare-pitch").value = comparePitch;
  return await (%s)(c);
})
""" % FILL_AND_READ.strip()

READ_TILES = r"""
(() => ["tile-first", "tile-second"].map((id) => {
  const figure = document.getElementById(id);
  if (figure.hidden) return null;
  return {
    caption: (figure.querySelector("figcaption") || {}).textContent || "",
    problem: [...figure.querySelectorAll(".tile-problem")].map((p) => p.textContent).join(" "),
    cells: [...figure.querySelectorAll(".tile-cell")].map((c) => [
      Number(c.dataset.row), Number(c.dataset.column), Number(c.dataset.address),
      c.dataset.banks, c.dataset.lanes, c.dataset.waves, c.classList.contains("late"),
      c.classList.contains("chosen-bank")]),
  };
}))()
"""


def expected_tile(data, pitch):
    """The cells the page must draw for the analyser's JSON `data` and rows of `pitch` bytes, as
    READ_TILES reads them (no bank marked), or None where no tile can be drawn."""
    element, addresses = data["width"], data["addresses"]
    if pitch is None or pitch <= 0 or pitch % element or pitch // element > MOST_COLUMNS:
        return None
    asynchronous = data["op"].startswith("cp.async")
    words, first, before = {}, set(), 0
    for group in data["group_detail"]:
        first.add(before + 1)
        for bank, served in enumerate(group["banks"]):
            for n, entry in enumerate(served):
                wave = None if asynchronous else before + n + 1
                words.setdefault(entry["word"], []).append((set(entry["lanes"]), wave))
        before += group["wavefronts"]
    rows = sorted({a // pitch for a in addresses if a >= 0})
    cells = []
    for row in rows:
        for column in range(pitch // element):
            address = row * pitch + column * element
            lanes = [t for t, a in enumerate(addresses) if a == address]
            span = range(address // 4, (address + element - 1) // 4 + 1)
            waves = sorted({wave for w in span for served, wave in words.get(w, [])
                            if wave is not None and served & set(lanes)})
            late = any(wave not in first for wave in waves)
            cells.append([row, column, address, " ".join(str(w % 32) for w in span),
                          " ".join(map(str, lanes)), " ".join(map(str, waves)), late, False])
    return cells


def row_bytes(text, otherwise):
    return otherwise if not text.strip() else int(text) if text.strip().isdigit() else None


class Checker:
    def __init__(self, page, analyzer):
        self.page, self.analyzer = page, analyzer
        self.differences, self.counts = [], {"cases": 0, "cells": 0, "points": 0, "clicks": 0}

    def differ(self, what, message):
        self.differences.append(f"{what}: {message}")
        print(f"DIFFERS: {what}: {message}", flush=True)

    def analyse(self, case):
        r = subprocess.run([self.analyzer, "--json", *arguments(case)], capture_output=True,
                           text=True, timeout=60)
        return json.loads(r.stdout) if r.returncode == 0 else None

    def check(self, case, pitch, compare, compare_pitch):
        what = f"{' '.join(arguments(case))} (row {pitch or 128}, compared {compare!r})"
        self.counts["cases"] += 1
        self.page.evaluate(f"({FILL_TILE})({json.dumps(case)}, {json.dumps(pitch)}, "
                           f"{json.dumps(compare)}, {json.dumps(compare_pitch)})",
                           await_promise=True)
        shown = self.page.evaluate(READ_TILES)
        data = self.analyse(case)
        if data is None:
            return shown  # bad input: the page shows the error, check_bank_model_page.py holds it
        first_row = row_bytes(pitch, 128)
        wanted = [(data, first_row)]
        if compare:
            other = self.analyse(dict(case, text=compare, given="expression"))
            wanted.append((other, row_bytes(compare_pitch, first_row)))
        if (shown[1] is None) != (not compare):
            return self.differ(what, "a second tile only where an address is compared") or shown
        for tile, (d, row) in zip(shown, wanted):
            if d is None:
                if "The address to compare with" not in tile["problem"]:
                    self.differ(what, f"a bad address compared: the page says {tile['problem']!r}")
                continue
            expected = expected_tile(d, row)
            if expected is None:
                if tile["cells"] or not tile["problem"].startswith("No tile drawn"):
                    self.differ(what, f"rows of {row} bytes cannot be drawn, and the page draws "
                                      f"{len(tile['cells'])} cells ({tile['problem']!r})")
                continue
            self.counts["cells"] += len(expected)
            if tile["cells"] != expected:
                wrong = next((c, e) for c, e in zip(tile["cells"] + [None] * len(expected),
                                                    expected) if c != e)
                self.differ(what, f"{len(tile['cells'])} cells for {len(expected)}: {wrong}")
            waves = [int(w) for c in expected if c[4] for w in c[5].split()]
            if waves and max(waves) != d["wavefronts"]:
                self.differ(what, f"the cells' last wavefront {max(waves)} is not the "
                                  f"request's {d['wavefronts']}")
            if any(c[6] for c in expected) and d["wavefronts"] == d["ideal"]:
                self.differ(what, "a cell is framed in a request that takes its ideal")
            if f"{d['wavefronts']} wavefront" not in tile["caption"]:
                self.differ(what, f"the caption {tile['caption']!r} is not {d['wavefronts']}")
        return shown

    def point_and_click(self, what, shown):
        """Points at three cells of the first tile, clicks one twice."""
        cells = shown[0]["cells"] if shown and shown[0] else []
        touched = [n for n, c in enumerate(cells) if c[4]]
        for n in touched[:2] + [n for n, c in enumerate(cells) if not c[4]][:1]:
            row, column, address, banks, lanes = cells[n][:5]
            info = self.page.evaluate(
                f"(() => {{ const c = document.querySelectorAll('#tile-first .tile-cell')[{n}];"
                " c.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));"
                " return document.getElementById('tile-info').textContent; })()")
            self.counts["points"] += 1
            said = [f"row {row}, column {column}:", str(address),
                    f"bank{'s' if ' ' in banks else ''} {banks.split()[0]}"]
            said += [f" {lanes.replace(' ', ', ')}"] if lanes else ["no lane touches it"]
            if any(s not in info for s in said):
                self.differ(what, f"pointing at cell {n} says {info!r}, not all of {said}")
        if not touched:
            return
        bank = cells[touched[-1]][3].split()[0]
        for click in (1, 2):
            self.page.evaluate(f"document.querySelectorAll('#tile-first .tile-cell')"
                               f"[{touched[-1]}].click()")
            self.counts["clicks"] += 1
            marked = self.page.evaluate(READ_TILES)
            for tile in (t for t in marked if t and t["cells"]):
                wrong = [c[:4] for c in tile["cells"]
                         if c[7] != (click == 1 and bank in c[3].split())]
                if wrong:
                    self.differ(what, f"click {click} on bank {bank} marks {wrong[:3]} wrongly")
            info = self.page.evaluate("document.getElementById('tile-info').textContent")
            if click == 1 and not info.startswith(f"Bank {bank} is marked"):
                self.differ(what, f"clicking a cell of bank {bank} says {info!r}")


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip())
    parser.add_argument("page")
    parser.add_argument("analyzer")
    parser.add_argument("--random", type=int, default=40)
    parser.add_argument("--seed", type=int, default=20261206)
    args = parser.parse_args()
    for path in (args.page, args.analyzer):
        if not os.path.isfile(path):
            sys.exit(f"check_bank_model_tile.py: {path} does not exist")
    if find_chromium() is None:
        print("SKIP: no chromium on the PATH to drive the page in (Debian: apt-get install "
              "chromium)")
        return 77
    rng = random.Random(args.seed)
    cases = CASES + [(c, rng.choice(["", "32", "64", "132", "144", "256", "1024"]),
                      "", "") for c in random_cases(rng, args.random)]
    try:
        with Chromium() as browser:
            page = browser.open(pathlib.Path(os.path.abspath(args.page)).as_uri())
            page.wait_for("document.getElementById('request').dataset.ready === 'true'")
            page.evaluate(READ_PAGE)
            checker = Checker(page, args.analyzer)
            for case, pitch, compare, compare_pitch in cases:
                shown = checker.check(case, pitch, compare, compare_pitch)
                checker.point_and_click(" ".join(arguments(case)), shown)
            # The menu's before/after examples: each drawn as the analyser counts it, the after
            # taking fewer wavefronts than the before.
            pairs = page.evaluate("[...document.querySelectorAll('#before-after-examples option')]"
                                  ".map((o) => o.value)")
            for value in pairs:
                page.evaluate(f"(() => {{ const m = document.getElementById('example');"
                              f" m.value = {json.dumps(value)};"
                              " m.dispatchEvent(new Event('change', {bubbles: true})); })()")
                f = page.evaluate("Object.fromEntries(['expression', 'op', 'width', 'pitch', "
                                  "'compare', 'compare-pitch'].map((id) => "
                                  "[id, document.getElementById(id).value]))")
                case = form(f["expression"], op=f["op"], width=int(f["width"]))
                shown = checker.check(case, f["pitch"], f["compare"], f["compare-pitch"])
                waves = [int(t["caption"].split(": ")[-1].split()[0]) for t in shown if t]
                if len(waves) != 2 or waves[1] >= waves[0]:
                    checker.differ(f"example {value}", f"before and after take {waves} wavefronts")
            # The link the button copies draws the same tiles, opened anew; and on a phone the
            # page does not scroll sideways.
            shown = checker.check(form("t*33*4 + 5*4"), "132", "t*32*4 + 5*4", "128")
            page.evaluate("document.getElementById('copy-link').click()")
            link = page.evaluate("document.getElementById('link').value")
            for width in (1280, 390):
                again = browser.open(link, width=width)
                again.wait_for("document.getElementById('request').dataset.ready === 'true'")
                if again.evaluate(READ_TILES) != shown:
                    checker.differ("link", f"{link} opened {width} px wide draws other tiles")
                wide = again.evaluate("document.documentElement.scrollWidth")
                if wide > width:
                    checker.differ("link", f"the page is {wide} px wide in a {width} px window")
    except ChromiumError as e:
        sys.exit(f"check_bank_model_tile.py: {e}")
    counts = checker.counts
    print(f"tile view: {counts['cases']} cases ({len(pairs)} before/after examples), "
          f"{counts['cells']} cells held to the analyser's JSON, {counts['points']} cells "
          f"pointed at, {counts['clicks']} clicks; "
          + ("every tile is the analyser's" if not checker.differences
             else f"{len(checker.differences)} differences"))
    return 1 if checker.differences else 0


if __name__ == "__main__":
    sys.exit(main())
