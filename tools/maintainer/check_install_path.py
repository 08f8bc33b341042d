#!/usr/bin/env python3
"""Proves the README's install path for distributions whose Meson is too old (Ubuntu 22.04,
Colab): its venv command, run as written but with Meson pinned to the oldest version the build
accepts (meson.build's meson_version), then the README's student commands on a fresh
self-study hand-out with that Meson first on the PATH. The untouched chapter must build and
fail, saying why, under that Meson.

    tools/maintainer/check_install_path.py [--keep DIR]

Exit 0 when it holds, 1 when not, 77 (a skip) when PyPI cannot be reached from here.
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys

from scratch_handout import fresh_folder, unpacked_handout

ROOT = pathlib.Path(__file__).resolve().parents[2]


def fenced_block_after(text, marker):
    """The first fenced code block after the line holding `marker`."""
    at = text.index(marker)
    block = re.search(r"```\n(.*?)```", text[at:], re.S)
    return block.group(1).strip().splitlines()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep")
    args = parser.parse_args()
    work = fresh_folder(args.keep, "install-path-")
    readme = (ROOT / "README.md").read_text()
    oldest = re.search(r"meson_version:\s*'>=\s*([0-9.]+)'", (ROOT / "meson.build").read_text())[1]
    install = fenced_block_after(readme, "On Ubuntu 22.04")
    venv_line = next(l for l in install if "venv" in l and "pip install" in l)
    if "'meson>=" + oldest + "'" not in venv_line:
        sys.exit(f"the README's venv command does not ask for meson>={oldest}: {venv_line}")
    venv_line = venv_line.replace("'meson>=" + oldest + "'", "'meson==" + oldest + "'")
    student = [l for l in fenced_block_after(readme, "## Grading a chapter") if l.strip()]
    env = dict(os.environ, HOME=str(work / "home"))
    (work / "home").mkdir()
    # The README's line, in a shell, then the student's commands in the same shell.
    book = unpacked_handout(ROOT, work)
    script = "set -e\n" + venv_line + "\n" + "command -v meson\nmeson --version\n" + \
        "\n".join(l + (" || true" if l.startswith("meson test") else "") for l in student) + "\n"
    run = subprocess.run(["bash", "-c", script], cwd=book, env=env,
                         capture_output=True, text=True)
    out = run.stdout + run.stderr
    (work / "log.txt").write_text(script + "\n----\n" + out)
    if run.returncode != 0 and re.search(r"(Could not find a version|Network is unreachable|"
                                         r"Temporary failure in name resolution|"
                                         r"No matching distribution|ConnectionError)", out):
        print(f"SKIP: PyPI cannot be reached from here, so the venv path was not tried "
              f"(log: {work / 'log.txt'})")
        return 77
    problems = []
    if run.returncode != 0:
        problems.append("the README's commands failed:\n" + out[-2000:])
    if str(work / "home" / "workbook-meson" / "bin" / "meson") not in out:
        problems.append("the student's meson was not the venv's")
    if f"\n{oldest}\n" not in out:
        problems.append(f"the venv's meson is not {oldest}")
    if "FAILED" not in out or "Hint:" not in out or "Fail:" not in out:
        problems.append("the untouched chapter did not build and fail, saying why")
    for p in problems:
        print("PROBLEM: " + p)
    print(f"install path (venv, meson {oldest} from PyPI, README's student commands): "
          + ("ok" if not problems else f"{len(problems)} problems") + f"; log {work / 'log.txt'}")
    if not args.keep and not problems:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
