#!/usr/bin/env python3
"""Runs docs/colab.ipynb top to bottom as a student would, on this machine: the self-study
hand-out (built here, or given) uploaded next to it, the first chapter graded untouched (it must fail,
saying why), then the chapter's exercise replaced by the reference solution (a student's edit)
and the notebook run again (it must keep the edit and pass). The GPU checks run where this
machine has a GPU and skip, saying why, where it has none.

    tools/maintainer/check_colab_notebook.py [--runner nbclient|plain] [--handout TARBALL]
                                             [--keep DIR]

--runner nbclient (the default) executes the notebook in a Jupyter kernel (Debian's
python3-nbclient and python3-ipykernel); plain runs its code cells in order in one Python
namespace, for a machine without Jupyter (the GPU machine).
"""
import argparse
import contextlib
import io
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import zipfile

from scratch_handout import fresh_folder, write_handout

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "docs" / "colab.ipynb"
from scratch_handout import check as expect, failures as problems  # noqa: E402


def run_nbclient(folder):
    try:
        import nbclient
        import nbformat
    except ImportError as e:
        sys.exit(f"check_colab_notebook.py: --runner nbclient needs {e.name} in {sys.executable} "
                 "(Debian: apt-get install python3-nbclient python3-ipykernel, then run it with "
                 "/usr/bin/python3), or use --runner plain")
    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    client = nbclient.NotebookClient(nb, timeout=1800, kernel_name="python3",
                                     resources={"metadata": {"path": str(folder)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:
        return f"CELL FAILED: {error}"
    text = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                text.append(output.get("text", ""))
            elif output.get("output_type") == "error":
                text.append("CELL FAILED: " + output.get("ename", "") + " " + output.get("evalue", ""))
            elif "data" in output:
                text.append(output["data"].get("text/plain", ""))
    return "".join(text)


def run_plain(folder):
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    namespace = {"__name__": "__main__"}
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(folder)
    try:
        for cell in cells:
            if cell["cell_type"] != "code":
                continue
            source = "".join(cell["source"])
            with contextlib.redirect_stdout(out):
                try:
                    exec(compile(source, "<notebook cell>", "exec"), namespace)
                except SystemExit as stop:
                    print(f"CELL FAILED: SystemExit {stop}")
                    break
                except Exception as error:  # noqa: BLE001 (reported, as Jupyter would)
                    print(f"CELL FAILED: {type(error).__name__} {error}")
                    break
    finally:
        os.chdir(here)
    return out.getvalue()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runner", choices=["nbclient", "plain"], default="nbclient")
    parser.add_argument("--handout", help="a hand-out archive (default: make one of git HEAD)")
    parser.add_argument("--keep", help="work here (default: a temporary folder)")
    args = parser.parse_args()
    folder = fresh_folder(args.keep, "colab-")
    archive = folder / "workbook-handout.tar.gz"
    if args.handout:
        shutil.copy(args.handout, archive)
    else:
        write_handout(ROOT, archive)
    env_before = dict(os.environ)
    os.environ.pop("WORKBOOK_HANDOUT_URL", None)
    chapters = sorted(p.name for p in (ROOT / "chapters").iterdir()
                      if p.is_dir() and p.name[:2].isdigit())
    first_chapter, suite = chapters[0], "ch" + chapters[0][:2]
    os.environ["WORKBOOK_CHAPTER"] = suite
    runner = run_nbclient if args.runner == "nbclient" else run_plain
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0 \
        if shutil.which("nvidia-smi") else False

    # 1. Untouched: the notebook runs to the end and the chapter fails, saying why.
    first = runner(folder)
    (folder / "first-run.txt").write_text(first)
    expect("CELL FAILED" not in first, "the first run stopped in a cell: " +
           first[first.find("CELL FAILED"):][:300])
    expect("unpacked workbook-handout.tar.gz" in first, "the hand-out was not unpacked")
    expect(re.search(rf"{suite}: not done yet: 0 of [1-9] checks passed", first) is not None,
           f"untouched {suite} did not fail in the notebook, counting its checks alone")
    form = "".join(json.loads(NOTEBOOK.read_text())["cells"][1]["source"])
    listed = re.search(r'CHAPTER = "\w+"  # @param (\[.*\])', form)
    expect(listed is not None and json.loads(listed.group(1)) == [f"ch{c[:2]}" for c in chapters],
           f"the chapter's dropdown (# @param) is not the workbook's chapters: {form}")
    expect("FAILED" in first and "Hint:" in first, "the failure does not say what is missing")
    for chapter in chapters:
        expect(f"ch{chapter[:2]} {chapter[3:]}" in first, f"the table of chapters lacks {chapter}")
    if not gpu:
        expect("GPU checks not run" in first, "without a GPU the GPU checks did not say why they "
               "skipped")
        expect("host checks only (no GPU)" in first, "the table does not say host checks only")

    # 2. The student's edit: the exercise filled in; the notebook run again keeps it and passes.
    exercise = next((folder / "workbook" / "chapters" / first_chapter).glob("*_exercise.cu"))
    shutil.copy(ROOT / "solutions" / first_chapter / exercise.name, exercise)
    second = runner(folder)
    (folder / "second-run.txt").write_text(second)
    expect("CELL FAILED" not in second, "the second run stopped in a cell: " +
           second[second.find("CELL FAILED"):][:300])
    expect("kept as it is, with your edits" in second, "the second run did not keep the edit")
    expect(f"{suite}: every check passed" in second,
           f"the filled-in {suite} did not pass in the notebook")
    try:  # the last cell keeps the student's work
        with zipfile.ZipFile(folder / "my-exercises.zip") as saved:
            kept = saved.read(str(exercise.relative_to(folder / "workbook")))
    except (OSError, KeyError, zipfile.BadZipFile) as e:
        kept = f"no saved exercise: {e}".encode()
    expect(kept == exercise.read_bytes(), f"my-exercises.zip does not hold the edited exercise: "
           f"{kept[:100]!r}")
    os.environ.clear()
    os.environ.update(env_before)
    print(f"notebook ({args.runner}, {'GPU' if gpu else 'no GPU'}): "
          f"{'ok' if not problems else str(len(problems)) + ' problems'}; logs in {folder}")
    if not args.keep and not problems:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
