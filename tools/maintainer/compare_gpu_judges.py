#!/usr/bin/env python3
"""The GPU checks judged both ways, in turns, in one solution build made where a GPU may run them:
by the judge (chNN_slug_grader gpu), which launches the exercise's kernels from the kernels file
and runs none of its host code, and in process (chNN_slug_gpu_grader gpu), the checks and the
exercise in one program. Each chapter runs ROUNDS rounds of the two in turns. Every check must end
the same way (passed, failed or skipped) in every run, every counted quantity (counted.*) must be the
same, and the median of each other measured quantity by the judge must be within TOLERANCE of its
median in process, or else the two ways' runs must overlap (verdict "spread": the quantity moves
from run to run more than TOLERANCE). An error on operands each run draws afresh
(*worst_error_in_tolerances) is not compared between the ways, only held within the check's
tolerance in every run (verdict "fresh operands").

    compare_gpu_judges.py BUILD OUT [NAME] [--rounds 3] [--tolerance 0.03]

Writes OUT/gpu-judges-in-turns.tsv and, with NAME, also
tools/maintainer/measurements/NAME/gpu-judges-in-turns.tsv, keeping the rows of the chapters this
build does not hold. Exit 1 where the two ways differ, 2 where they could not be compared.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
import manifest_views  # noqa: E402
import record  # noqa: E402

FILE = "gpu-judges-in-turns.tsv"


def gpu_tests(build):
    """[(suite, command, environment)] of the chapters' GPU checks in `build`, each judged by the
    judge, from meson's list of the build's tests."""
    try:
        with open(os.path.join(build, "meson-info", "intro-tests.json")) as f:
            tests = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{build}: not a configured meson build ({e})")
    return [(t["name"].split()[0], t["cmd"], t["env"]) for t in tests
            if t["name"].endswith(" GPU checks") and t["name"].startswith("ch")]


def run(command, env, folder):
    """One run of the GPU checks: ({check: outcome}, {quantity: value}). A check's message
    may quote what it timed, so only its outcome is compared."""
    os.makedirs(folder)
    path = os.path.join(folder, "record")
    env = dict(os.environ, **env)
    env["WORKBOOK_MEASUREMENTS_DIR"] = folder
    done = subprocess.run(command + ["--record", path], env=env, capture_output=True, timeout=600)
    try:
        with open(path, "rb") as f:
            checks = record.parse(f.read()).outcomes()
    except (OSError, record.RecordRefused) as e:
        sys.stderr.write(done.stdout.decode(errors="replace")[-2000:])
        print(f"{' '.join(command)}: no record ({e}), status {done.returncode}")
        sys.exit(2)
    quantities = {}
    for name in os.listdir(folder):
        if name.endswith(".tsv"):
            quantities.update(manifest_views.measurements(os.path.join(folder, name)))
    return checks, quantities


def compare(suite, runs, tolerance):
    """Rows (chapter, what, judge, in process, verdict) of one chapter's runs
    {way: [(checks, quantities)]}; the verdict is "same", "within", "spread" or "DIFFERS"."""
    rows = []
    first = runs["judge"][0][0]
    for way, results in runs.items():
        for number, (checks, _) in enumerate(results, 1):
            differing = sorted(c for c in set(checks) | set(first) if checks.get(c) != first.get(c))
            if differing:
                rows.append((suite, f"checks, {way} run {number}", "", "", "DIFFERS: " +
                             "; ".join(differing)))
    outcomes = list(first.values())
    rows.append((suite, "checks", f"{outcomes.count('passed')} of {len(outcomes)} passed",
                 f"{len(runs['judge']) + len(runs['in_process'])} runs",
                 "same" if first and not rows else "DIFFERS"))
    names = sorted(set().union(*(q for _, q in runs["judge"] + runs["in_process"])))
    for name in names:
        values = {way: [q[name] for _, q in runs[way] if name in q] for way in runs}
        if not all(values.values()):
            rows.append((suite, name, "", "", "DIFFERS: measured one way only"))
            continue
        judge, in_process = (statistics.median(values[w]) for w in ("judge", "in_process"))
        if name.startswith("counted."):
            verdict = "same" if judge == in_process else "DIFFERS"
        elif "worst_error_in_tolerances" in name:  # on operands each run draws afresh
            worst = max(values["judge"] + values["in_process"])
            verdict = "fresh operands" if worst <= 1 else "DIFFERS"
        elif abs(judge - in_process) <= tolerance * abs(in_process):
            verdict = "within"
        else:  # beyond the tolerance: noise where each way's runs reach into the other's range
            apart = (min(values["judge"]) > max(values["in_process"]) or
                     max(values["judge"]) < min(values["in_process"]))
            verdict = "DIFFERS" if apart else "spread"
        rows.append((suite, name, f"{judge:.6g}", f"{in_process:.6g}", verdict))
    return rows


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("build")
    parser.add_argument("out")
    parser.add_argument("name", nargs="?")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=0.03)
    args = parser.parse_args()
    tests = gpu_tests(args.build)
    if not tests:
        sys.exit(f"{args.build}: no chapter's GPU checks")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for suite, command, env in tests:
            judge = command[0]
            if not judge.endswith("_grader") or not os.path.exists(judge[:-len("grader")] +
                                                                    "gpu_grader"):
                sys.exit(f"{judge}: no GPU grader beside it to compare with")
            ways = {"judge": command, "in_process": [judge[:-len("grader")] + "gpu_grader"] +
                    command[1:]}
            runs = {way: [] for way in ways}
            for number in range(args.rounds):
                for way, way_command in ways.items():
                    runs[way].append(run(way_command, env, os.path.join(
                        scratch, f"{suite}-{way}-{number}")))
            rows += compare(suite, runs, args.tolerance)
    ran = {r[0] for r in rows}
    files = [os.path.join(args.out, FILE)]
    if args.name:
        files.append(os.path.join(HERE, "measurements", args.name, FILE))
        try:
            kept = [line.rstrip("\n").split("\t") for line in open(files[1], encoding="utf-8")
                    if not line.startswith(("#", "chapter\t"))]
            rows = sorted(rows + [r for r in kept if len(r) == 5 and r[0] not in ran],
                          key=lambda r: r[0])
        except OSError:
            pass
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip() or "unknown GPU"
    for path in files:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(f"# Written by tools/maintainer/compare_gpu_judges.py on {gpu}, "
                    f"{datetime.date.today()}: the GPU checks by the judge and in process, "
                    f"{args.rounds} rounds in turns; medians, tolerance {args.tolerance:g}.\n")
            f.write("chapter\twhat\tjudge\tin process\tverdict\n")
            f.writelines("\t".join(r) + "\n" for r in rows)
    differ = [r for r in rows if r[4].startswith("DIFFERS")]
    for r in differ:
        print("  " + "  ".join(r))
    print(f"the judge and the in-process grader: {len(differ)} differences in {len(rows)} rows "
          f"({', '.join(sorted(ran))})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
