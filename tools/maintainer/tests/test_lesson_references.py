#!/usr/bin/env python3
"""Host test: what the lessons say about other chapters and about the GPU stays true.

    test_lesson_references.py SOURCE_ROOT

- Every "chapter NN" a lesson or the README names is a chapter folder that exists: a lesson may
  point forward only to chapters that have landed, and never to "a later chapter".
- Every chapter's lesson has a "Predict first, then check" step that sends the student to the
  analyser, and shows at least one figure.
- Claims that were retired because they were wrong, misleading or unmeasured do not come back.
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
    for problem in problems:
        print(problem)
    print(f"{len(pages)} pages, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
