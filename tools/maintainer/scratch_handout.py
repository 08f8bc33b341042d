"""What the maintainers' scripts share: scratch folders, checkouts and self-study hand-outs for
those that act as a student or an instructor would (the bench_*.py scripts,
check_colab_notebook.py, check_install_path.py), and the check() of the tools' tests."""
import datetime
import os
import pathlib
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile


def fresh_folder(keep, prefix):
    """An empty folder: `keep` (emptied first) where given, else a new temporary one."""
    folder = pathlib.Path(keep or tempfile.mkdtemp(prefix=prefix))
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def commit_of(root, revision="HEAD"):
    """The full hash of `revision` in `root`'s repository; exits saying why where there is none."""
    found = subprocess.run(["git", "-C", str(root), "rev-parse", "--verify", "-q",
                            f"{revision}^{{commit}}"], capture_output=True, text=True)
    if found.returncode != 0:
        sys.exit(f"{revision}: not a commit of {root}")
    return found.stdout.strip()


def checkout(root, revision, folder):
    """A fresh clone of `root` in `folder`, at `revision` (its committed files only, whatever
    `root` has not committed); the commit's full hash."""
    commit = commit_of(root, revision)
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(root), str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "checkout", "-q", commit], check=True)
    return commit


def write_handout(root, archive):
    """Writes the self-study hand-out of `root`'s committed workbook to `archive`."""
    subprocess.run([sys.executable, str(pathlib.Path(root) / "tools/instructor/make_handout.py"),
                    str(root), str(archive)], check=True, capture_output=True)


def unpacked_handout(root, folder):
    """The hand-out written to folder/handout.tar.gz and unpacked there: its workbook/ folder."""
    archive = pathlib.Path(folder) / "handout.tar.gz"
    write_handout(root, archive)
    with tarfile.open(archive) as t:
        t.extractall(folder)
    return pathlib.Path(folder) / "workbook"


def write_measurements(path, script, about, rows):
    """Writes a bench's measurements to `path` (made with its folder) and prints them: a header
    naming `script` and the machine (`about` more words on it, then [comment lines]), then one
    `quantity value unit` row of each (quantity, value, unit) of `rows`."""
    text = [f"# Written by tools/maintainer/{script}; do not edit by hand.",
            f"# machine: {os.cpu_count()} cores, {platform.machine()}, {about[0]}"]
    text += [f"# {line}".replace("{date}", datetime.date.today().isoformat()) for line in about[1:]]
    text += ["# quantity\tvalue\tunit"]
    text += [f"{k}\t{v:.1f}\t{u}" if u == "s" else f"{k}\t{v}\t{u}" for k, v, u in rows]
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(text) + "\n")
    print("\n".join(text))


failures = []  # what check() saw fail


def check(condition, what):
    """A test's check: `what` is printed and kept in `failures` when `condition` is false."""
    if not condition:
        failures.append(what)
        print("PROBLEM: " + what, flush=True)


def finish(passed):
    """A test's end: `passed` printed where nothing failed, else each failure; exit 0 or 1."""
    print(passed if not failures else f"{len(failures)} failures:\n  " + "\n  ".join(failures))
    sys.exit(1 if failures else 0)
