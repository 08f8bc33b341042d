"""The vivas and exam sheets of a class of three (tools/instructor/grading/orals.py): every
question's code, compiled, touches the addresses its key was computed from; every key is the bank
model's (analyze_smem_access --batch with the keys as expected costs: a wrong key is a MISMATCH,
shown here); the Moodle XML parses back, question by question, in Moodle's format; students'
questions differ, and the same student's are drawn again the same.

    test_orals.py SOURCE_ROOT ANALYZER C++-COMPILER..."""
import os
import re
import subprocess
import sys
import tempfile
from xml.etree import ElementTree as ET

root, analyzer, compiler = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3:]
sys.path.insert(0, os.path.join(root, "tools", "instructor"))
from grading import orals  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check as expect, finish  # noqa: E402


SECRET = b"a course secret of the test class"
chapters = sorted(d for d in os.listdir(os.path.join(root, "solutions")) if re.match(r"\d\d_", d))
solution = {c: open(os.path.join(root, "solutions", c, f"{c[3:]}_exercise.cu")).read()
            for c in chapters}
students = {"alice": solution, "bob": {chapters[0]: solution[chapters[0]]}, "carol": {}}
out = (scratch := tempfile.TemporaryDirectory()).name
orals.write(out, students, analyzer, SECRET)

asked = {s: orals.exam(analyzer, SECRET, s) for s in students}
asked.update({f"alice viva {c}": orals.viva(analyzer, SECRET, "alice", c) for c in chapters})
expect(all(len(asked[f"alice viva {c}"]) == 3 for c in chapters), "a viva of three a chapter")
for s in students:
    expect(len({a.template for a, _ in asked[s]}) == orals.QUESTIONS_PER_EXAM >= 4,
           f"{s}'s exam: six questions, each of another structure")
expect(len({tuple(a.statement for a, _ in asked[s]) for s in students}) == 3,
       "the three students' exams differ")
again, other = ([a.statement for a, _ in orals.exam(analyzer, key, "bob")]
                for key in (SECRET, b"another course's secret!"))
expect(again == [a.statement for a, _ in asked["bob"]] != other,
       "a student's exam is drawn again the same, and another course secret draws another")
conflicted, total = (sum(k[0] > k[1] for qs in asked.values() for _, k in qs),
                     sum(len(qs) for qs in asked.values()))
expect(0.4 * total < conflicted < total, f"{conflicted} of {total} questions conflicted: "
       f"neither 'one wavefront' nor 'conflicted' is a safe guess")

# Each question's code, compiled on the host: the offsets its lanes touch.
program = ["#include <cstdio>", "#define __shared__ static", "using __half = unsigned short;",
           "#define __align__(n) __attribute__((aligned(n)))", "int main() {"]
listed = [(who, n, a, k) for who, qs in asked.items() for n, (a, k) in enumerate(qs)]
for who, n, a, _ in listed:
    program += ["  {", "    " + a.declaration.replace("\n", "\n    "),
                "    for (int t = 0; t < 32; ++t)",
                f'      std::printf("%ld ", (long)((const char*)&({a.lvalue}) - '
                f'(const char*)&{a.base}));', '    std::printf("\\n");', "  }"]
program += ["}"]
with tempfile.TemporaryDirectory() as work:
    with open(os.path.join(work, "questions.cpp"), "w") as f:
        f.write("\n".join(program) + "\n")
    built = subprocess.run(compiler + ["-std=c++17", "-o", os.path.join(work, "questions"),
                                       os.path.join(work, "questions.cpp")],
                           capture_output=True, text=True)
    if built.returncode != 0:
        sys.exit(f"the questions' code does not compile:\n{built.stderr[-3000:]}")
    compiled = subprocess.run([os.path.join(work, "questions")], capture_output=True, text=True,
                              check=True).stdout.splitlines()
    expect(len(compiled) == len(listed), "every question's code ran")

    def batch(keyed):
        path = os.path.join(work, "keys.tsv")
        with open(path, "w") as f:
            for (who, n, a, k), addresses in zip(keyed, compiled):
                f.write(f"{who.replace(' ', '_')}_{n}\t{a.width}\t{a.op}\t{k[0]}\t{k[0] - k[1]}\t"
                        f"{addresses.strip()}\n")
        return subprocess.run([analyzer, "--batch", path], capture_output=True, text=True)

    for (who, n, a, _), line in zip(listed, compiled):
        expect([int(x) for x in line.split()] == a.addresses(),
               f"{who} question {n + 1}: its code touches {line[:60]}..., its key was computed "
               f"for {a.addresses()[:8]}...")
    checked = batch(listed)
    expect(checked.returncode == 0, f"the keys are the bank model's: {checked.stdout[-800:]}")
    wrong = [(who, n, a, (k[0] + 1, k[1], k[2])) if i == 3 else (who, n, a, k)
             for i, (who, n, a, k) in enumerate(listed)]
    expect(batch(wrong).returncode == 1, "a wrong key is caught (a MISMATCH)")

# The Moodle XML, parsed back: a category per student, then its numerical questions, as the key.
quiz = ET.parse(os.path.join(out, "exam", "moodle-quiz.xml")).getroot()
expect(quiz.tag == "quiz", "the Moodle file's root is <quiz>")
questions, category = {}, None
for q in quiz:
    expect(q.tag == "question" and q.get("type") in ("category", "numerical"),
           f"a <question> of a known type: {q.tag} {q.attrib}")
    if q.get("type") == "category":
        category = q.findtext("category/text").rsplit("/", 1)[-1]
        continue
    answers = q.findall("answer")
    expect(len(answers) == 1 and answers[0].get("fraction") == "100" and
           answers[0].findtext("tolerance") == "0", "one exact answer, worth it all")
    expect(q.find("questiontext").get("format") == "html" and
           "How many wavefronts" in q.findtext("questiontext/text") and
           q.findtext("name/text").startswith(category), "a named question with its text")
    questions.setdefault(category, []).append(int(answers[0].findtext("text")))
expect(questions == {s: [k[0] for _, k in asked[s]] for s in students},
       f"the Moodle questions are the keys: {questions}")
for s in students:
    with open(os.path.join(out, "exam", f"{s}-key.md")) as f:
        keyed = [int(m) for m in re.findall(r"^\d+\. (\d+) wavefront", f.read(), re.M)]
    expect(keyed == questions.get(s), f"{s}'s key sheet says what the quiz accepts")
with open(os.path.join(out, "viva", "alice.md")) as f:
    viva = f.read()
expect(viva.count("### ") == 4 * len(chapters) and viva.count("Key: ") == 3 * len(chapters),
       "alice's viva: three keyed questions a chapter, and the lesson's")
first = [orals.YOUR_CODE.findall(solution[c])[0][1].rstrip().split("\n") for c in chapters]
expect(all("\n".join(code[:orals.QUOTED]) in viva for code in first) and
       "more lines" in viva and max(map(len, first)) > orals.QUOTED,
       "the viva quotes the student's own code, a long region's first lines")
expect(viva.count("\n- ") == sum(len(orals.lesson_questions(c)) for c in chapters) > 0,
       "the viva asks the lesson's own questions too")
with open(os.path.join(out, "viva", "carol.md")) as f:
    expect("##" not in f.read(), "no viva questions for chapters a student did not hand in")
finish(f"{len(listed)} questions, {conflicted} conflicted: every key the bank model's")
