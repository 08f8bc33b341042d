#!/usr/bin/env python3
"""Drives the bank model in the browser (build/tools/bank_model.html) in headless Chromium, as a
student would, and holds every answer it shows to what analyze_smem_access prints for the same
request.

    check_bank_model_page.py PAGE.html ANALYZER SOURCE_ROOT [--random N] [--seed S]

For each case the script fills in the page's form (the fields a student types or picks, then the
events typing sends), reads what the page shows, and runs the analyser on the arguments the
fields stand for (the script's own reading of the form, written here and not taken from the
page). The page must show:

- the analyser's exit status: an answer, or bad input, and for screen readers the analyser's
  line of numbers or the error's first line;
- for an answer: its `--json` output, character for character; the same groups, wavefronts,
  ideal, conflicts, ways and merged pairs in its table; its bank picture as `--no-colour` prints
  it, and coloured where `--colour` colours it; its `--svg -` picture, byte for byte; the command
  line it ran, which is the script's; and, exactly where the request is one of the H200 cases of
  tools/student/browser/h200-counted-cases.tsv, that case's counted wavefronts and conflicts;
- for bad input: the analyser's message, with its caret (less the usage text that follows a wrong
  argument in a terminal), the caret drawn under the character it points at.

The page must also work offline: it may ask for nothing but its own file and what it makes in
memory (data: and blob: addresses).

The cases: edge cases (inactive lanes, 8- and 16-byte accesses, merged pairs, ldmatrix.x1/x2/x4,
every cp.async option, stores, 1- and 2-byte accesses, broadcasts), cases of the counted file
(typed, and picked from the page's menu), the analyser page's examples (picked from the page's
menu: each must be a command of docs/analyzer.md), bad input, and N random requests (200 by
default) from a fixed seed. Prints one line per difference and a last line with the counts;
exit 1 when anything differs, 77 (skipped) where there is no Chromium.
"""
import argparse
import json
import os
import pathlib
import random
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from headless_chromium import Chromium, ChromiumError, find_chromium  # noqa: E402

FIXED_WIDTH_OPS = ("ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4", "cp.async.g16", "cp.async.g32",
                   "cp.async.g64", "cp.async.g128", "cp.async.g512")
OPS = ("load", "store") + FIXED_WIDTH_OPS


def form(text, op="load", width=4, active="", shared="", given="expression"):
    """One state of the page's form."""
    return {"given": given, "text": text, "op": op, "width": width, "active": active,
            "shared": shared}


def addresses(values, **fields):
    return form(" ".join(str(v) for v in values), given="addresses", **fields)


def arguments(case):
    """The analyser's arguments for a form: what the page's fields stand for."""
    args = []
    if case["op"] != "load":
        args += ["--op", case["op"]]
    if case["op"] not in FIXED_WIDTH_OPS and case["width"] != 4:
        args += ["--width", str(case["width"])]
    if case["active"] != "":
        args += ["--active", case["active"]]
    if case["shared"] != "":
        args += ["--shared-bytes", case["shared"]]
    if case["given"] == "addresses":
        args += ["--addresses", case["text"]]
    else:
        args.append(case["text"])
    return args


# --- The cases -----------------------------------------------------------------------------

