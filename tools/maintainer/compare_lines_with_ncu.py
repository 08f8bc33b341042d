#!/usr/bin/env python3
"""The grader's line-by-line view held to Nsight Compute's source view, instruction by
instruction. Each chapter's [lines.CHECK_ID] (its instructors' manifest) runs twice in a solution
build on a GPU machine: as graded, the grader appending what it measured to WORKBOOK_LINES_TSV
(common/counters/source_counters.cpp); then under ncu's SourceCounters section with
WORKBOOK_COUNTERS=launch-only (the grader counts nothing: a measurement runs once, then fails).
Each measured kernel is matched to the launch that executed its instructions as often; each
instruction's wavefronts and ideal must equal Nsight Compute's, and none with shared wavefronts
there may be missing from the grader's view.

    compare_lines_with_ncu.py run BUILD OUT [NAME]   # on the GPU machine
    compare_lines_with_ncu.py compare OUT [NAME]     # again from OUT's files, anywhere

Writes OUT/lines-vs-ncu.tsv (with NAME, also tools/maintainer/measurements/NAME/). Exit 1 where
the two differ, 2 where a case could not run.
"""
import csv
import datetime
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
import manifest  # noqa: E402

FILE = "lines-vs-ncu.tsv"


def cases():
    """[(case, its test's key in commands(), check name)] of every chapter's [lines.CHECK_ID]."""
    return [(f"{c.id}_{on}", c.id if on == "reference" else (c.id, on), c.check(check).name)
            for c in (manifest.load(ROOT, folder) for folder in manifest.chapters(ROOT))
            for check, on, _ in c.compared_lines]


def commands(build):
    """{suite or (suite, wrong answer): (command, environment)} from meson's list of the
    build's tests: each chapter's GPU checks, and each GPU wrong answer's rejection."""
    with open(os.path.join(build, "meson-info", "intro-tests.json")) as f:
        tests = json.load(f)
    found = {}
    for t in tests:
        name, cmd = t["name"], t["cmd"]
        if name.endswith(" GPU checks") and name.startswith("ch"):
            found[name.split()[0]] = (cmd, t["env"])
        elif " rejects " in name and "WORKBOOK_KERNELS" in t["env"]:
            command = [cmd[cmd.index("--grader") + 1], "gpu", "--min-sm",
                       cmd[cmd.index("--min-sm") + 1]]
            found[tuple(name.split(" rejects ", 1))] = (command, t["env"])
    return found


def run_case(build, out, case, key, check, found):
    """Both runs of one case, into OUT/CASE-grader.tsv and OUT/CASE-ncu.csv (and their logs)."""
    if key not in found:
        return f"the build has no test for {' rejects '.join(key) if type(key) is tuple else key}"
    command, env = found[key][0] + [check], dict(os.environ, **found[key][1])
    ours, report = os.path.join(out, case + "-grader.tsv"), os.path.join(out, case)
    with open(ours, "w"), open(report + "-grader.log", "w") as log:  # ours: empty until measured
        subprocess.run(command, env=dict(env, WORKBOOK_LINES="1", WORKBOOK_REVEAL="1",
                                         WORKBOOK_LINES_TSV=ours, WORKBOOK_FEEDBACK="full"),
                       stdout=log, stderr=subprocess.STDOUT, timeout=300, cwd=build)
    if os.path.getsize(ours) == 0:
        return f"the check measured no kernel line by line (see {case}-grader.log)"
    with open(ours, encoding="utf-8") as f:
        kernels = sorted({row["function"] for row in csv.DictReader(f, delimiter="\t")})
    with open(report + "-ncu.log", "w") as log:
        subprocess.run(["ncu", "--clock-control", "none", "--section", "SourceCounters",
                        "--kernel-name-base", "mangled", "--kernel-name",
                        "regex:^(%s)$" % "|".join(re.escape(k) for k in kernels),
                        "--launch-count", "12", "-f", "-o", report] + command,
                       env=dict(env, WORKBOOK_COUNTERS="launch-only", WORKBOOK_GPU_TIMEOUT="600"),
                       stdout=log, stderr=subprocess.STDOUT, timeout=600, cwd=build)
        shown = subprocess.run(["ncu", "--import", report + ".ncu-rep", "--page", "source",
                                "--print-source", "sass", "--csv"],
                               capture_output=True, text=True, timeout=300)
        log.write(shown.stderr)
    with open(report + "-ncu.csv", "w") as f:
        f.write(shown.stdout)
    return None if shown.returncode == 0 else f"ncu --import failed (see {case}-ncu.log)"


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def ncu_launches(path):
    """Nsight Compute's source pages, one a captured launch (each begins at a header row):
    [{offset from the launch's first instruction: {sass, executed, wavefronts, ideal}}]."""
    pages, columns = [], None
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        for cells in csv.reader(f):
            names = [c.strip().lstrip("#").strip() for c in cells]
            if "Address" in names and "Source" in names:
                columns = {n: i for i, n in enumerate(names)}
                pages.append({})
                continue
            if columns is None or len(cells) < len(columns):
                continue
            try:
                at = int(cells[columns["Address"]].strip(), 0)  # 0x..., as ncu writes it
            except ValueError:
                continue
            value = {k: number(cells[columns[c]]) if c in columns else None for k, c in (
                ("executed", "Instructions Executed"), ("wavefronts", "L1 Wavefronts Shared"),
                ("ideal", "L1 Wavefronts Shared Ideal"))}
            pages[-1][at] = dict(value, sass=cells[columns["Source"]].strip())
    return [{at - min(page): row for at, row in page.items()} for page in pages if page]


