#!/usr/bin/env python3
"""The hostile class's cases that need the GPU, graded with the GPU checks on this machine
(tools/maintainer/tests/hostile_class.py has them all; CI grades them in host mode): honest
classmates around submissions that forge their report, leave a child behind, signal everything,
print the grading account's secrets into their feedback, call exit() inside a check, replace
the CUDA runtime's timer, or end with macros that would reach the device probes. Each must
score what it earned with the GPU checks too, the hardware counters must still work inside the
sandbox (the honest reference scores full), and nothing may be left running.

Writes OUT/hostile-gpu-class.tsv and, when every case holds,
tools/maintainer/measurements/NAME/hostile-gpu-class.tsv. Fails (status 1) otherwise.

    tools/maintainer/run_gpu_hostile_class.py OUT [NAME] [--gpu-targets 90]
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "instructor"))
sys.path.insert(0, os.path.join(HERE, "tests"))
from grading import scoring  # noqa: E402
import hostile_class  # noqa: E402

ON_THE_GPU = ["a_honest", "z_honest_skeleton", "macro_after_exercise",
              "forge_append_after_report", "survivor_fork_setsid", "signal_kill_everything",
              "leak_files_environment", "interpose_cuda_runtime", "exit_inside_check"]


def main():
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("out")
    parser.add_argument("name", nargs="?", default="h200")
    parser.add_argument("--gpu-targets", default="90")
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    chapter = sorted(d for d in os.listdir(os.path.join(ROOT, "chapters"))
                     if os.path.isfile(os.path.join(ROOT, "grader", d, "chapter.ini")))[0]
    everything, folder = os.path.join(out, "all-cases"), os.path.join(out, "class")
    grades = os.path.join(out, "grades")
    for old in (everything, folder, grades):
        shutil.rmtree(old, ignore_errors=True)
    os.makedirs(grades)
    marker = "GRADING-GPU-SECRET-IN-THE-ENVIRONMENT"
    secret = os.path.join(grades, "secret.txt")
    with open(secret, "w") as f:
        f.write("GRADING-GPU-SECRET-IN-OUT")
    checks = scoring.load_points(ROOT, chapter)
    full = sum(c.points for c in checks)
    cases = hostile_class.write(ROOT, everything, chapter, {
        "readable": [secret, "/etc/shadow"], "writable": [],
        "markers": [marker, "GRADING-GPU-SECRET-IN-OUT", "--out"]},
        [c.name for c in checks if c.mode == "host"])
    os.makedirs(folder)
    for ident in ON_THE_GPU:
        shutil.move(os.path.join(everything, ident), os.path.join(folder, ident))
    cases = {k: v for k, v in cases.items() if k in ON_THE_GPU}
    start = time.monotonic()
    run = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "instructor", "grade"),
                          "--class", folder, "--out", grades, "--gpu", "--chapters", chapter,
                          "--gpu-targets", args.gpu_targets, "--time-limit", "120"],
                         capture_output=True, text=True, env=dict(os.environ,
                                                                   GRADING_CI_SECRET=marker))
    wall = time.monotonic() - start
    with open(os.path.join(out, "hostile-gpu-class.log"), "w") as f:
        f.write(run.stdout + run.stderr)
    problems = [] if run.returncode == 0 else [f"grade exited with {run.returncode}: "
                                               f"{run.stderr[-1500:]}"]
    results, logs = hostile_class.read_graded(grades, cases)
    problems += hostile_class.judge(cases, results, full, logs)
    time.sleep(1)
    left = hostile_class.leftover_processes(r"sleep 4242|sandbox_init|grading/build")
    if left:
        problems.append(f"processes left behind: {left}")
    lines = [f"# The hostile class's GPU cases, chapter {chapter} with the GPU checks "
             f"({full:g} points), graded in the sandbox: written by "
             f"tools/maintainer/run_gpu_hostile_class.py.",
             "submission\titem\twhat\tscore\texpected"]
    for ident, case in cases.items():
        score = results.get(ident, {}).get("score", "")
        lines.append(f"{ident}\t{case.item}\t{case.what}\t{scoring.number(score) if score != '' else ''}"
                     f"\t{case.score}")
    lines.append(f"whole class (seconds)\t\t\t{wall:.0f}\t")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "hostile-gpu-class.tsv"), "w") as f:
        f.write(text)
    if not problems:
        measured = os.path.join(ROOT, "tools", "maintainer", "measurements", args.name)
        os.makedirs(measured, exist_ok=True)
        with open(os.path.join(measured, "hostile-gpu-class.tsv"), "w") as f:
            f.write(text)
    print(text, end="")
    for p in problems:
        print("PROBLEM: " + p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
