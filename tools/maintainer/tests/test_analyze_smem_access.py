#!/usr/bin/env python3
"""Tests of analyze_smem_access: the seed patterns, pictures, JSON, SVG, batch mode, and the
errors it gives for bad input.

    test_analyze_smem_access.py ANALYZER SOURCE_ROOT
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

analyzer, root = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check, finish  # noqa: E402


def run(*args):
    return subprocess.run([analyzer, *args], capture_output=True, text=True, timeout=60)


def analysis(*args):
    r = run("--json", *args)
    check(r.returncode == 0, f"{args}: exit {r.returncode}: {r.stderr}")
    return json.loads(r.stdout) if r.returncode == 0 else {}


# The seed patterns: (arguments, wavefronts, ideal, conflicts, busiest bank or None).
SEEDS = [
    (["t*4"], 1, 1, 0, None),                                   # stride 1
    (["t*8"], 2, 1, 1, 0),                                      # stride 2
    (["t*128"], 32, 1, 31, 0),                                  # stride 32
    (["t*33*4"], 1, 1, 0, None),                                # stride 33
    (["28"], 1, 1, 0, None),                                    # broadcast
    (["t*32*4 + 5*4"], 32, 1, 31, 5),                           # column of float[32][32]
    (["t*33*4 + 5*4"], 1, 1, 0, None),                          # column of float[32][33]
    (["--width", "16", "t*16"], 4, 4, 0, None),                 # float4 contiguous
    (["--op", "ldmatrix.x4", "(t%8)*128 + (t/8)*16"], 32, 4, 28, 0),   # ldmatrix rows
    (["--op", "ldmatrix.x4", "(t%8)*128 + ((t/8 ^ t%8) & 7)*16"], 4, 4, 0, None),  # swizzled
    (["--width", "8", "--active", "0-15", "t*8"], 1, 1, 0, None),
    (["--store", "t*8"], 2, 1, 1, 0),
    # Ideal counts the groups that hold an active lane: two half-warps of 8 lanes, no conflict.
    (["--width", "8", "--active", "0-7,16-23", "t*16"], 2, 2, 0, None),
    # Stores never merge lane pairs: a double stored by every lane to one address is two groups.
    (["--width", "8", "--store", "64"], 2, 2, 0, None),
    (["--width", "8", "64"], 1, 1, 0, None),
]
for args, wavefronts, ideal, conflicts, busiest in SEEDS:
    a = analysis(*args)
    got = (a.get("wavefronts"), a.get("ideal"), a.get("conflicts"))
    check(got == (wavefronts, ideal, conflicts), f"{args}: (wavefronts, ideal, conflicts) = {got}, "
          f"expected {(wavefronts, ideal, conflicts)}")
    if busiest is not None and a:
        g = a["group_detail"][0]
        counts = [len(words) for words in g["banks"]]
        check(counts[busiest] == g["wavefronts"], f"{args}: bank {busiest} is not the busiest")

# merged_pairs says whether the lane pairs of an 8- or 16-byte load merged.
check(analysis("--width", "8", "64").get("merged_pairs") is True, "broadcast double load: pairs merge")
check(analysis("--width", "8", "--store", "64").get("merged_pairs") is False,
      "broadcast double store: pairs never merge")
check(analysis("--width", "16", "--active", "0,2,4,6", "t*8").get("merged_pairs") is True,
      "16-byte load, odd lanes off: every active lane's partner t ^ 1 is off, so pairs merge")

# The JSON names the operation as --op takes it, so that a tool can run the request again: a
# cp.async request keeps its global rows (it once read "cp.async" for every one of them).
for op in ("load", "store", "ldmatrix.x1", "ldmatrix.x4", "cp.async.g16", "cp.async.g128",
           "cp.async.g512"):
    check(analysis("--op", op, "t*16").get("op") == op, f"--json names --op {op} otherwise")

# The text picture: one row per wavefront, the busiest bank marked, colour only when asked.
r = run("--no-colour", "t*32*4 + 5*4")
lines = r.stdout.splitlines()
check(any(line.startswith(" w32 ") for line in lines), "32-way column: no row w32")
marks = [line for line in lines if line.strip() == "^"]
check(len(marks) == 1 and marks[0].index("^") == 5 + 3 * 5 + 1, "32-way column: ^ not under bank 5")
check("\x1b[" not in r.stdout, "--no-colour printed colours")
check("\x1b[" in run("--colour", "t*8").stdout, "--colour printed no colours")
# A coloured picture is the plain one with colour codes added, and nothing else (the bank model
# in the browser turns the codes into colours and shows the rest as the terminal does).
# In the second and third, bank 31 holds a conflicting lane at the end of each row.
for args in (["t*8"], ["t*8 + 4"], ["t*128 + 124"], ["t*32*4 + 5*4"],
             ["--width", "16", "(t%8)*128"], ["t%4*4"], ["--op", "ldmatrix.x4", "(t%8)*128 + (t/8)*16"]):
    plain = run("--no-colour", *args).stdout
    coloured = run("--colour", *args).stdout
    check("\x1b[" in coloured and re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain,
          f"{args}: the coloured picture, less its colour codes, is not the plain one")

# The documentation's text example is what the tool prints; its table of options has a row for
# every option the usage text lists, and each, mistyped, is the one the error suggests.
doc = open(os.path.join(root, "docs", "analyzer.md")).read()
for line in run("--help").stdout.splitlines():
    for option in re.findall(r"(?:^  |, )(--[a-z-]+)", line):
        check(re.search(r"^\| `" + re.escape(option) + r"\b", doc, re.M) or
              re.search(r"^\| `--[a-z-]+`, `" + re.escape(option) + r"`", doc, re.M),
              f"docs/analyzer.md has no row for {option}")
        check(f"(did you mean {option}?)" in run(option[:2] + option[3:], "t*4").stderr,
              f"{option} less a letter is not answered with {option} (nearest_option's list)")
example = run("--no-colour", "t*8").stdout
check(example in doc, "docs/analyzer.md: the stride-2 example is not the tool's output")

# SVG: well-formed, one cell per bank and word row, the busiest banks drawn red.
with tempfile.TemporaryDirectory() as folder:
    svg_path = os.path.join(folder, "stride2.svg")
    check(run("--svg", svg_path, "t*8").returncode == 0, "--svg failed")
    tree = ElementTree.parse(svg_path)
    rects = [e for e in tree.iter() if e.tag.endswith("rect")]
    cells = [e for e in rects if e.get("class") in ("empty", "used", "shared", "worst")]
    check(len(cells) == 2 * 32, f"stride-2 SVG has {len(cells)} cells, expected 64")
    check(sum(e.get("class") == "worst" for e in cells) == 32, "stride-2 SVG: 32 red cells expected")

# Explicit addresses, and inactive lanes given as -1.
addresses = " ".join(str(128 * t if t % 2 == 0 else -1) for t in range(32))
a = analysis("--addresses", addresses)
check(a.get("wavefronts") == 16, f"--addresses with inactive lanes: {a.get('wavefronts')} wavefronts")

# Bad input: exit 2 and a message that names the problem.
BAD = [
    (["t*4 + )"], "at position 7"),
    (["(t*4"], "'(' is never closed at position 1"),
    (["t*6"], "lane 1: address 6 is not aligned to the access width of 4 bytes"),
    (["--shared-bytes", "1024", "t*64"], "ends beyond the shared-memory size of 1024 bytes"),
    (["--addresses", "1 2 3"], "3 numbers given; a warp needs exactly 32"),
    (["--width", "3", "t*4"], "access width 3 bytes is not one of 1, 2, 4, 8, 16"),
    (["--op", "fetch", "t*4"], "operation 'fetch' is not one of"),
    (["--active", "0-40", "t*4"], "not a lane or a range of lanes within 0-31"),
    (["--frobnicate"], "unknown option --frobnicate"),
    (["--widht", "8", "t*4"], "unknown option --widht (did you mean --width?)"),
    (["t*4", "t*8"], "more than one expression given"),
    (["-t*4"], "lane 1: the expression gives -4, a negative address"),
    (["t - 1"], "lane 0: the expression gives -1, a negative address"),
    (["4*(t/(3-t))"], "division by zero in / for lane t = 3"),
    ([], "give lane t's byte address as an expression of t"),
    ([""], "the expression is empty"),
    (["--active", "", "t*4"], "--active is empty"),
    (["--addresses", " ".join(["0"] * 32), "t*4"], "give either an expression of t or --addresses, not both"),
    (["--addresses", " ".join(["-5"] * 32)], "lane 0: address -5 is negative"),
    # Numbers that do not fit: refused, never cut to what fits (4294967300 was read as width 4).
    (["--width", "4294967300", "t*4"], "--width: 4294967300 is out of range (1..16)"),
    (["--width", "99999999999999999999", "t*4"], "--width: 99999999999999999999 is out of range"),
    (["--width", "-4", "t*4"], "--width: -4 is out of range (1..16)"),
    (["--width", "4x", "t*4"], "--width: '4x' is not a whole number"),
    (["--width", " 4", "t*4"], "--width: ' 4' is not a whole number"),
    (["--width", "", "t*4"], "--width: '' is not a whole number"),
    (["--shared-bytes", "18446744073709551617", "t*4"],
     "--shared-bytes: 18446744073709551617 is out of range (1..4294967296)"),
    (["--shared-bytes", "0", "t*4"], "--shared-bytes: 0 is out of range (1..4294967296)"),
    (["--shared-bytes", "-1024", "t*4"], "--shared-bytes: -1024 is out of range"),
    (["--shared-bytes", "1k", "t*4"], "--shared-bytes: '1k' is not a whole number"),
    (["--active", "0x100000000", "t*4"], "--active: mask 0x100000000 is wider than 32 lanes"),
    (["--active", "0x10000000000000000", "t*4"], "mask 0x10000000000000000 is wider than 32"),
    (["--active", "0xfz", "t*4"], "--active: '0xfz' is not a whole number"),
    (["--active", "0-18446744073709551616", "t*4"], "not a lane or a range of lanes within 0-31"),
    (["--active", "4294967296", "t*4"], "not a lane or a range of lanes within 0-31"),
    (["--addresses", " ".join(["18446744073709551616"] * 32)],
     "--addresses, lane 0: 18446744073709551616 is out of range (at most 4294967295)"),
    (["--addresses", " ".join(["9223372036854775804"] * 32)], "is out of range"),
    (["--addresses", " ".join(["4x"] * 32)], "--addresses, lane 0: '4x' is not a whole number"),
    (["9223372036854775804"], "the expression gives 9223372036854775804, beyond the largest"),
    (["--batch", ""], "--batch: the file name is empty"),
    (["--batch", "cases.tsv", "t*4"], "--batch reads every access from its file; an expression"),
    (["--batch", "cases.tsv", "--width", "8"], "--width describes one access: give one or the"),
    (["--width", "4", "--op", "ldmatrix.x4", "t*16"], "ldmatrix rows are 16 bytes; width 4 given"),
]
for args, message in BAD:
    r = run(*args)
    check(r.returncode == 2, f"{args}: exit {r.returncode}, expected 2")
    check(message in r.stderr, f"{args}: stderr lacks {message!r}: {r.stderr.strip()[:200]}")
# A lane switched off is not evaluated: its address may be anything, even an error.
check(analysis("--active", "1-31", "t*4-4").get("wavefronts") == 1, "--active 1-31 't*4-4'")
check(analysis("--active", "0-7", "(8-t)*4/(8-t)").get("wavefronts") == 1, "lane 8 is off")
r = run("t*4 + )")
check("  t*4 + )\n        ^" in r.stderr, "the caret does not point at the ')'")
# An unwritable --svg path: one line naming it, not the usage text.
r = run("--svg", "/nonexistent-folder/x.svg", "t*4")
check(r.returncode == 2 and r.stderr.strip() ==
      "error: cannot write the SVG picture to /nonexistent-folder/x.svg",
      f"unwritable --svg: {r.stderr.strip()[:200]}")

# Batch mode: agreement, a mismatch, a malformed file.
r = run("--batch", os.path.join(root, "tools", "maintainer", "measurements", "h200",
                                "reference-smem-cases.tsv"))
check(r.returncode == 0 and "0 mismatches" in r.stdout, "batch: the shared H200 cases do not all match")
with tempfile.TemporaryDirectory() as folder:
    wrong = os.path.join(folder, "wrong.tsv")
    with open(wrong, "w") as f:
        f.write("bcast_as_32\t4\tload\t32\t31\t" + " ".join(["0"] * 32) + "\n")
    r = run("--batch", wrong)
    check(r.returncode == 1 and "MISMATCH: expected wavefronts 32 conflicts 31 (line 1)" in r.stdout,
          f"batch: a wrong expectation is not flagged: {r.stdout}")
    with open(wrong, "w") as f:
        f.write("short\t4\tload\t1 2 3\n")
    r = run("--batch", wrong)
    check(r.returncode == 2 and "wrong.tsv:1:" in r.stderr, "batch: a malformed line is not refused")
    with open(wrong, "w") as f:  # beyond shared memory's 32-bit window: refused, not analysed
        f.write("far\t8\tload\t" + " ".join(["0"] * 31 + ["9223372036854775800"]) + "\n")
    r = run("--batch", wrong)
    check(r.returncode == 2 and "beyond the 32-bit shared-memory window" in r.stderr,
          f"batch: an address past 32 bits is not refused: {r.stderr.strip()[:200]}")

# A case file that cannot be read is an error that names it and says why, never "0 cases, 0
# mismatches" with exit 0 (a folder, or a file whose reads fail, once passed for a clean run).
with tempfile.TemporaryDirectory() as folder:
    missing = os.path.join(folder, "missing.tsv")
    unreadable = [(missing, "No such file or directory"), (folder, "it is a folder")]
    if os.path.exists("/proc/self/mem"):
        unreadable.append(("/proc/self/mem", "Input/output error"))  # opens, but reads fail
    if os.geteuid() != 0:
        locked = os.path.join(folder, "locked.tsv")
        open(locked, "w").close()
        os.chmod(locked, 0)
        unreadable.append((locked, "Permission denied"))
    for path, reason in unreadable:
        r = run("--batch", path)
        message = r.stderr.strip()
        check(r.returncode == 2 and message.startswith(f"error: cannot read {path}: {reason}")
              and "\n" not in message and "cases" not in r.stdout,
              f"--batch {path}: exit {r.returncode}, {r.stderr.strip()[:200]!r}, {r.stdout[:80]!r}")

finish("analyze_smem_access: every case as expected")
