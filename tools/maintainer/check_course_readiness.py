#!/usr/bin/env python3
"""Runs the workbook the way a class meets it, and checks what a student and an instructor see.

    tools/maintainer/check_course_readiness.py [--gpu-target NN] [--keep DIR]

1. The hand-out (tools/instructor/make_handout.py): what it holds, by folder, is printed; it
   holds no instructors' folder (solutions/, tools/instructor/, tools/maintainer/,
   docs/instructors/); it configures, builds, and fails every chapter as a skeleton should
   (meson_testlog.py student-mode); its skeletons score no points (check_skeleton_points.py, host
   checks) and each grader's first 80 x 24 screen shows what failed first, why and what to do,
   or, where the GPU checks cannot run, why in a few rows (check_first_screen.py, both modes).
2. A student follows the README: `meson setup build`, then `meson test -C build --suite chNN`
   for the first chapter, on a fresh build. That builds the analyser the lessons send them to;
   the run fails, as the README says; meson shows each grader's report: the first failed
   check with its reason and hint first, each failed check's reason under its name, the
   closing summary, and the details file, which holds every failure; without a GPU, why the
   GPU checks were skipped; and no answer is given away.
3. Solution mode in the hand-out stops with the reason as meson's own message.
4. The copy attack (copy_attacks.py): exercises that take their graded functions from the
   hand-out's grader and library code find nothing, and, graded as a class by
   tools/instructor/grade, score zero on every check they attack; a control made from a hand-out
   doctored with the reference's functions in a grader header finds them and scores the points
   they answer, which shows that the attack would see what a leak gives away. The local-runs
   attack: each function answered only where the local runs ask it passes its local check and
   scores 0 officially.
5. An instructor who filled in an exercise in a checkout of the workbook still has the shipped
   skeleton rejected by the self-tests.
Exit 0 when all of that holds. CI runs it (.ci/run).
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "grader", "tools"))
import manifest  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tools", "instructor"))
from make_handout import listing  # noqa: E402

GIVEAWAYS = ["the request takes", "The bank model says", "The GPU counted 2 wavefronts"]
INSTRUCTORS_FOLDERS = ("solutions/", "tools/instructor/", "tools/maintainer/",
                       "docs/instructors/", ".ci/")
problems = []


def check(condition, what):
    print(("  ok   " if condition else "  BAD  ") + what, flush=True)
    if not condition:
        problems.append(what)


def run(command, cwd):
    return subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")


def copy_attacks(work, handout, target):
    """Step 4: the attack, its grading as a class, and the control."""
    out = os.path.join(work, "copy-attacks")
    made = run([sys.executable, os.path.join(HERE, "copy_attacks.py"), ROOT, handout, out,
                "--control"], ROOT)
    print(made.stdout.rstrip())
    check(made.returncode == 0, "copy_attacks.py writes the attacks and the control")
    if made.returncode != 0:
        return
    shutil.rmtree(os.path.join(work, "local-runs"), ignore_errors=True)  # graded on its own
    shutil.move(os.path.join(out, "local-runs"), os.path.join(work, "local-runs"))
    report = json.load(open(os.path.join(out, "attacks.json")))
    leaks = [(kind, chapter, e) for kind, found in report["attacks"].items()
             for chapter, entries in found.items() for e in entries]
    check(not leaks, "no copy attack finds an answer in the hand-out"
          + "".join(f"\n         {k} {c}: {e['item']}: {'; '.join(e['found'])}"
                    for k, c, e in leaks))
    control = report["control"]
    kinds = {e["attack"] for e in control["found"]}
    check(kinds == set(report["attacks"]),
          f"the control's leaks are each found by their attack (found by: {sorted(kinds)})")
    # The attacks as a class, on every chapter an attack changed (and the control's).
    chapters = report["planted_chapters"]
    grades = os.path.join(work, "copy-attack-grades")
    graded = run([sys.executable, os.path.join(ROOT, "tools", "instructor", "grade"), "--class",
                  out, "--out", grades, "--chapters", ",".join(chapters), "--gpu-targets", target,
                  "--time-limit", "600"], ROOT)
    print("\n".join(graded.stdout.rstrip().splitlines()[-6:]))
    check(graded.returncode == 0, f"tools/instructor/grade grades the attacks as a class on "
                                  f"{', '.join(chapters)}")
    attacked = {e["check"] for found in report["attacks"].values()
                for entries in found.values() for e in entries}
    for kind in report["attacks"]:
        try:
            result = json.load(open(os.path.join(grades, "submissions", kind, "result.json")))
        except (OSError, ValueError) as e:
            check(False, f"the {kind} attack has a result ({e})")
            continue
        scored = [t for t in result["tests"] if t["score"] > 0 and t["name"] in attacked]
        check(not scored, f"the {kind} attack scores zero on the checks the attacks aim at"
              + "".join(f"\n         {t['name']}: {t['score']}" for t in scored))
        check(result["score"] == 0, f"the {kind} attack scores 0 in all "
                                    f"({result['score']} of {result['max_score']})")
    try:
        result = json.load(open(os.path.join(grades, "submissions", "control", "result.json")))
        lost = [t["name"] for t in result["tests"]
                if t["name"] in control["checks"] and t["score"] < t["max_score"]]
        check(not lost, "the control, made from leaks, scores every check its leaks answer"
              + "".join(f"\n         lost: {n}" for n in lost))
    except (OSError, ValueError) as e:
        check(False, f"the control has a result ({e})")


def local_runs_attack(work, target):
    """Step 4's second attack (copy_attacks.py's local-runs submission), graded officially."""
    report = json.load(open(os.path.join(work, "copy-attacks", "attacks.json")))["local-runs"]
    grades = os.path.join(work, "local-runs-grades")
    graded = run([sys.executable, os.path.join(ROOT, "tools", "instructor", "grade"),
                  os.path.join(work, "local-runs"), "--out", grades, "--chapters",
                  ",".join(report), "--gpu-targets", target, "--time-limit", "600"], ROOT)
    try:
        with open(os.path.join(grades, "submissions", "local-runs", "result.json")) as f:
            tests = {t["name"]: t for t in json.load(f)["tests"]}
    except (OSError, ValueError) as e:
        return check(False, f"the local-runs attack has a result ({e}): {graded.stdout[-800:]}")
    earned = []
    for chapter, names in report.items():
        checks = manifest.load(ROOT, chapter).checks
        ids = {c.id for c in checks if c.name in names}  # and the hidden checks certifying them
        earned += [tests[c.name] for c in checks if c.name in names or set(c.certifies) & ids]
        for name in names:
            t, held = tests[name], tests[name]["output"].startswith("passed, but scored 0")
            check(held, f"answered only where the local runs ask, '{name[:40]}...' passes there "
                        f"and scores 0 officially" + ("" if held else f": {t['output']}"))
    print(f"  the local-runs attack earns {sum(t['score'] for t in earned):g} of "
          f"{sum(t['max_score'] for t in earned):g} official host points it aims at")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpu-target", default="75")
    parser.add_argument("--keep", help="work here and keep it (default: a temporary folder)")
    args = parser.parse_args()
    work = args.keep or tempfile.mkdtemp(prefix="workbook-course-")
    os.makedirs(work, exist_ok=True)
    target = "-Dgpu_targets=" + args.gpu_target

    print("The hand-out:")
    archive = os.path.join(work, "handout.tar.gz")
    made = run([sys.executable, os.path.join(ROOT, "tools", "instructor", "make_handout.py"),
                ROOT, archive], ROOT)
    check(made.returncode == 0, "tools/instructor/make_handout.py writes the archive")
    if made.returncode != 0:
        print(made.stdout)
        return 1
    shutil.rmtree(os.path.join(work, "workbook"), ignore_errors=True)
    with tarfile.open(archive) as t:
        names = t.getnames()
        t.extractall(work)
    handout = os.path.join(work, "workbook")
    print("  What the hand-out holds, by folder:")
    print(listing(names))
    inside = [n[len("workbook/"):] for n in names]
    kept_back = sorted({n for n in inside if n.startswith(INSTRUCTORS_FOLDERS)})
    check(not kept_back, "no instructors' folder in the hand-out"
          + "".join(f"\n         {n}" for n in kept_back[:10]))
    check(not any(n.endswith("_exercise.cu") and not n.startswith("chapters/") for n in inside),
          "no exercise file but the skeletons in chapters/")
    check(not any("/.git/" in n or n.startswith("build") for n in inside),
          "no history and no build output")
    readme = open(os.path.join(handout, "README.md")).read()
    check("<!-- instructors -->" not in readme and "For instructors" not in readme
          and "-Dkernels=solution" not in readme,
          "the README is the students' (no instructors' sections)")

    print("A student follows the README on the hand-out:")
    chapter = sorted(d for d in os.listdir(os.path.join(handout, "chapters")) if d[:2].isdigit())[0]
    suite = "ch" + chapter[:2]
    setup = run(["meson", "setup", "build", target], handout)
    check(setup.returncode == 0, "meson setup build")
    first = run(["meson", "test", "-C", "build", "--suite", suite], handout)
    out = first.stdout
    check(first.returncode != 0, f"the untouched chapter {chapter} fails, as the README says")
    check(os.path.isfile(os.path.join(handout, "build", "tools", "analyze_smem_access")),
          "build/tools/analyze_smem_access exists after that first meson test")
    summary_at = out.rfind("==== Summary (host checks) ====")
    summary = out[summary_at:].splitlines()
    check(summary[0].startswith("==== Summary") and any("FAILED   " in l for l in summary),
          "meson shows the grader's closing summary, one line per check")
    # The report above the summary: each failed check once, its reason right under its name.
    report = out[:summary_at]
    blocks = [" ".join(b.split()) for b in report.split("\n\n")]
    failed = [l[len("  FAILED   "):] for l in summary if l.startswith("  FAILED   ")]
    reasons = [[b[len("FAILED " + name):].strip() for b in blocks
                if b.startswith("FAILED " + name)] for name in failed]
    check(failed and all(len(r) == 1 and r[0] for r in reasons),
          "the report gives each failed check's reason under its name, once")
    first = report[report.find("FAILED "):]
    first = first[:first.find("\n\n")]
    check("Hint:" in first or "What to do:" in first,
          "the first failed check comes with a hint or what to do")
    told = [i for i, l in enumerate(summary) if l.startswith("Every failure in full")]
    named = summary[told[0] + 1].strip() if told and told[0] + 1 < len(summary) else ""
    details = os.path.join(handout, named)
    check(named.startswith("build/feedback/") and os.path.isfile(details) and
          open(details).read().count("FAILED:") >= len(failed),
          f"the report names its details file in the build, which holds every failure ({named})")
    sample = readme.split("On an untouched chapter 01:\n\n```\n", 1)[-1].split("```", 1)[0]
    unsaid = [s for s in sample.splitlines() if s not in ("", "  ...") and s not in out]
    check(chapter[:2] != "01" or not unsaid, f"the README sample is the grader's report: {unsaid}")
    # A suite that is no chapter's (one past the last, and the first without its leading zero)
    # fails and names the chapters, where Meson alone would run nothing and exit 0.
    last = sorted(d for d in os.listdir(os.path.join(handout, "chapters")) if d[:2].isdigit())[-1]
    for typo in (f"ch{int(last[:2]) + 1:02d}", "ch" + chapter[:2].lstrip("0")):
        wrong = run(["meson", "test", "-C", "build", "--suite", typo], handout)
        check(wrong.returncode != 0 and "names no chapter" in wrong.stdout and suite in
              wrong.stdout, f"meson test --suite {typo} fails, naming the chapters")
    gpu_shown = "SKIP: GPU checks not run:" in out or "GPU checks on " in out
    check(gpu_shown, "meson shows why the GPU checks were skipped (or that they ran)")
    for text in GIVEAWAYS:
        check(text not in out, f"no answer given away ({text!r} is not printed)")
    solution = run(["meson", "setup", "build-solution", "-Dkernels=solution", target], handout)
    check(solution.returncode != 0 and
          f"has no folder solutions/{chapter}" in solution.stdout,
          "solution mode in the hand-out stops, naming the missing solutions folder")

    print("The whole hand-out in student mode:")
    built = run(["ninja", "-C", "build"], handout)
    check(built.returncode == 0, "the hand-out builds")
    run(["meson", "test", "-C", "build", "--num-processes", "2"], handout)
    student = run([sys.executable, os.path.join(HERE, "meson_testlog.py"), "student-mode",
                   os.path.join(handout, "build", "meson-logs", "testlog.json")], handout)
    print(student.stdout.rstrip())
    check(student.returncode == 0, "every chapter of the hand-out fails as a skeleton")
    # The skeletons score no points (class grading skips an untouched chapter's GPU checks on
    # that ground), and each grader's first screen shows what failed first, why and what to do;
    # where the GPU checks cannot run, each says why in a few rows.
    build = os.path.join(handout, "build")
    points = run([sys.executable, os.path.join(HERE, "check_skeleton_points.py"), build,
                  "--mode", "host"], handout)
    print(points.stdout.rstrip())
    check(points.returncode == 0, "the hand-out's skeletons score no points (host checks)")
    for mode in ("host", "gpu"):
        screen = run([sys.executable, os.path.join(HERE, "check_first_screen.py"), build,
                      "--mode", mode], handout)
        print(screen.stdout.rstrip())
        check(screen.returncode == 0, f"each grader's first screen ({mode} checks) shows what "
                                      f"failed first, why and what to do")

    print("The copy attack on the hand-out, graded as a class:")
    copy_attacks(work, handout, args.gpu_target)
    local_runs_attack(work, args.gpu_target)

    print(f"An instructor who filled in chapter {chapter} in a checkout:")
    checkout = os.path.join(work, "checkout")
    shutil.rmtree(checkout, ignore_errors=True)
    cloned = run(["git", "clone", "-q", ROOT, checkout], work)
    check(cloned.returncode == 0, "git clone of the workbook")
    if cloned.returncode == 0:
        exercise = glob.glob(os.path.join(checkout, "solutions", chapter, "*_exercise.cu"))[0]
        shutil.copy(exercise, os.path.join(checkout, "chapters", chapter))
        run(["meson", "setup", "build", "-Dkernels=solution", "-Dchapters=" + chapter,
             "-Ddocs=disabled", "-Dbrowser=disabled", "-Dgpu_selftests=skip", target], checkout)
        rejected = run(["meson", "test", "-C", "build", suite + " rejects skeleton"], checkout)
        check(rejected.returncode == 0,
              "the self-test still rejects the shipped skeleton, not the filled-in file")
        if rejected.returncode != 0:
            print(rejected.stdout[-2000:])

    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    print("course readiness: " + ("all checks hold" if not problems
                                  else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
