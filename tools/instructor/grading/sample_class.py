"""A class of three that tests the grading tool end to end (CI in host mode, the GPU machine with
--gpu): `reference`, the reference solutions as a hand-out tree with a stray file; `skeleton`,
the untouched skeletons as a .tar.gz; and `mix`, every other chapter solved (the first, the
third, ...) as a .zip. Its scores are known: full marks, zero, and the solved chapters' points.
"""
import os
import tarfile
import zipfile

from grading import scoring


def exercise_file(root, folder, chapter):
    """The exercise file of `chapter` under `folder` ("solutions" or "chapters") of the workbook."""
    with open(os.path.join(root, folder, chapter, f"{chapter[3:]}_exercise.cu"), "rb") as f:
        return f.read()


def write(root, folder, chapters, modes):
    """Writes the class into `folder` and returns the score each submission must get when
    `chapters` are graded in `modes` ("host", "gpu"), and the maximum score."""
    def points(chapter):  # hidden checks included: official grading runs them
        return sum(c.points for c in scoring.load_points(root, chapter) if c.mode in modes)

    solved = chapters[::2]
    for c in chapters:
        path = os.path.join(folder, "reference", "workbook", "chapters", c, f"{c[3:]}_exercise.cu")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(exercise_file(root, "solutions", c))
    with open(os.path.join(folder, "reference", "workbook", "notes.txt"), "wb") as f:
        f.write(b"my notes\n")
    with tarfile.open(os.path.join(folder, "skeleton.tar.gz"), "w:gz") as t:
        for c in chapters:
            t.add(os.path.join(root, "chapters", c, f"{c[3:]}_exercise.cu"),
                  arcname=f"chapters/{c}/{c[3:]}_exercise.cu")
    with zipfile.ZipFile(os.path.join(folder, "mix.zip"), "w") as z:
        for c in chapters:
            z.writestr(f"chapters/{c}/{c[3:]}_exercise.cu",
                       exercise_file(root, "solutions" if c in solved else "chapters", c))
    expected = {"mix": sum(points(c) for c in solved),
                "reference": sum(points(c) for c in chapters), "skeleton": 0}
    return expected, sum(points(c) for c in chapters)
