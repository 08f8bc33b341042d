#!/usr/bin/env python3
"""Proves the install paths for systems where what the workbook needs is missing.

The students' (the default): the README's install path for distributions whose Meson is too old
(Ubuntu 22.04, Colab): its venv command, run as written but with Meson pinned to the oldest
version the build accepts (meson.build's meson_version), then the README's student commands on a
fresh self-study hand-out with that Meson first on the PATH. The untouched chapter must build and
fail, saying why, under that Meson.

The instructors' (--gradescope-image WORK): the Gradescope image's steps on a clean system: what
tools/instructor/gradescope/Dockerfile does, done in a root of Debian 11's minimal base
(debootstrap, from the Debian mirror this machine's apt uses: the only distribution whose packages
this workplace reaches), so that setup.sh's installing is tested where nothing is installed.
Debian 11 stands in for the Ubuntu 22.04 of Gradescope's images: both lack what setup.sh installs
and ship a Meson older than 1.0.1 (0.56 and 0.61), so setup.sh takes the same path on both:

- the Dockerfile's `COPY --from=cuda DIR DIR` puts this machine's CUDA toolkit at DIR (NVIDIA's
  image would put its own there: the one thing not from the distribution), its `COPY . DIR` the
  unpacked package of the first two chapters (a roster and a course secret), and its one `RUN`
  runs as written, as root, in the root (bubblewrap: its own /proc, /dev and /tmp; the network);
  setup.sh must install Python, the compiler, Ninja, Catch2, pkg-config and Meson (from PyPI:
  the distribution's is older than 1.0.1), link /usr/local/cuda, and build the pristine workbook;
- then /autograder/run_autograder grades the reference solutions of a student on the roster,
  as Gradescope runs it: full host marks.

Any other instruction in the Dockerfile fails it. Each step has a time limit; one that runs past
it fails the check, naming the step and showing the end of what it said.

    tools/maintainer/check_install_path.py [--keep DIR]
    tools/maintainer/check_install_path.py --gradescope-image WORK

Exit 0 when it holds, 1 when not, 77 (a skip) when PyPI cannot be reached from here, or, for the
image, without root, debootstrap, bubblewrap, nvcc or a Debian mirror in this machine's apt sources.
"""
import argparse
import base64
import glob
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import time
import urllib.request

from scratch_handout import fresh_folder, unpacked_handout

ROOT = pathlib.Path(__file__).resolve().parents[2]
RELEASE = "bullseye"  # Debian 11: Meson 0.56, older than 1.0.1, as Ubuntu 22.04's (0.61)


def debian_mirrors():
    """The Debian archive and security mirrors this machine's apt uses (None where it has none)."""
    text = "".join(open(p, errors="replace").read() for p in glob.glob("/etc/apt/sources.list*")
                   + glob.glob("/etc/apt/sources.list.d/*.sources") if os.path.isfile(p))
    uris = [u.rstrip("/") for u in re.findall(r"^(?:URIs:|deb(?:\s+\[[^]]*\])?)\s+(\S+)", text,
                                               re.M)]
    return [next((u for u in uris if u.endswith(end)), None)
            for end in ("/debian", "/debian-security")]


