#!/usr/bin/env python3
"""Variants end to end, without a GPU (CI): a class's hand-outs from one roster and secret, each
student's graded cases their own, a classmate's copied answers losing their prediction points,
forged and mistaken variants refused, and every bad input named.

    variant_class_ci.py SOURCE_ROOT WORKDIR SOLUTION_BUILD [--write-snapshot]

WORKDIR is grading_ci.py's: its one-machine grading folder holds the pristine workbook of the
first two chapters, which this reuses. SOLUTION_BUILD is a solution-mode build: its graders list
each chapter's graded cases (`<grader> cases`) and its reference gives the answers a classmate
would copy. With --write-snapshot it (re)writes each chapter's solutions/NN_slug/variant0_cases.tsv,
the self-study cases every later run must still grade, and stops there.
"""
import base64
import csv
import glob
import os
import shutil
import subprocess
import sys
import tarfile

root = os.path.abspath(sys.argv[1])
work = os.path.abspath(sys.argv[2])
solution_build = os.path.abspath(sys.argv[3])
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import scoring, variants  # noqa: E402

tool = os.path.join(root, "tools", "instructor", "grade")
handout = os.path.join(root, "tools", "instructor", "make_handout.py")
copier = os.path.join(root, "tools", "maintainer", "copied_answers.py")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check as expect, failures as problems  # noqa: E402
from hostile_class import graded, put, tar_bytes, tar_info  # noqa: E402


def run(command, **kw):
    return subprocess.run(command, capture_output=True, text=True, **kw)


chapters = scoring.manifest.chapters(root)
grading_chapters = chapters[:2]  # grading_ci.py's pristine workbook
out = os.path.join(work, "one-machine")
here = os.path.join(work, "variants")
shutil.rmtree(here, ignore_errors=True)
os.makedirs(here)


def grader_of(chapter):
    found = glob.glob(os.path.join(solution_build, f"ch{chapter[:2]}_{chapter[3:]}_grader"))
    return found[0] if found else None


def cases(chapter, variant):
    """[(check, text, declaration, condition, answer)] of the reference's grader at `variant`."""
    listed = run([grader_of(chapter), "cases"], env=dict(os.environ, WORKBOOK_VARIANT=str(variant)))
    expect(listed.returncode == 0, f"{chapter}: cases at {variant}: {listed.stderr[-300:]}")
    return [tuple((line.split("\t") + [""] * 5)[:5]) for line in listed.stdout.splitlines()
            if line and not line.startswith("#")]


# 1. A class's hand-outs: one per student, each saying whose it is and its keyed variant.
roster = os.path.join(here, "roster.csv")
put(roster, b"student,name\nada,Ada L.\nbo,Bo P.\n")
secret_file = os.path.join(here, "course-secret")
put(secret_file, base64.b64encode(os.urandom(32)) + b"\n")
secret = variants.read_secret(secret_file)
made = run([sys.executable, handout, root, "--class-out", os.path.join(here, "handouts"),
            "--roster", roster, "--secret-file", secret_file])
expect(made.returncode == 0, f"the class's hand-outs: {made.stderr[-500:]}")
va, vb = variants.derive(secret, "ada"), variants.derive(secret, "bo")
expect(va != vb, "two students of the roster got one variant")
contents = {}
for student, variant in (("ada", va), ("bo", vb)):
    path = os.path.join(here, "handouts", f"{student}.tar.gz")
    try:
        with tarfile.open(path) as t:
            contents[student] = {m.name: t.extractfile(m).read() for m in t.getmembers()
                                 if m.isfile()}
    except (OSError, tarfile.TarError) as e:
        expect(False, f"{student}'s hand-out cannot be read: {e}")
        contents[student] = {}
    stamp = contents[student].get("workbook/VARIANT")
    expect(stamp is not None and variants.parse_variant_file(stamp) == (student, variant),
           f"{student}'s hand-out says whose it is and its variant: {stamp!r}")
    expect(not any(n.startswith("workbook/solutions/") for n in contents[student]),
           f"{student}'s hand-out holds no solution")
same = {n: d for n, d in contents["ada"].items() if n != "workbook/VARIANT"} == \
    {n: d for n, d in contents["bo"].items() if n != "workbook/VARIANT"}
