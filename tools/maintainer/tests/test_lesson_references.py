#!/usr/bin/env python3
"""Host test: what the lessons say about other chapters and about the GPU stays true.

    test_lesson_references.py SOURCE_ROOT

- Every "chapter NN" a lesson or the README names is a chapter folder that exists: a lesson may
  point forward only to chapters that have landed, and never to "a later chapter".
- Every chapter's lesson has a "Predict first, then check" step that sends the student to the
  analyser, and shows at least one figure.
- Claims that were retired because they were wrong, misleading or unmeasured do not come back.
- No answer comes back into what the hand-out ships (HANDOUT_ANSWERS, read in chapters/, docs/
  less docs/instructors/, grader/ and the README): another chapter's answer, or a hint or outline
  that was the expression or the call sequence instead of the principle. And no chapter's
  interface or exercise defines a function another chapter's student writes (unless its own
  student writes one of that name too).
"""
import glob
import os
import re
import sys

# (phrase, why it may not come back)
RETIRED = [
    ("7 blocks per SM", "the occupancy API says otherwise; quote occupancy.* from the measurements"),
    ("every other row misaligned", "3 rows in 4 are misaligned"),
    ("one of the writes wins", "true for one address only, not for bytes of one word"),
    ("most likely because", "speculation: measure it (as the XOR experiment does) or drop it"),
    ("because its address arithmetic is simpler", "unmeasured"),
    ("hide much of the conflicts' latency", "unmeasured"),
    ("moves 16 bytes per thread per access, and so can", "unmeasured claim about copy kernels"),
    ("32 KB apart", "one row of out; the other grid order's bands are 1 MiB apart"),
    ("a later chapter", "name a chapter that exists, or none"),
    ("for free", "free in memory, slower measured: say which"),
    ("extends it to 8- and 16-byte", "no chapter extends the stride law to wide accesses"),
    ("XOR swizzle gets both", "col ^ row leaves a 16-wide tile 2-way; say which swizzle does"),
    ("does not fit: 16-byte accesses", "padded float4 columns and ldmatrix rows can be "
     "conflict-free (measured cases)"),
    ("once you count in words (a stride of 8 bytes", "holds only for byte strides that are "
     "multiples of 4"),
    ("can include arbitration", "unmeasured; conflicts = wavefronts - ideal is measured for "
     "loads, stores and ldmatrix, and cp.async's counter fails the other way (reads 0)"),
    ("What must be odd is the row length **in 4-byte words**", "false for 8- and 16-byte "
     "elements, whose rows count in elements (33 doubles are 66 words)"),
    ("A conflict-free 16-byte request is 4 wavefronts, not 1", "it is the groups with an active "
     "lane: 2 when pairs merge, 1 for lanes 0-7 alone (measured)"),
    ("each pair of neighbouring lanes", "pairs merge for the whole warp or not at all: every "
     "lane with t^1, or every lane with t^2"),
]

# (regex, why): answers the hand-out once printed, refused wherever it ships them.
HANDOUT_ANSWERS = [
    (r"Swizzle<\s*[123]\s*,\s*4\s*,\s*3\s*>", "chapter 10 exercise 2a's chosen_swizzle"),
    (r">>\s*3\)\s*&\s*(0x[137]0|mask)", "chapter 11 exercise 1: the TMA's swizzle as an expression"),
    (r"\boperand_byte_offset\b", "chapter 11 exercise 1's answer, once given in chapter 12's "
     "interface: the grader lets the TMA write its tiles"),
    (r"rows 16 i \.\. 16 i \+ 15", "chapter 10 exercise 3a's rows, in its outline"),
    (r"row \* kTcRowBytes \+ 16 \* chunk", "chapter 10 exercise 3a's byte, in its outline"),
    (r"2 kk for matrices 0 and 1", "chapter 10 exercise 3b's chunk, in its outline"),
    (r"With N = 1\b|the group sure to be done is the previous",
     "chapter 12 exercise 3's wgmma_wait count and the stage it releases"),
    (r"Step \d \(FILL ME IN[^)]*\)[^S]*?\(ptx::\w+", "chapter 11 exercise 3b's outline named the "
     "call of each step"),
    (r"bytes 0-3 are bank 0, bytes 4-7 bank 1", "chapter 01 exercise 1's hint was its answer"),
    (r"Which row length is odd\?", "chapter 02 exercise 3's hint was its answer"),
    (r"lane t must find every entry in a bank no other", "chapter 03 exercise 2's hint was its "
     "answer"),
    (r"so the base offset is 0", "chapter 12 exercise 1's failed check stated the value"),
    (r"TODO: as chapter 05, with tile\[", "chapters 06-07's kernel outline was its answer"),
]

