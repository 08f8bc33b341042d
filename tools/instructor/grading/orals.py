"""A viva for each student and an exam sheet of fresh questions, with keys from the bank model.

Grading scores what a student's code does; it cannot tell whether the student understands it.
After a class is graded, `grade` writes, for the instructors only (never into a student's
results folder):

  viva/STUDENT.md    per graded chapter, three short questions about the student's own code (it
                     is quoted) on an access of the chapter's kind that no hand-out showed: its
                     cost, the smallest change that makes it free, and the lesson's own
                     questions ("Before you move on"), for a five-minute talk;
  exam/STUDENT.md    six prediction questions, each of another structure (a tile's column, a
                     struct member, a broadcast group, a strided array, a 16-byte vector, an XOR
                     swizzle, ldmatrix rows), and exam/STUDENT-key.md with their keys;
  exam/moodle-quiz.xml  the same questions as Moodle XML (numerical questions, one category per
                     student), which Moodle and other LMSs import.

Every key is the bank model's: the questions' addresses go through `analyze_smem_access --batch`
in one call. The parameters are drawn from a keyed hash of the course secret (where there is
one) and the student's id, so no student can draw a classmate's questions.
"""
import hashlib
import hmac
import os
import random
import re
import subprocess
import tempfile
from xml.etree import ElementTree as ET
from xml.sax.saxutils import escape

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SIZES = {"char": 1, "short": 2, "float": 4, "double": 8}
QUESTIONS_PER_EXAM = 6
QUOTED = 20  # lines of a "your code" region a viva question quotes
YOUR_CODE = re.compile(r"// ---- your code: (exercise [^-]+?) ----\n(.*?)// ---- end of your code",
                       re.S)


class Access:
    """One warp's access, as a student reads it (`declaration`, then `statement` in lane t) and
    as the model takes it: `width` bytes per lane, `op`, and the byte offset of lane t's access
    from `base` for a given `knob` (a row pitch, a struct's size, a stride: what a fix changes;
    None where nothing is to change). `lvalue` is what lane t accesses (the tests compile it)."""

    def __init__(self, declaration, statement, lvalue, base, width, op, offset, knob=None,
                 step=1, knob_words=""):
        vars(self).update((name, value) for name, value in locals().items() if name != "self")

    def addresses(self, knob=None):
        return [self.offset(t, self.knob if knob is None else knob) for t in range(32)]

    def fixes(self):
        """The knobs a fix may take: from the drawn one up, in steps that keep alignment."""
        return [] if self.knob is None else [self.knob + i * self.step for i in range(1, 33)]


def column(r):
    kind = r.choice(["float", "double", "short"])
    size, pitch = SIZES[kind], r.choice([p for p in range(16, 72) if p not in (32, 33)])
    col = r.randrange(pitch)
    return Access(f"__shared__ {kind} tile[32][{pitch}];", f"{kind} v = tile[t][{col}];",
                  f"tile[t][{col}]", "tile", size, "load",
                  lambda t, p: (t * p + col) * size, pitch,
                  knob_words="row length (elements per row of the declaration)")


def member(r):
    count = r.randrange(2, 24)
    index = r.randrange(count)
    return Access(f"struct Item {{ float v[{count}]; }};\n__shared__ Item items[32];",
                  f"items[t].v[{index}] = x;", f"items[t].v[{index}]", "items", 4, "store",
                  lambda t, k: (t * k + index) * 4, count,
                  knob_words="number of floats in Item (the array's length)")