expect(same, "the two hand-outs differ only in their VARIANT")
with open(os.path.join(here, "handouts", "variants.csv")) as f:
    expect(list(csv.reader(f)) == [["student", "variant"], ["ada", str(va)], ["bo", str(vb)]],
           "variants.csv lists the class's variants")
self_study = run([sys.executable, handout, root, os.path.join(here, "self-study.tar.gz")])
with tarfile.open(os.path.join(here, "self-study.tar.gz")) as t:
    expect(self_study.returncode == 0 and "workbook/VARIANT" not in t.getnames(),
           "the self-study hand-out carries no variant (variant 0)")

# 2. Each student's graded cases are their own, in every chapter that has predictions; over
# 100 students nearly every set differs.
spread = []
for chapter in chapters:
    if grader_of(chapter) is None:
        expect(False, f"{chapter}: no grader in {solution_build}")
        continue
    a, b = cases(chapter, va), cases(chapter, vb)
    predicts = any(row[2] for row in a)
    if predicts:
        expect({r[:2] for r in a} != {r[:2] for r in b},
               f"{chapter}: ada and bo are graded on the same cases")
    # The graded cases, and the answer tables a classmate could copy: (function, arguments,
    # the reference's answer) of every prediction. Two students with one table can share
    # their numbers even where other parts of their cases differ.
    sets, tables = set(), set()
    for i in range(1, 101):
        rows = cases(chapter, variants.derive(secret, f"student{i:03d}"))
        sets.add(tuple(sorted(r[:2] for r in rows)))
        tables.add(tuple(sorted({(r[2], r[3], r[4]) for r in rows if r[2]})))
    spread.append((chapter, len(sets) if a else 0, predicts, len(tables) if predicts else 0))
    expect(not predicts or len(tables) >= 95, f"{chapter}: {len(tables)} distinct prediction "
           f"tables over 100 students (at least 95: a classmate's table must rarely be one's own)")
print("over 100 students, by chapter: distinct graded-case sets, distinct prediction tables")
for chapter, count, predicts, answer_tables in spread:
    print(f"  {chapter:<28} {count:>3} {answer_tables:>3}" + ("" if count else "  (does not vary)")
          + ("" if predicts or not count else "  (no prediction)"))

# 3. Variant 0 grades exactly the self-study cases the workbook has always graded: each
# chapter's are held in solutions/NN_slug/variant0_cases.tsv (no file: the chapter lists none).
for chapter in chapters:
    if not grader_of(chapter):
        continue
    path = os.path.join(root, "solutions", chapter, "variant0_cases.tsv")
    text = "".join("\t".join(r[:4]) + "\n" for r in cases(chapter, 0))
    if "--write-snapshot" in sys.argv[4:]:
        if text:
            with open(path, "w") as f:
                f.write(text)
        elif os.path.exists(path):
            os.remove(path)
        continue
    try:
        with open(path) as f:
            held = f.read()
    except OSError:
        held = ""
    expect(held == text, f"{chapter}: variant 0's cases are not {path}'s (a self-study case "
                         f"changed; if on purpose, rerun with --write-snapshot)")
if "--write-snapshot" in sys.argv[4:]:
    print("wrote every chapter's solutions/NN_slug/variant0_cases.tsv")
    sys.exit(1 if problems else 0)

# 4. A classmate's answers: ada's, copied as numbers, keep on ada's variant only the predictions
# graded as numbers, and lose the prediction points on bo's.
classroom = os.path.join(here, "class")
for chapter in grading_chapters:
    copy = os.path.join(here, f"{chapter}_copy.cu")
    made = run([sys.executable, copier, "make", "--grader", grader_of(chapter), "--variant",
                str(va), "--solution",
                os.path.join(root, "solutions", chapter, f"{chapter[3:]}_exercise.cu"),
                "--interface", os.path.join(root, "chapters", chapter, f"{chapter[3:]}.cuh"),
                "--namespace", f"ch{chapter[:2]}", "--out", copy])
    expect(made.returncode == 0, f"{chapter}: copying ada's answers: {made.stderr[-300:]}")
    for student in ("ada", "bo"):
        target = os.path.join(classroom, student, "chapters", chapter, f"{chapter[3:]}_exercise.cu")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(copy, target)