# What ships and is read for HANDOUT_ANSWERS (make_handout.py ships these folders and files).
SHIPPED_TEXT = ("chapters", "docs", "grader")
TEXT_ENDINGS = (".md", ".cu", ".cuh", ".cpp", ".hpp", ".ini")


def shipped_texts(root):
    """(relative path, text) of every shipped text file HANDOUT_ANSWERS is held against."""
    paths = [os.path.join(root, "README.md")]
    for folder in SHIPPED_TEXT:
        for where, _, names in os.walk(os.path.join(root, folder)):
            if os.path.relpath(where, root).startswith(os.path.join("docs", "instructors")):
                continue
            paths += [os.path.join(where, n) for n in names if n.endswith(TEXT_ENDINGS)]
    for path in sorted(paths):
        with open(path, encoding="utf-8") as f:
            yield os.path.relpath(path, root), f.read()


STUDENT_REGION = re.compile(r"// ---- your code: [^\n]*\n(.*?)// ---- end of your code ----", re.S)
DEFINED = re.compile(r"^\s*(?:(?:inline|static|constexpr|__host__|__device__|__forceinline__)\s+)*"
                     r"[\w:<>]+\s+(\w+)\([^;]*?\)\s*\{", re.M)


def answer_symbols(root):
    """{chapter: the functions its student writes}: those its exercise defines in its regions."""
    symbols = {}
    for path in glob.glob(os.path.join(root, "chapters", "[0-9][0-9]_*", "*_exercise.cu")):
        with open(path, encoding="utf-8") as f:
            regions = "".join(STUDENT_REGION.findall(f.read()))
        symbols[os.path.basename(os.path.dirname(path))[:2]] = set(DEFINED.findall(regions))
    return symbols


def handout_problems(root):
    """Answers the hand-out ships (HANDOUT_ANSWERS), and another chapter's answer defined."""
    problems = []
    for rel, text in shipped_texts(root):
        squeezed = " ".join(text.split())
        for pattern, why in HANDOUT_ANSWERS:
            found = re.search(pattern, squeezed)
            if found:
                problems.append(f"{rel} ships '{found.group(0)}': {why}")
    symbols = answer_symbols(root)
    for chapter, names in symbols.items():
        for path in glob.glob(os.path.join(root, "chapters", f"{chapter}_*", "*.cu*")):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for other, theirs in symbols.items():
                if other == chapter:
                    continue
                for name in sorted(set(DEFINED.findall(text)) & theirs - names):
                    problems.append(f"{os.path.relpath(path, root)} defines {name}, which is "
                                    f"chapter {other}'s exercise and not its own")
    return problems


def main():
    root = sys.argv[1]
    chapters = {os.path.basename(p)[:2] for p in glob.glob(os.path.join(root, "chapters", "[0-9][0-9]_*"))}
    pages = sorted(glob.glob(os.path.join(root, "chapters", "*", "README.md")))
    pages.append(os.path.join(root, "README.md"))
    problems = []
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        rel = os.path.relpath(page, root)
        for number in re.findall(r"[Cc]hapters? (\d\d)\b", text):
            if number not in chapters:
                problems.append(f"{rel} names chapter {number}, which does not exist")
        for first, last in re.findall(r"[Cc]hapters (\d\d) to (\d\d)", text):
            for n in range(int(first), int(last) + 1):
                if f"{n:02d}" not in chapters:
                    problems.append(f"{rel} names chapters {first} to {last}; {n:02d} does not exist")
        if rel.startswith("chapters"):
            step = text.find("**Predict first, then check.**")
            if step < 0 or "analyze_smem_access" not in text[step:step + 1200]:
                problems.append(f"{rel} has no 'Predict first, then check' step that sends the "
                                f"student to analyze_smem_access")
            if "](figures/" not in text:
                problems.append(f"{rel} shows no figure")
        squeezed = " ".join(text.split())
        for phrase, why in RETIRED:
            if " ".join(phrase.split()) in squeezed:
                problems.append(f"{rel} says '{phrase}' again: {why}")
    problems += handout_problems(root)
    for problem in problems:
        print(problem)
    print(f"{len(pages)} pages, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