def broadcast(r):
    group, stride = r.choice([2, 4, 8, 16]), r.randrange(1, 48)
    return Access("__shared__ float table[2048];", f"float v = table[(t / {group}) * {stride}];",
                  f"table[(t / {group}) * {stride}]", "table", 4, "load",
                  lambda t, s: (t // group) * s * 4, stride,
                  knob_words=f"stride between the groups of {group} lanes")


def strided(r):
    kind = r.choice(["char", "short", "float"])
    size = SIZES[kind]
    stride = r.choice([s for s in range(3, 40) if (s * size) % 4 == 0 or s * size < 4])
    return Access(f"__shared__ {kind} a[8192];", f"{kind} v = a[t * {stride}];",
                  f"a[t * {stride}]", "a", size, "load", lambda t, s: t * s * size, stride,
                  knob_words="stride (elements)")


def vector(r):
    pitch, store = r.choice(range(32, 72, 4)), r.random() < 0.5
    col = 4 * r.randrange(pitch // 4)
    ref = f"*reinterpret_cast<float4*>(&tile[t][{col}])"
    return Access(f"__shared__ __align__(16) float tile[32][{pitch}];",
                  f"{ref} = x;" if store else f"float4 v = {ref};", f"tile[t][{col}]", "tile",
                  16, "store" if store else "load", lambda t, p: (t * p + col) * 4, pitch, 4,
                  "row length (floats per row, a multiple of 4)")


def swizzle(r):
    col, shift, mask = r.randrange(32), r.randrange(0, 3), r.choice([1, 3, 7, 15, 31])
    index = f"{col} ^ ((t >> {shift}) & {mask})"
    return Access("__shared__ float tile[32][32];", f"float v = tile[t][{index}];",
                  f"tile[t][{index}]", "tile", 4, "load",
                  lambda t, _: (t * 32 + (col ^ ((t >> shift) & mask))) * 4)


def ldmatrix(r):
    pitch = r.choice([p for p in range(32, 144, 8) if p not in (64, 72)])
    col = 8 * r.randrange(pitch // 8)
    return Access(f"__shared__ __align__(16) __half tile[32][{pitch}];",
                  f"ldmatrix.x4 (four 8x8 matrices), lane t giving the row address &tile[t][{col}]",
                  f"tile[t][{col}]", "tile", 16, "ldmatrix.x4", lambda t, p: (t * p + col) * 2,
                  pitch, 8, "row length (halves per row, a multiple of 8)")


TEMPLATES = {"column": column, "member": member, "broadcast": broadcast, "strided": strided,
             "vector": vector, "swizzle": swizzle, "ldmatrix": ldmatrix}
# What each chapter's viva asks about: three accesses of the chapter's own kind (a chapter not
# listed here, a new one: VIVA_OTHERWISE).
VIVA = {"01": ("strided", "member", "broadcast"), "02": ("strided", "strided", "member"),
        "03": ("broadcast", "broadcast", "strided"), "04": ("column", "column", "member"),
        "05": ("column", "column", "vector"), "06": ("column", "member", "column"),
        "07": ("swizzle", "swizzle", "column"), "08": ("vector", "vector", "column"),
        "09": ("broadcast", "column", "vector"), "10": ("ldmatrix", "ldmatrix", "swizzle"),
        "11": ("vector", "swizzle", "column"), "12": ("vector", "column", "ldmatrix")}
VIVA_OTHERWISE = ("column", "member", "strided")


def draw(secret, student, what):
    """The random source of `student`'s `what` (the exam, or a chapter's viva)."""
    key = secret or b"no course secret"
    return random.Random(hmac.new(key, f"{what}\0{student}".encode(), hashlib.sha256).digest())


def pick(analyzer, r, names):
    """[(Access, key)] of each template name, 70% of them conflicted: no answer is worth a guess."""
    chosen = []
    for name in names:
        drawn = [TEMPLATES[name](r) for _ in range(4)]
        for a in drawn:
            a.template = name
        answers = keys(analyzer, drawn)
        conflicted = r.random() < 0.7
        wanted = [pair for pair in zip(drawn, answers) if (pair[1][0] > pair[1][1]) == conflicted]
        chosen.append((wanted or list(zip(drawn, answers)))[0])
    return chosen


def exam(analyzer, secret, student):
    r = draw(secret, student, "exam")
    return pick(analyzer, r, r.sample(sorted(TEMPLATES), QUESTIONS_PER_EXAM))


def viva(analyzer, secret, student, chapter):
    return pick(analyzer, draw(secret, student, f"viva {chapter}"),
                VIVA.get(chapter[:2], VIVA_OTHERWISE))


def costs(analyzer, requests):
    """{name: (wavefronts, ideal)} of {name: (width, op, addresses)}: one analyser call."""
    with tempfile.NamedTemporaryFile("w", suffix=".tsv") as cases:
        for name, (width, op, addresses) in requests.items():
            cases.write(f"{name}\t{width}\t{op}\t-\t-\t{' '.join(map(str, addresses))}\n")
        cases.flush()
        run = subprocess.run([analyzer, "--batch", cases.name], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{analyzer} --batch failed: {run.stderr.strip()[:300]}")
    rows = (line.split("\t") for line in run.stdout.splitlines() if "\t" in line)
    return {row[0]: (int(row[1]), int(row[2])) for row in rows if not row[0].startswith("#")}


def keys(analyzer, accesses):
    """For each access: (wavefronts, ideal, the smallest knob above its own that costs ideal)."""
    requests = {}
    for i, a in enumerate(accesses):
        requests[f"q{i}"] = (a.width, a.op, a.addresses())
        for k in a.fixes():
            requests[f"q{i}_{k}"] = (a.width, a.op, a.addresses(k))
    measured = costs(analyzer, requests)
    answers = []
    for i, a in enumerate(accesses):
        wavefronts, ideal = measured[f"q{i}"]
        free = [k for k in a.fixes() if measured[f"q{i}_{k}"][0] == measured[f"q{i}_{k}"][1]]
        answers.append((wavefronts, ideal, free[0] if free else None))
    return answers


def ask(a):
    return (f"```cpp\n{a.declaration}\n// in lane t of one warp (t = 0..31):\n{a.statement}\n"
            f"```\n\nHow many wavefronts does the warp's request take?")


def answer(a, key):
    wavefronts, ideal, fix = key
    line = (f"{wavefronts} wavefront{'s' * (wavefronts > 1)} (ideal {ideal}, "
            f"{wavefronts - ideal} bank conflict{'s' * (wavefronts - ideal != 1)}).")
    if a.knob is not None and wavefronts > ideal:
        line += (f" Smallest {a.knob_words} above {a.knob} that makes it conflict-free: {fix}."
                 if fix else f" No {a.knob_words} up to {a.fixes()[-1]} makes it conflict-free.")
    return line


def viva_text(student, chapters, analyzer, secret, lessons=ROOT):
    """viva/STUDENT.md: `chapters` {folder: its exercise text}; `lessons` the graded workbook"""
    lines = [f"# Viva: {student}", "", "For the instructor, five minutes a chapter: ask for the "
             "reasoning, not only the number. The keys are the bank model's.", ""]
    for chapter, text in sorted(chapters.items()):
        asked = viva(analyzer, secret, student, chapter)
        regions = YOUR_CODE.findall(text)
        lines += [f"## {chapter}", ""] if asked else []
        for n, (a, key) in enumerate(asked, 1):
            where, code = regions[(n - 1) % len(regions)] if regions else \
                ("exercise file", "(it holds no 'your code' region)")
            code = code.rstrip().split("\n")  # a long region: its first QUOTED lines
            lines += [f"### {n}. Their {where}", "", "```cpp"] + code[:QUOTED] + (
                [f"// ... and {len(code) - QUOTED} more lines"] if len(code) > QUOTED else []) + \
                ["```", "", "Ask them to explain it for two lanes. Then:", ""]
            follow = (f" What is the smallest {a.knob_words} above {a.knob} that makes it "
                      f"conflict-free, and why?") if a.knob is not None and key[0] > key[1] \
                else " Why, and what change to it would add conflicts?"
            lines += [ask(a) + follow, "", f"Key: {answer(a, key)}", ""]
        lines += ["### And the lesson's own questions, about their code", ""] + [
            f"- {q}" for q in lesson_questions(chapter, lessons)] + [""] if asked else []
    return "\n".join(lines)


def lesson_questions(chapter, lessons=ROOT):
    """The questions of the chapter's lesson's section "Before you move on"."""
    with open(os.path.join(lessons, "chapters", chapter, "README.md"), encoding="utf-8") as f:
        part = f.read().partition("Before you move on")[2]
    questions = re.findall(r"^\d+\. (.*?)(?=^\d+\. |\Z)", part, re.M | re.S)
    return [" ".join(q.split()) for q in questions]


def exam_texts(student, analyzer, secret):
    """(exam/STUDENT.md, exam/STUDENT-key.md, [(Access, key)])."""
    asked = exam(analyzer, secret, student)
    sheet = [f"# Shared-memory bank conflicts: questions for {student}", "",
             "Banks are 4 bytes wide, 32 of them; a warp is 32 lanes.", ""]
    keyed = [f"# Keys for {student}", ""]
    for n, (a, key) in enumerate(asked, 1):
        sheet += [f"## Question {n}", "", ask(a), ""]
        keyed += [f"{n}. {answer(a, key)}"]
    return "\n".join(sheet), "\n".join(keyed) + "\n", asked


def moodle_xml(exams):
    """Moodle XML of {student: [(Access, key)]}: per student a category, then numerical
    questions (exact answers), their text HTML."""
    quiz = ET.Element("quiz")
    for student, asked in sorted(exams.items()):
        category = ET.SubElement(ET.SubElement(quiz, "question", type="category"), "category")
        ET.SubElement(category, "text").text = f"$course$/top/Bank conflicts exam/{student}"
        for n, (a, key) in enumerate(asked, 1):
            q = ET.SubElement(quiz, "question", type="numerical")
            ET.SubElement(ET.SubElement(q, "name"), "text").text = f"{student} question {n}"
            body = ET.SubElement(q, "questiontext", format="html")
            ET.SubElement(body, "text").text = (
                f"<pre><code>{escape(a.declaration)}\n// in lane t of one warp (t = 0..31):\n"
                f"{escape(a.statement)}</code></pre><p>How many wavefronts does the warp's "
                f"request take?</p>")
            ET.SubElement(q, "defaultgrade").text = "1"
            right = ET.SubElement(q, "answer", fraction="100")
            ET.SubElement(right, "text").text = str(key[0])
            ET.SubElement(right, "tolerance").text = "0"
            ET.SubElement(ET.SubElement(right, "feedback", format="html"), "text").text = \
                escape(answer(a, key))
    ET.indent(quiz)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(quiz, "unicode") + "\n"


def write(out, students, analyzer, secret=None, lessons=ROOT):
    """Writes viva/ and exam/ under `out` for {student: {chapter folder: exercise text}}."""
    for folder in ("viva", "exam"):
        os.makedirs(os.path.join(out, folder), exist_ok=True)
    exams = {}
    for student, chapters in sorted(students.items()):
        with open(os.path.join(out, "viva", f"{student}.md"), "w") as f:
            f.write(viva_text(student, chapters, analyzer, secret, lessons))
        sheet, keyed, exams[student] = exam_texts(student, analyzer, secret)
        for name, text in ((f"{student}.md", sheet), (f"{student}-key.md", keyed)):
            with open(os.path.join(out, "exam", name), "w") as f:
                f.write(text)
    with open(os.path.join(out, "exam", "moodle-quiz.xml"), "w") as f:
        f.write(moodle_xml(exams))