# The class grading's pristine workbooks (grading_ci.py's cache), not built again.
common = ["--chapters", ",".join(grading_chapters), "--time-limit", "300", "--workbook-cache",
          os.path.join(work, "pristine")]
class_run = run([sys.executable, tool, "--class", classroom, "--out", out, "--roster", roster,
                 "--secret-file", secret_file] + common, timeout=3600)
expect(class_run.returncode == 0, f"the class graded on its variants: {class_run.stderr[-800:]}")


# Official grading's hidden checks try the functions on inputs no variant grades: a table of one
# variant's numbers cannot answer them anywhere, so they are left out. On ada's own variant the
# table keeps the points of predictions graded as numbers (chapter 01's) and loses those graded as
# rules, which official grading also asks on fresh cases (chapter 02's): it loses nothing else.
ada, bo = graded(out, "ada"), graded(out, "bo")
ada_lost = ada and {t["name"] for t in ada["tests"] if t["score"] < t["max_score"]
                    and not t["hidden"]}
ada_predictions = {r[0] for c in grading_chapters for r in cases(c, va) if r[2]}
expect(ada is not None and ada["variant"] == va and ada["score"] > 0 and ada_lost
       and ada_lost <= ada_predictions,
       f"ada's answers, a table, lose on ada's variant {va} only the predictions graded as rules "
       f"(hidden checks aside): lost {sorted(ada_lost or [])}")
predictions = {r[0] for c in grading_chapters for r in cases(c, vb) if r[2]}
if bo is not None:
    lost = {t["name"] for t in bo["tests"] if t["score"] < t["max_score"] and not t["hidden"]}
    for chapter in grading_chapters:
        chapter_predictions = {r[0] for r in cases(chapter, vb) if r[2]}
        expect(lost & chapter_predictions,
               f"{chapter}: ada's answers copied by bo lose no prediction points on bo's variant")
    expect(lost <= predictions, f"the copy loses only prediction points on bo's variant, not "
                                f"{sorted(lost - predictions)}")
    expect(bo["variant"] == vb, f"bo is graded on bo's variant {vb}, not {bo['variant']}")
    expect(f"graded on variant {vb}" in graded(out, "bo", "results.json")["output"],
           "results.json names the variant")
    with open(os.path.join(out, "submissions", "bo", "report.md")) as f:
        expect(f"graded on variant {vb}" in f.read(), "the report names the variant")
    with open(os.path.join(out, "class.csv")) as f:
        table = list(csv.DictReader(f))
    expect(any(r["submission"] == "bo" and r["variant"] == str(vb) for r in table),
           "class.csv names each submission's variant")
else:
    expect(False, "bo was not graded")

# The gradebook keyed by student id: class.csv carries each submission's id and name from the
# roster, gradebook-import.csv has a row for every student of the roster (an empty grade for one
# who handed in nothing), and roster-check.csv says what became of each. The roster may name a
# submission other than by the id (as a course platform's download names files).
with open(os.path.join(out, "class.csv")) as f:
    table = {r["submission"]: r for r in csv.DictReader(f)}
expect(table.get("ada", {}).get("student") == "ada" and table.get("bo", {}).get("name") == "Bo P.",
       f"class.csv carries the student id and name: {table}")
renamed = os.path.join(here, "renamed")
shutil.copytree(os.path.join(classroom, "bo"), os.path.join(renamed, "p_bo_817_final"))
shutil.copytree(os.path.join(classroom, "ada"), os.path.join(renamed, "ada"))
by_file = os.path.join(here, "roster-by-file.csv")
put(by_file, b"SIS User ID,Name,Submission\nada,Ada L.,\nbo,Bo P.,p_bo_817_final\ncy,Cy Q.,\n")
keyed = run([sys.executable, tool, "--class", renamed, "--out", os.path.join(here, "keyed"),
             "--roster", by_file, "--secret-file", secret_file, "--assignment", "Workbook"]
            + common, timeout=3600)