def cuda_toolkit(nvcc):
    """The toolkit's folder as NVCC itself names it (None where it names none). The nvcc found on
    the PATH may be a wrapper script outside the toolkit (/usr/local/bin/nvcc on CI's machines):
    the folder above its folder would be /usr/local, and mounting that as the toolkit makes the
    wrapper call itself forever."""
    try:
        said = subprocess.run([nvcc, "--dryrun", "-c", "-x", "cu", os.devnull, "-o", os.devnull],
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    here = re.search(r"^#\$ _HERE_=(\S+)$", said.stdout + said.stderr, re.M)
    toolkit = here and os.path.dirname(os.path.realpath(here.group(1)))
    return toolkit if toolkit and os.path.isfile(os.path.join(toolkit, "bin", "nvcc")) else None


def fenced_block_after(text, marker):
    """The first fenced code block after the line holding `marker`."""
    at = text.index(marker)
    block = re.search(r"```\n(.*?)```", text[at:], re.S)
    return block.group(1).strip().splitlines()


def students_path(args):
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


def step(work, name, command, limit):
    """Runs one step of the image with its output in WORK/NAME.log, for at most LIMIT seconds:
    (the end of what it said, its exit code, or "timed out" after the limit, the step ended)."""
    log_path = os.path.join(work, f"{name}.log")
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            code = process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
            code = f"timed out after {limit} s"
    said = open(log_path, errors="replace").read()[-2500:]
    return (said if code == 0 else f"{name}: {code}; the end of {log_path}:\n{said}"), code


def gradescope_image(work):
    """The Gradescope image's steps on a clean Debian 11 (see the top of this file)."""
    root = str(ROOT)
    sys.path.insert(0, os.path.join(root, "tools", "instructor"))
    from grading import gradescope, scoring
    sys.path.insert(0, os.path.join(root, "grader", "tools"))
    import manifest

    def skip(why):
        print(f"SKIP: {why}")
        return 77

    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    if os.geteuid() != 0:
        return skip("the root is made and entered as root")
    for tool, package in (("debootstrap", "debootstrap"), ("bwrap", "bubblewrap")):
        if shutil.which(tool) is None:
            return skip(f"no {tool} (Debian: apt-get install {package})")
    toolkit = cuda_toolkit(nvcc) if os.path.exists(nvcc) else None
    if toolkit is None:
        return skip(f"no CUDA toolkit to put where NVIDIA's image would put its own ({nvcc} "
                    "does not name its folder)")
    archive, security = debian_mirrors()
    if archive is None:
        return skip("this machine's apt sources name no Debian mirror to bootstrap from")
    try:
        urllib.request.urlopen(f"{archive}/dists/{RELEASE}/Release", timeout=20).close()
    except OSError as e:
        return skip(f"Debian {RELEASE} cannot be had from this machine's mirror: {e}")

    steps = []
    for line in re.sub(r"\\\n", " ", open(os.path.join(root, "tools", "instructor", "gradescope",
                                                       "Dockerfile")).read()).splitlines():
        if line.strip() and not line.startswith(("#", "ARG ", "FROM ")):
            steps.append(line.split(None, 1))
    problems = [f"the Dockerfile's {s[0]} {s[1]!r} is not a step this test runs" for s in steps
                if not (s[0] == "RUN" or re.fullmatch(r"(--from=cuda \S+ \S+|\. \S+)", s[1]))]
    if problems or [s[0] for s in steps] != ["COPY", "COPY", "RUN"]:
        sys.exit("\n".join(problems) or f"the Dockerfile's steps are not COPY, COPY, RUN: {steps}")
    cuda_in_image, source, run = steps[0][1].split()[2], steps[1][1].split()[1], steps[2][1]

    if os.path.isdir(work) and os.listdir(work) and not os.path.isdir(os.path.join(work, "root")):
        sys.exit(f"{work} holds files but no earlier run's root: give an empty or a new folder")
    shutil.rmtree(work, ignore_errors=True)
    system = os.path.join(work, "root")
    os.makedirs(work)
    started = time.monotonic()
    said, code = step(work, "debootstrap", ["debootstrap", "--variant=minbase", RELEASE, system,
                                            archive], 300)
    if code != 0:
        sys.exit(f"debootstrap failed ({code}): {said}")
    # What a Debian container's sources hold (debootstrap writes the release's archive only).
    with open(os.path.join(system, "etc", "apt", "sources.list"), "w") as f:
        f.write(f"deb {archive} {RELEASE} main\ndeb {archive} {RELEASE}-updates main\n"
                + (f"deb {security} {RELEASE}-security main\n" if security else ""))
    shutil.copy("/etc/resolv.conf", os.path.join(system, "etc", "resolv.conf"))
    os.makedirs(system + cuda_in_image)

    # The package (COPY . SOURCE).
    chapters = manifest.chapters(root)[:2]
    with open(os.path.join(work, "secret"), "w") as f:
        f.write(base64.b64encode(os.urandom(32)).decode() + "\n")
    with open(os.path.join(work, "roster.csv"), "w") as f:
        f.write("student,name\nada,Ada L.\n")
    package = os.path.join(work, "autograder.zip")
    made = subprocess.run([sys.executable, os.path.join(root, "tools", "instructor", "grade"),
                           "--gradescope-autograder", package, "--chapters", ",".join(chapters),
                           "--roster", os.path.join(work, "roster.csv"), "--secret-file",
                           os.path.join(work, "secret")], capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"the package: {made.stderr[-1500:]}")
    gradescope.unpack(package, system + source)

    # The root entered as a container would be: this machine's trust store for the way out (its
    # proxy, where it has one), and only the variables a container starts with.
    ca = "/etc/ssl/certs/ca-certificates.crt"
    enter = ["env", "-i", "bwrap", "--bind", system, "/", "--proc", "/proc", "--dev", "/dev",
             "--perms", "1777", "--tmpfs", "/tmp",
             "--ro-bind", toolkit, cuda_in_image,
             "--setenv", "PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
             "--setenv", "HOME", "/root"]
    if os.path.exists(ca):
        inside = "/etc/workbook-ci-ca.crt"
        enter += ["--ro-bind", ca, inside, "--setenv", "PIP_CERT", inside,
                  "--setenv", "SSL_CERT_FILE", inside]
    said, code = step(work, "setup.sh", enter + ["bash", "-c", run], 420)
    print(said, flush=True)
    if code != 0:
        problems.append(f"the Dockerfile's RUN failed ({code})")
    for wanted in ("installing python3 g++ ninja-build catch2 pkg-config", "Meson from PyPI",
                   "linking /usr/local/cuda", "the pristine workbook is built"):
        if wanted not in said:
            problems.append(f"setup.sh did not say {wanted!r}")
    setup_seconds = time.monotonic() - started

    # run_autograder on ada's reference solutions, as Gradescope runs it.
    submission = os.path.join(system, "autograder", "submission", "workbook")
    for chapter in chapters:
        folder = os.path.join(submission, "chapters", chapter)
        os.makedirs(folder)
        name = f"{chapter[3:]}_exercise.cu"
        shutil.copy(os.path.join(root, "solutions", chapter, name), os.path.join(folder, name))
    os.makedirs(os.path.join(system, "autograder", "results"), exist_ok=True)
    with open(os.path.join(system, "autograder", "submission_metadata.json"), "w") as f:
        json.dump({"id": 1, "created_at": "2026-01-01T00:00:00+00:00", "assignment": {"id": 1},
                   "submission_method": "upload", "previous_submissions": [], "users": [
                       {"email": "ada@example.edu", "id": 1, "name": "Ada", "sid": "ada"}]}, f)
    graded, code = step(work, "run_autograder", enter + ["/autograder/run_autograder"], 300)
    try:
        with open(os.path.join(system, "autograder", "results", "results.json")) as f:
            results = json.load(f)
    except (OSError, ValueError) as e:
        results = {}
        problems.append(f"run_autograder ({code}) wrote no results.json ({e}): {graded}")
    host = sum(p.points for c in chapters for p in scoring.load_points(root, c) if p.mode == "host")
    if results and results.get("score") != host:
        problems.append(f"the reference scored {results.get('score')} of {host}: "
                        f"{results.get('output', '')[:800]}")
    for p in problems:
        print(f"PROBLEM: {p}")
    print(f"Gradescope image on a clean Debian 11: the Dockerfile's steps ran in "
          f"{setup_seconds:.0f} s (debootstrap, setup.sh's installs and the pristine build), the "
          f"reference scored {results.get('score')} of {host}; "
          + ("every step as it must" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep")
    parser.add_argument("--gradescope-image", metavar="WORK")
    args = parser.parse_args()
    if args.gradescope_image:
        return gradescope_image(os.path.abspath(args.gradescope_image))
    return students_path(args)


if __name__ == "__main__":
    sys.exit(main())