def edge_cases():
    lanes = range(32)
    off = -1
    return [
        # 4-byte loads: strides, columns, broadcast, a word shared by halves.
        form("t*4"), form("t*8"), form("t*128"), form("t*33*4"), form("28"),
        form("t*32*4 + 5*4"), form("(t%16)*4"), form("0x80*t + 0x7c"), form("(t >> 1) << 3"),
        form("t*4 ^ 0x40"), form("(31 - t)*4"), form("t*8 + 4"),
        # Inactive lanes, as a mask, as ranges, and as -1 addresses.
        form("t*128", active="0x0000ffff"), form("t*128", active="0-7,16-23"),
        form("t*8", active="31"), form("t*4", active="0xffffffff"), form("t*4", active="0x0"),
        form("t*16", op="cp.async.g64", active="0x0"),
        addresses([128 * t if t % 2 == 0 else off for t in lanes]),
        # 8- and 16-byte accesses: groups, merged pairs (t ^ 1, t ^ 2), inactive partners.
        form("t*8", width=8), form("t*16", width=8), form("(t/2)*8", width=8),
        form("(t - (t & 2))*8", width=8), form("64", width=8), form("64", width=8, op="store"),
        form("t*16", width=8, active="0-7,16-23"), form("(t/2)*8", width=8, op="store"),
        form("t*16", width=16), form("(t/2)*16", width=16), form("(t - (t & 2))*16", width=16),
        form("t*8", width=16, active="0,2,4,6"), form("t*16", width=16, active="0-7"),
        form("(t%8)*128", width=16), form("t*16", width=16, op="store"),
        form("(t%8)*128 + ((t/8 ^ t%8) & 7)*16", width=16),
        addresses([16 * t if t >= 8 else off for t in lanes], width=16),
        # Lane pairs of two kinds in one warp: neither merges.
        addresses([8 * (t // 2) if t < 16 else 8 * (t & ~2) for t in lanes], width=8),
        # 1- and 2-byte accesses.
        form("t", width=1), form("t*128", width=1), form("t/4", width=1), form("t*2", width=2),
        form("t*64", width=2), form("t*128", width=2, op="store"),
        # Stores with conflicts, and one word for every lane.
        form("t*128", op="store"), form("t*8", op="store"), form("0", op="store"),
        # ldmatrix: 1, 2 and 4 matrices, plain and swizzled rows, lanes past the matrices.
        form("t*128", op="ldmatrix.x1"), form("t*16", op="ldmatrix.x1"),
        form("(t%8)*128 + (t/8)*16", op="ldmatrix.x2"),
        form("(t%8)*128 + ((t/8 ^ t%8) & 7)*16", op="ldmatrix.x2"),
        form("(t%8)*128 + (t/8)*16", op="ldmatrix.x4"),
        form("(t%8)*128 + ((t/8 ^ t%8) & 7)*16", op="ldmatrix.x4"),
        form("(t%8)*144 + (t/8)*16", op="ldmatrix.x4"), form("0", op="ldmatrix.x4"),
        # cp.async: every global row option, padded, swizzled and strided shared rows.
        form("t*16", op="cp.async.g16"), form("t*16", op="cp.async.g32"),
        form("t*16", op="cp.async.g64"), form("t*16", op="cp.async.g128"),
        form("t*16", op="cp.async.g512"), form("(t/8)*144 + (t%8)*16", op="cp.async.g128"),
        form("(t/8)*128 + ((t%8) ^ (t/8))*16", op="cp.async.g128"),
        form("t*128", op="cp.async.g512"),
        form("t*16", op="cp.async.g512", active="1,3,5,7,9,11,13,15"),
        # The shared-memory size given, and met exactly.
        form("t*4", shared="128"), form("t*16", width=16, shared="0x200"),
        # The width chosen stays unused where the operation fixes it.
        form("t*16", op="ldmatrix.x4", width=2), form("t*16", op="cp.async.g64", width=8),
    ]


def bad_input():
    return [
        form("t*4 + )"), form("(t*4"), form("t*6"), form("t*"), form("t**4"), form("2*x"),
        form(""), form("   "), form("t*4 t*8"), form("--t"), form("-t*4"), form("t - 1"),
        form("4*(t/(3-t))"), form("t << 70"), form("9223372036854775807 + t"),
        form("9223372036854775804"), form("(" * 300 + "t" + ")" * 300),
        form("t*4", active="0-40"), form("t*4", active="0x100000000"), form("t*4", active="  "),
        form("t*4", active="5-2"), form("t*4", active="0xfz"), form("t*4", shared="0"),
        form("t*4", shared="1k"), form("t*64", shared="1024"), form("t*8", width=8, shared="255"),
        form("t*8", width=16), form("t*2", width=4), form("t", op="ldmatrix.x4"),
        form("t*16", op="ldmatrix.x4", active="0-15"),
        addresses([0, 4, 8]), addresses(["4x"] * 32), addresses([-5] * 32),
        addresses([2 ** 64] * 32), addresses([4 * t for t in range(33)]),
    ]


def random_cases(rng, count):
    """`count` random forms: addresses and expressions of every op, width and lane mask."""
    cases = []
    for n in range(count):
        op = rng.choice(OPS + ("load", "load", "store"))
        width = 16 if op in FIXED_WIDTH_OPS else rng.choice([1, 2, 4, 4, 8, 16])
        active = ""
        kind = rng.random()
        if kind < 0.2:
            active = f"0x{rng.getrandbits(32) | (1 << rng.randrange(32)):08x}"
        elif kind < 0.35:
            first = rng.randrange(32)
            last = rng.randrange(first, 32)
            active = f"{first}-{last}"
            if rng.random() < 0.3:
                active += f",{rng.randrange(32)}"
        if op.startswith("ldmatrix"):
            active = ""  # every row lane must be active; bad input covers the rest
        if n % 2 == 0:
            values = []
            for t in range(32):
                if not op.startswith("ldmatrix") and rng.random() < 0.15:  # a lane off
                    values.append(-1)
                else:
                    values.append(width * rng.randrange(4096 // width))
            cases.append(addresses(values, op=op, width=width, active=active))
        else:
            row = rng.choice([16, 32, 64, 128, 132, 144, 256])
            chunk = width
            per_row = max(1, row // chunk)
            shape = rng.choice(["stride", "column", "xor", "pairs", "mixed"])
            if shape == "stride":
                text = f"t*{width * rng.randrange(0, 70)} + {width * rng.randrange(64)}"
            elif shape == "column":
                text = f"(t%{per_row})*{chunk} + (t/{per_row})*{row}"
            elif shape == "xor":
                mask = per_row - 1 if per_row > 1 else 0
                text = f"(t%8)*{row} + ((t/8 ^ t%8) & {mask})*{chunk}"
            elif shape == "pairs":
                text = f"(t/2)*{width * rng.randrange(1, 9)}"
            else:
                text = f"((t*{rng.randrange(1, 40)}) ^ {rng.randrange(256)}) % 512 * {width}"
            cases.append(form(text, op=op, width=width, active=active))
    return cases


def counted_file(root):
    """The page's H200 cases, in the file's order: [((width, op, addresses), (name, wavefronts,
    conflicts))]."""
    path = os.path.join(root, "tools", "student", "browser", "h200-counted-cases.tsv")
    cases = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, width, op, wavefronts, conflicts, lanes = line.rstrip("\n").split("\t")
        key = (int(width), op, tuple(int(a) for a in lanes.split()))
        cases.append((key, (name, int(wavefronts), int(conflicts))))
    return cases


def analyser_commands(root):
    """The argument lists of the requests docs/analyzer.md shows: its analyze_smem_access
    commands, the arguments it quotes in code spans (``--width 16 't*16'``), and the expressions
    its pictures are drawn from (`t*33*4`)."""
    text = open(os.path.join(root, "docs", "analyzer.md"), encoding="utf-8").read()
    found = []
    for m in re.finditer(r"analyze_smem_access ((?:--[\w.-]+ (?:\d+ |[\w.-]+ )?)*'[^'\n]*')", text):
        found.append(shlex.split(m.group(1)))
    for m in re.finditer(r"``(--[^`]*'[^`]*')``|`('[^`]*')`", text):
        found.append(shlex.split(m.group(1) or m.group(2)))
    for m in re.finditer(r"(?<!`)`([t0-9][^`]*)`(?!`)", text):
        found.append([m.group(1)])
    return found


# --- The page ------------------------------------------------------------------------------

# Fills in the form as a student would, field by field, each with the event it sends (the
# operation first: it decides whether the width can be picked), then reads what the page shows.
FILL_AND_READ = r"""
(async (c) => {
  const $ = (id) => document.getElementById(id);
  const form = $("request");
  $("op").value = c.op;
  $("op").dispatchEvent(new Event("change", {bubbles: true}));
  for (const radio of form.elements.given) radio.checked = radio.value === c.given;
  if (!$("width").disabled) $("width").value = String(c.width);
  $("active").value = c.active;
  $("shared-bytes").value = c.shared;
  $(c.given === "addresses" ? "addresses" : "expression").value = c.text;
  const typed = $(c.given === "addresses" ? "addresses" : "expression");
  [...form.elements.given].find((r) => r.checked)
    .dispatchEvent(new Event("change", {bubbles: true}));
  typed.dispatchEvent(new Event("input", {bubbles: true}));
  return await readPage();
})
"""

# Picks option `value` of menu `id` as a student would, then reads what the page shows.
PICK_AND_READ = r"""
(async (id, value) => {
  const menu = document.getElementById(id);
  menu.value = value;
  menu.dispatchEvent(new Event("input", {bubbles: true}));
  menu.dispatchEvent(new Event("change", {bubbles: true}));
  return await readPage();
})
"""

# What the page shows: its status, command, table, picture (text, and the text with colour codes
# where it is coloured), SVG, JSON, counted figure and error; for an error with a caret, how far
# the caret is drawn from the character it points at (CSS pixels).
READ_PAGE = r"""
window.readPage = async () => {
  const $ = (id) => document.getElementById(id);
  const shown = (id) => !$(id).hidden && $(id).getClientRects().length > 0;
  const out = {status: document.getElementById("request").dataset.status,
               command: $("command").textContent, answer: shown("answer"),
               error_shown: shown("error"), spoken: $("spoken").textContent};
  if (out.answer) {
    for (const id of ["groups", "wavefronts", "ideal", "conflicts", "ways", "merged-pairs"]) {
      out[id] = $(id).textContent;
    }
    out.json = $("json").textContent;
    out.picture = $("picture").textContent;
    const codes = {worst: "\x1b[1;31m", shared: "\x1b[36m"};
    out.coloured = [...$("picture").childNodes].map((n) => n.nodeType === Node.TEXT_NODE
      ? n.textContent : (codes[n.className] || "?") + n.textContent + "\x1b[0m").join("");
    out.svg = await (await fetch($("svg").src)).text();
    out.counted = $("counted").textContent;
    out.counted_case = $("counted").dataset.case || null;
  } else {
    out.error = $("error").textContent;
    const lines = out.error.split("\n");
    const caretLine = lines.findIndex((l, i) => i > 0 && /^ *\^$/.test(l));
    if (caretLine > 0) {
      const node = $("error").firstChild;
      const start = (line) => lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0);
      const column = lines[caretLine].indexOf("^");
      const at = (offset) => {
        const range = document.createRange();
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        return range.getBoundingClientRect().left;
      };
      out.caret_offset_px = at(start(caretLine) + column) - at(start(caretLine - 1) + column);
    }
  }
  return out;
};
"""


class Checker:
    def __init__(self, page, analyzer, counted):
        self.page, self.analyzer, self.counted = page, analyzer, counted
        self.differences = []
        self.counts = {}
        self.answered = {}  # kind: [answers, bad input]

    def run_analyser(self, *args):
        r = subprocess.run([self.analyzer, *args], capture_output=True, text=True, timeout=60)
        return r.returncode, r.stdout, r.stderr

    def differ(self, kind, what, message):
        self.differences.append(f"{kind} case {what}: {message}")
        print(f"DIFFERS: {kind} case {what}: {message}", flush=True)

    def compare(self, kind, args, shown):
        """Holds what the page showed for `args` to what the analyser prints for them."""
        self.counts[kind] = self.counts.get(kind, 0) + 1
        what = shlex.join(args)
        expected_command = ["analyze_smem_access"] + args
        try:
            command = shlex.split(shown["command"])
        except ValueError as e:
            command = f"not a shell command ({e})"
        if command != expected_command:
            self.differ(kind, what, f"the page ran {shown['command']!r}")
        status, json_text, error = self.run_analyser("--json", *args)
        answered = self.answered.setdefault(kind, [0, 0])
        answered[0 if status == 0 else 1] += 1
        if str(status) != shown["status"]:
            self.differ(kind, what, f"the analyser exits {status}, the page's status is "
                                    f"{shown['status']}")
            return
        if status != 0:
            usage = error.find("\n\nusage:")
            expected = error if usage < 0 else error[:usage + 1]
            if shown["answer"] or not shown["error_shown"]:
                self.differ(kind, what, "bad input, but the page shows no error")
            if shown.get("error") != expected:
                self.differ(kind, what, f"the page's error {shown.get('error')!r} is not the "
                                        f"analyser's {expected!r}")
            if "caret_offset_px" in shown and abs(shown["caret_offset_px"]) > 0.5:
                self.differ(kind, what, f"the caret is drawn {shown['caret_offset_px']:.1f} px "
                                        f"from the character it points at")
            if re.search(r"\n *\^\n$", expected) and "caret_offset_px" not in shown:
                self.differ(kind, what, "the analyser draws a caret and the page does not")
            if shown["spoken"] != expected.split("\n")[0]:
                self.differ(kind, what, f"a screen reader hears {shown['spoken']!r}, not the error")
            return
        data = json.loads(json_text)
        if shown["json"] != json_text:
            self.differ(kind, what, "the page's JSON is not the analyser's --json output")
        for cell, key in (("groups", "groups"), ("wavefronts", "wavefronts"), ("ideal", "ideal"),
                          ("conflicts", "conflicts"), ("ways", "ways")):
            if shown[cell] != str(data[key]):
                self.differ(kind, what, f"the page shows {cell} {shown[cell]}, the analyser "
                                        f"{data[key]}")
        if shown["merged-pairs"] != ("yes" if data["merged_pairs"] else "no"):
            self.differ(kind, what, f"the page says lane pairs merged: {shown['merged-pairs']}, "
                                    f"the analyser {data['merged_pairs']}")
        plain = self.run_analyser("--no-colour", *args)[1]
        coloured = self.run_analyser("--colour", *args)[1]
        if shown["picture"] != plain:
            self.differ(kind, what, "the page's picture is not the analyser's text picture")
        if shown["spoken"] != plain.split("\n")[0]:
            self.differ(kind, what, f"a screen reader hears {shown['spoken']!r}, not the "
                                    f"analyser's line of numbers")
        if shown["coloured"] != coloured:
            self.differ(kind, what, "the page colours other cells than the analyser does")
        if shown["svg"] != self.run_analyser("--svg", "-", *args)[1]:
            self.differ(kind, what, "the page's SVG is not what --svg - draws")
        key = (data["width"], data["op"], tuple(data["addresses"]))
        measured = self.counted.get(key)
        if measured is None:
            if shown["counted_case"] is not None:
                self.differ(kind, what, f"the page shows H200 case {shown['counted_case']}, "
                                        f"which is not this request")
        else:
            name, wavefronts, conflicts = measured
            plural = lambda n, w: f"{n} {w}{'' if n == 1 else 's'}"  # noqa: E731
            figure = (f"The H200 counted {plural(wavefronts, 'wavefront')} and "
                      f"{plural(conflicts, 'bank conflict')} for this request (validator case "
                      f"{name})")
            if shown["counted_case"] != name or not shown["counted"].startswith(figure):
                self.differ(kind, what, f"the H200 counted case {name} ({wavefronts}, "
                                        f"{conflicts}); the page shows {shown['counted']!r}")
            self.counts["counted shown"] = self.counts.get("counted shown", 0) + 1

    def fill(self, kind, case):
        shown = self.page.evaluate(f"({FILL_AND_READ})({json.dumps(case)})", await_promise=True)
        self.compare(kind, arguments(case), shown)

    def pick(self, menu, value):
        return self.page.evaluate(f"({PICK_AND_READ})({json.dumps(menu)}, {json.dumps(value)})",
                                  await_promise=True)


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip())
    parser.add_argument("page")
    parser.add_argument("analyzer")
    parser.add_argument("root")
    parser.add_argument("--random", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261203)
    args = parser.parse_args()
    page_path, analyzer = os.path.abspath(args.page), os.path.abspath(args.analyzer)
    for path in (page_path, analyzer):
        if not os.path.isfile(path):
            sys.exit(f"check_bank_model_page.py: {path} does not exist")
    if find_chromium() is None:
        print("SKIP: no chromium on the PATH to drive the page in (Debian: apt-get install "
              "chromium)")
        return 77
    counted_in_order = counted_file(args.root)
    counted = dict(counted_in_order)
    rng = random.Random(args.seed)
    try:
        with Chromium() as browser:
            page = browser.open(pathlib.Path(page_path).as_uri(), track_requests=True)
            page.wait_for("document.getElementById('request').dataset.ready === 'true'")
            page.evaluate(READ_PAGE)
            checker = Checker(page, analyzer, counted)
            # The page as it opens: its first answer is the expression its field holds.
            checker.compare("edge", ["t*8"], page.evaluate("readPage()", await_promise=True))
            for case in edge_cases():
                checker.fill("edge", case)
            for case in random_cases(rng, args.random):
                checker.fill("random", case)
            for case in bad_input():
                checker.fill("bad input", case)
            # The width an operation fixes: 16 shown and not to be changed for ldmatrix, and the
            # width chosen before back for a load.
            checker.fill("edge", form("t*16", width=8))
            for op, width_shown, disabled in (("ldmatrix.x4", "16", True), ("load", "8", False)):
                shown = checker.pick("op", op)
                checker.compare("edge", arguments(form("t*16", op=op, width=8)), shown)
                state = page.evaluate("[document.getElementById('width').value, "
                                      "document.getElementById('width').disabled]")
                if state != [width_shown, disabled]:
                    checker.differ("edge", f"--op {op} after --width 8 --op load",
                                   f"the width field shows {state[0]} (disabled: {state[1]}), not "
                                   f"{width_shown} (disabled: {disabled})")
            # Cases of the counted file: typed in, and picked from the page's menu.
            keys = sorted(counted)
            for width, op, lanes in rng.sample(keys, min(40, len(keys))):
                checker.fill("H200-counted", addresses(lanes, op=op, width=width))
            options = page.evaluate("[...document.querySelectorAll('#measured option')]"
                                    ".map((o) => o.value).filter((v) => v !== '')")
            if len(options) != len(counted):
                checker.differ("menu", "measured", f"{len(options)} cases in the menu, "
                                                   f"{len(counted)} in the counted file")
            for value in rng.sample(options, min(20, len(options))):
                shown = checker.pick("measured", value)
                width, op, lanes = counted_in_order[int(value)][0]
                checker.compare("H200-counted", arguments(addresses(lanes, op=op, width=width)),
                                shown)
            # The analyser page's examples, picked from the page's menu.
            documented = analyser_commands(args.root)
            examples = page.evaluate("[...document.querySelectorAll('#worked-examples option')]"
                                     ".map((o) => o.value)")
            for value in examples:
                shown = checker.pick("example", value)
                try:
                    ran = shlex.split(shown["command"])[1:]
                except ValueError:
                    ran = None
                if ran not in documented:
                    checker.differ("example", value, f"the page's example {shown['command']!r} "
                                                     f"is not a command of docs/analyzer.md")
                checker.compare("example", ran or [], shown)
            # The address bar follows the form: the link it holds, opened anew, shows the same.
            checker.fill("edge", form("(t/2)*8", width=8, active="0-15", shared="4096"))
            try:  # written once typing pauses
                page.wait_for("location.search.includes('active=0-15')", timeout=5)
            except ChromiumError:
                pass  # the link below says what it holds
            link = page.evaluate("location.href")
            again = browser.open(link)
            again.wait_for("document.getElementById('request').dataset.ready === 'true'")
            again.evaluate(READ_PAGE)
            shown = again.evaluate("readPage()", await_promise=True)
            checker.compare("edge", arguments(form("(t/2)*8", width=8, active="0-15",
                                                   shared="4096")), shown)
            if "width=8" not in link or "active=0-15" not in link:
                checker.differ("link", link, "the address bar does not hold the form's request")
            # Offline: the page asks for nothing but itself and what it makes in memory.
            elsewhere = sorted({u for u in browser.requested
                                if not u.startswith(("data:", "blob:"))
                                and u.split("?")[0] != pathlib.Path(page_path).as_uri()})
            if elsewhere:
                checker.differ("offline", "page", "it asks for " + ", ".join(elsewhere[:5]))
            requests, beyond = len(browser.requested), len(elsewhere)
    except ChromiumError as e:
        sys.exit(f"check_bank_model_page.py: {e}")
    kinds = [k for k in checker.counts if k != "counted shown"]
    total = sum(checker.counts[k] for k in kinds)
    answers = sum(checker.answered[k][0] for k in kinds)
    parts = ", ".join(f"{checker.counts[k]} {k}" for k in kinds)
    print(f"bank model in the browser: {total} cases ({parts}): {answers} answers, "
          f"{total - answers} errors for bad input, the H200's count shown for "
          f"{checker.counts.get('counted shown', 0)}, {requests} requests of the page, "
          f"{beyond or 'none'} beyond itself; "
          + ("every answer is analyze_smem_access's" if not checker.differences
             else f"{len(checker.differences)} differences"))
    return 1 if checker.differences else 0


if __name__ == "__main__":
    sys.exit(main())