def same(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(1.0, abs(a))


def text(x):
    return "" if x is None or x < 0 else "%g" % x


def compare_case(out, case):
    """(rows, problems) of one case from its two files in OUT."""
    paths = [os.path.join(out, case + suffix) for suffix in ("-grader.tsv", "-ncu.csv")]
    missing = [os.path.basename(p) for p in paths if not os.path.exists(p)]
    if missing:
        return [], [f"{case}: no {missing[0]}"]
    pages, measured = ncu_launches(paths[1]), {}
    with open(paths[0], encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            measured.setdefault((row["measurement"], row["function"]), []).append(row)
    rows, problems = [], [] if pages else [f"{case}: Nsight Compute's output holds no source page"]
    root = os.path.realpath(ROOT) + os.sep
    for (_, function), ours in sorted(measured.items()):
        page = next((p for p in pages if all(
            same(p.get(int(r["pc_offset"]), {}).get("executed"), float(r["requests"]))
            for r in ours)), None)
        if page is None:
            problems.append(f"{case}: no captured launch ran {function} as the grader measured")
            continue
        for at, theirs in sorted(page.items()):
            r = next((r for r in ours if int(r["pc_offset"]) == at), None)
            if r is None and not theirs["wavefronts"]:
                continue
            requests, wavefronts, ideal = (float(r[k]) if r else None
                                           for k in ("requests", "wavefronts", "ideal"))
            agree = r is not None and same(theirs["wavefronts"], wavefronts) and (
                ideal < 0 or theirs["ideal"] is None or same(theirs["ideal"], ideal))
            if not agree:
                problems.append(f"{case}: {function}+0x{at:x} ({theirs['sass']}): the grader "
                                f"{text(wavefronts) or 'no'} wavefronts, Nsight Compute "
                                f"{text(theirs['wavefronts'])}")
            place = os.path.realpath(r["file"]) if r and r["file"] else ""
            rows.append([case, function, f"0x{at:x}", theirs["sass"], r["op"] if r else "",
                         f"{place[len(root):] if place.startswith(root) else place}:{r['line']}"
                         if place else "", text(requests), text(wavefronts),
                         text(wavefronts / requests) if r and requests else "", text(ideal),
                         text(theirs["executed"]), text(theirs["wavefronts"]),
                         text(theirs["ideal"]), "yes" if agree else "no"])
    return rows, problems


def compare(out, name, gpu):
    rows, problems = [], []
    for case, _, _ in cases():
        rows, problems = (a + b for a, b in zip((rows, problems), compare_case(out, case)))
    header = ("case kernel offset sass op line grader.requests grader.wavefronts "
              "grader.wavefronts_per_request grader.ideal ncu.instructions_executed "
              "ncu.wavefronts_shared ncu.wavefronts_shared_ideal same").split()
    written = (f"# Written by tools/maintainer/compare_lines_with_ncu.py; do not edit by hand.\n"
               f"# GPU: {gpu}\n# date: {datetime.date.today().isoformat()}\n"
               f"# problems: {len(problems)}\n" + "".join("\t".join(r) + "\n"
                                                         for r in [header] + rows))
    for folder in [out] + ([os.path.join(HERE, "measurements", name)] if name else []):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, FILE), "w", encoding="utf-8") as f:
            f.write(written)
    print("\n".join(problems + [
        f"{sum(r[-1] == 'yes' for r in rows)} of {len(rows)} shared-memory instructions the same "
        f"in the grader's view and Nsight Compute's; {len(problems)} problems"]))
    return 1 if problems else 0


def main(step=None, *paths):
    if step == "compare" and len(paths) in (1, 2):
        gpu_file = os.path.join(paths[0], "lines-gpu.txt")
        gpu = open(gpu_file).read().strip() if os.path.exists(gpu_file) else "unknown GPU"
        return compare(paths[0], paths[1] if len(paths) == 2 else None, gpu)
    if step != "run" or len(paths) not in (2, 3):
        print(__doc__.split("\n\n")[1].rstrip(), file=sys.stderr)
        return 2
    build, out = (os.path.abspath(p) for p in paths[:2])
    if shutil.which("ncu") is None:
        print("ncu (Nsight Compute's command line, in the CUDA Toolkit's bin/) is not on PATH")
        return 2
    os.makedirs(out, exist_ok=True)
    found, failed = commands(build), False
    for case, key, check in cases():
        why = run_case(build, out, case, key, check, found)
        print(f"{case}: {why}" if why else f"{case}: run")
        failed = failed or bool(why)
    gpu = (subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,"
                           "noheader"], capture_output=True, text=True).stdout.splitlines() or
           ["unknown GPU"])[0]
    with open(os.path.join(out, "lines-gpu.txt"), "w") as f:
        f.write(gpu)
    status = compare(out, paths[2] if len(paths) == 3 else None, gpu)
    return 2 if failed else status


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