expect(keyed.returncode == 0 and "handed in nothing: cy" in keyed.stderr,
       f"a roster naming submissions grades them as their students and lists who handed in "
       f"nothing: {keyed.stderr[-600:]}")
try:
    with open(os.path.join(here, "keyed", "gradebook-import.csv")) as f:
        lms = list(csv.reader(f))
    with open(os.path.join(here, "keyed", "roster-check.csv")) as f:
        check = list(csv.reader(f))
    with open(os.path.join(here, "keyed", "class.csv")) as f:
        keyed_table = {r["submission"]: r for r in csv.DictReader(f)}
except OSError as e:
    lms, check, keyed_table = [], [], {}
    expect(False, f"the gradebook files were not written: {e}")
bo_score = bo and scoring.number(bo["score"])
expect(lms[:1] == [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Workbook"]]
       and [r[2] for r in lms[1:]] == ["ada", "bo", "cy"] and lms[2][5] == bo_score
       and lms[3][5] == "", f"gradebook-import.csv: one row per student, bo's score under "
                            f"his id, cy's grade empty: {lms}")
expect(check[1:] == [["ada", "Ada L.", "ada", "graded"], ["bo", "Bo P.", "p_bo_817_final", "graded"],
                     ["cy", "Cy Q.", "", "no submission"]], f"roster-check.csv: {check}")
expect(keyed_table.get("p_bo_817_final", {}).get("student") == "bo"
       and keyed_table["p_bo_817_final"]["variant"] == str(vb),
       f"a renamed submission is graded as its student, on his variant: {keyed_table}")
orals = sorted(os.listdir(os.path.join(here, "keyed", "viva"))) + sorted(
    os.listdir(os.path.join(here, "keyed", "exam"))) if os.path.isdir(os.path.join(
        here, "keyed", "viva")) else []
expect(orals == ["ada.md", "bo.md", "ada-key.md", "ada.md", "bo-key.md", "bo.md",
                 "moodle-quiz.xml"], f"a viva and an exam sheet for each graded student, by id, "
                                     f"beside the class's files (not in a submission's): {orals}")
print(f"ada's answers: {ada and ada['score']} of {ada and ada['max_score']} on ada's variant; "
      f"copied by bo: {bo and bo['score']} on bo's")


# 5. A forged or borrowed variant is refused, whole.
def archive_with(path, stamp):
    files = {f"workbook/chapters/{c}/{c[3:]}_exercise.cu":
             open(os.path.join(classroom, "ada", "chapters", c, f"{c[3:]}_exercise.cu"),
                  "rb").read() for c in grading_chapters}
    if stamp is not None:
        files["workbook/VARIANT"] = stamp.encode()
    put(path, tar_bytes([(tar_info(name), data) for name, data in files.items()], "gz"))


forged = os.path.join(here, "forged")
os.makedirs(forged)
archive_with(os.path.join(forged, "ada.tar.gz"), variants.variant_file("ada", vb))
archive_with(os.path.join(forged, "bo.tar.gz"), variants.variant_file("ada", va))
refused = run([sys.executable, tool, "--class", forged, "--out", out, "--roster", roster,
               "--secret-file", secret_file] + common, timeout=1800)
for student, why in (("ada", "the file was edited or copied"), ("bo", "is ada's")):
    r = graded(out, student)
    expect(r is not None and r["score"] == 0 and any(why in n for n in r["notes"]),
           f"{student}'s forged VARIANT is refused ({why}): {r and r['notes'][:2]}")
# With the secret alone a submission's name is its student's id: its own VARIANT file is graded
# on its variant; a classmate's, a forged one and none at all are refused, saying which rule.
alone = os.path.join(here, "secret-only")
os.makedirs(alone)
archive_with(os.path.join(alone, "ada.tar.gz"), variants.variant_file("ada", va))
archive_with(os.path.join(alone, "bo.tar.gz"), variants.variant_file("ada", va))
archive_with(os.path.join(alone, "cy.tar.gz"),
             variants.variant_file("cy", variants.derive(secret, "cy") % variants.LARGEST + 1))
archive_with(os.path.join(alone, "dee.tar.gz"), None)
checked = run([sys.executable, tool, "--class", alone, "--out", out, "--secret-file",
               secret_file] + common, timeout=1800)
r = graded(out, "ada")
expect(r is not None and r["score"] > 0 and r["variant"] == va,
       f"with the secret alone ada's own workbook is graded on her variant: "
       f"{r and (r['score'], r['variant'], r['notes'][:2])}")
for student, why in (("bo", "is ada's, but it was handed in as bo"), ("cy", "forged"),
                     ("dee", "carries no VARIANT file")):
    r = graded(out, student)
    expect(r is not None and r["score"] == 0 and any(why in n for n in r["notes"]),
           f"with the secret alone {student}'s submission is refused ({why}): "
           f"{r and r['notes'][:2]}")
# A roster without the secret keys the gradebook only: every student is on variant 0, so a
# workbook that carries a class variant is refused, saying the secret is needed.
unkeyed = os.path.join(here, "roster-only")
os.makedirs(unkeyed)
archive_with(os.path.join(unkeyed, "ada.tar.gz"), variants.variant_file("ada", va))
run([sys.executable, tool, "--class", unkeyed, "--out", out, "--roster", roster] + common,
    timeout=1800)
r = graded(out, "ada")
expect(r is not None and r["score"] == 0 and any("--secret-file" in n for n in r["notes"]),
       f"with a roster and no secret a class variant is refused, naming --secret-file: "
       f"{r and r['notes'][:2]}")

# 6. Bad input: each a clear error naming the row or option, and nothing graded.
put(os.path.join(here, "twice.csv"), b"student\nada\nbo\nada\n")
put(os.path.join(here, "short-secret"), b"abc\n")
stranger = os.path.join(here, "stranger")
os.makedirs(os.path.join(stranger, "zed"))
bad = [
    ([sys.executable, handout, root, "--class-out", os.path.join(here, "h2"), "--roster",
      os.path.join(here, "twice.csv"), "--secret-file", secret_file], "row 4: student ada is listed twice"),
    ([sys.executable, handout, root, "--class-out", os.path.join(here, "h2"), "--roster", roster],
     "missing: --secret-file"),
    ([sys.executable, handout, root, "--class-out", os.path.join(here, "h2"), "--roster", roster,
      "--secret-file", os.path.join(here, "short-secret")], "it must be at least 16"),
    ([sys.executable, tool, "--class", stranger, "--out", out, "--roster", roster,
      "--secret-file", secret_file] + common, "on no row of the roster"),
    ([sys.executable, tool, "--class", classroom, "--out", out, "--roster",
      os.path.join(here, "twice.csv"), "--secret-file", secret_file] + common, "row 4"),
    ([sys.executable, tool, "--class", classroom, "--out", out, "--variant", "1000000000"]
     + common, "--variant: '1000000000' is not a variant"),
    ([sys.executable, tool, "--class", classroom, "--out", out, "--roster", roster,
      "--secret-file", os.path.join(here, "missing-secret")] + common, "missing-secret"),
]
for command, said in bad:
    done = run(command, timeout=600)
    expect(done.returncode != 0 and said in done.stderr,
           f"bad input {' '.join(command[2:5])}...: expected an error saying {said!r}, got "
           f"{done.returncode}: {done.stderr[-300:]}")
expect(not os.path.isdir(os.path.join(here, "h2")), "a refused roster wrote no hand-out")
expect(graded(out, "zed") is None, "a class with a stranger is not graded half")
variant_env = run([grader_of(chapters[0]), "host"], env=dict(os.environ, WORKBOOK_VARIANT="1e9"))
expect(variant_env.returncode == 2 and "WORKBOOK_VARIANT" in variant_env.stderr,
       "a grader refuses a variant out of range, naming WORKBOOK_VARIANT")

varying = sum(1 for _, count, predicts, _ in spread if count and predicts)
print(f"variants: {varying} chapters vary with their predictions (distinct case sets / "
      f"prediction tables over 100 students: "
      f"{', '.join(f'ch{c[:2]} {n}/{t}' for c, n, _, t in spread)}); ada's copied answers "
      f"{'lose on bo' if not problems else 'see PROBLEMs'}; forged variants refused; "
      f"{len(bad) + 1} bad inputs named; {len(problems)} problems")
sys.exit(1 if problems else 0)
