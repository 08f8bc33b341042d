#!/usr/bin/env python3
"""What `-Dgpu_targets` means, for meson.build: prints the architectures to build machine code
for (compute capability without the dot, newest last); on a second line, why those; on a third,
which of the architectures a chapter asks for besides (its also_build_for: sm_90 for the TMA,
sm_90a for wgmma) to build too: `any` where the targets were named, else the local GPUs'
architectures (`none` without a GPU: no code for a GPU that is not there).

    gpu_targets.py SUPPORTED_ARCHS_COMMA_SEPARATED VALUE [VALUE ...]
    gpu_targets.py assemble OUTPUT chNN -- NVCC_COMMAND ...
    gpu_targets.py show OUTPUT

VALUE: `auto` (the default) builds for the GPUs of this machine only (nvidia-smi), or for one
architecture where there is none (the host checks need no more); `host-only` builds for one
architecture and none of the chapters' extra ones, whatever GPU is here: a build for the host
checks alone (class grading without a GPU, a Gradescope autograder); `portable` builds sm_75 to
sm_90, for a hand-out or an instructor's build that runs anywhere; anything else is a list of
architectures such as 80 90, checked against what this nvcc builds.

`assemble` runs NVCC_COMMAND (a chapter's exercise and device probes, compiled for the
architectures the chapter also needs, with or without a GPU here) with ptxas's report, and writes
to OUTPUT what ptxas made of the kernels of namespace chNN (registers, bytes spilled), and the
fatbin beside it (OUTPUT less its extension, .fatbin); a unit that does not compile fails with
the compiler's message. `show` prints OUTPUT for the student:
a build without an H100 or H200 still says whether the kernels assemble for one and fit.
"""
import os
import re
import shutil
import subprocess
import sys

PORTABLE = ["75", "80", "86", "89", "90"]


def fail(message: str) -> None:
    print(f"gpu_targets: {message}", file=sys.stderr)
    sys.exit(1)


def local_gpus() -> list:
    """The compute capabilities of this machine's GPUs (["90"]), or [] where there is none."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if out.returncode != 0:
        return []
    found = []
    for line in out.stdout.split():
        digits = line.strip().replace(".", "")
        if digits.isdigit() and digits not in found:
            found.append(digits)
    return found


def one_architecture(supported: list) -> list:
    """The one architecture a build without a GPU to run on makes: sm_75, the oldest the
    workbook supports, or this nvcc's oldest."""
    return ["75"] if "75" in supported else [supported[0]]


def assemble(output: str, namespace: str, command: list) -> int:
    # The fatbin itself goes beside OUTPUT (NAME.fatbin for NAME.tsv): its cubins, built with
    # -lineinfo, are where a maintainers' test finds the source lines of the references' kernels.
    done = subprocess.run(command + ["-Xptxas", "-v", "--fatbin", "-o",
                                     os.path.splitext(output)[0] + ".fatbin"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        return done.returncode
    kernels, current = [], None
    for line in done.stderr.splitlines():
        entry = re.search(r"Compiling entry function '(\w+)' for '(sm_\w+)'", line)
        if entry:
            current = None
            if re.match(r"_ZN\d*" + namespace + r"\d", entry.group(1)) and \
                    "probes" not in entry.group(1):
                current = {"name": entry.group(1), "arch": entry.group(2)}
                kernels.append(current)
        elif current and "spill stores" in line:
            current["spilled"] = int(re.search(r"(\d+) bytes spill stores", line).group(1))
        elif current and "Used" in line and "registers" in line:
            current["registers"] = int(re.search(r"Used (\d+) registers", line).group(1))
    names = [k["name"] for k in kernels]
    if shutil.which("c++filt"):  # -p: without the parameters
        names = subprocess.run(["c++filt", "-p"], input="\n".join(names), capture_output=True,
                               text=True).stdout.splitlines() or names
    with open(output, "w") as f:
        for k, name in zip(kernels, names):
            f.write(f"{k['arch']}\t{k.get('registers', '?')}\t{k.get('spilled', '?')}\t{name}\n")
    return 0


def show(output: str) -> int:
    with open(output) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    print("Your kernels as ptxas compiled them for the GPUs this chapter needs (no GPU needed):"
          if rows else f"{output}: ptxas reported no kernel of the chapter's namespace")
    for arch, registers, spilled, name in rows:
        print(f"  {arch}: {registers} registers a thread, {spilled} bytes spilled: {name}" +
              ("" if spilled == "0" else "  <- spills to local memory: slow"))
    return 0 if rows else 1


def main() -> None:
    if len(sys.argv) >= 5 and sys.argv[1] == "assemble" and sys.argv[4] == "--":
        sys.exit(assemble(sys.argv[2], sys.argv[3], sys.argv[5:]))
    if len(sys.argv) == 3 and sys.argv[1] == "show":
        sys.exit(show(sys.argv[2]))
    if len(sys.argv) < 3:
        fail(__doc__)
    supported = [a for a in sys.argv[1].split(",") if a.isdigit()]
    values = sys.argv[2:]
    if not supported:
        fail("this nvcc lists no architecture (nvcc --list-gpu-arch)")
    extras = "any"
    if values == ["portable"]:
        targets = [a for a in PORTABLE if a in supported] or [supported[-1]]
        why = "portable: every architecture from sm_75 to sm_90 this nvcc builds"
    elif values == ["host-only"]:
        extras = "none"
        targets = one_architecture(supported)
        why = "host-only: one architecture, for the host checks; the GPU checks of a chapter " \
              "that needs a newer GPU will not run on this build"
    elif values == ["auto"]:
        gpus = local_gpus()
        extras = " ".join(gpus) or "none"
        targets = []
        for gpu in gpus:
            # A GPU newer than this nvcc knows runs the newest PTX it can write.
            known = [a for a in supported if int(a) <= int(gpu)]
            arch = gpu if gpu in supported else (known[-1] if known else supported[0])
            if arch not in targets:
                targets.append(arch)
        if targets:
            why = "auto: this machine's GPU" + ("s" if len(gpus) > 1 else "") + " (" + \
                  ", ".join("sm_" + g for g in gpus) + "); -Dgpu_targets=portable builds for any"
        else:
            targets = one_architecture(supported)
            why = "auto: no GPU found, one architecture (the host checks need no more); " \
                  "-Dgpu_targets=portable builds for any"
    else:
        for value in values:
            if value in ("auto", "host-only", "portable"):
                fail(f'"{value}" stands alone: -Dgpu_targets={value}')
            if value not in supported:
                digits = re.sub(r"^(sm_|compute_)|\.", "", value)  # sm_90, compute_90, 9.0
                hint = f' (did you mean {digits}?)' if digits in supported else ""
                fail(f'"{value}" is not an architecture this nvcc builds{hint}; it supports '
                     f'{" ".join(supported)} (or say auto, host-only or portable)')
        targets = values
        why = "as given"
    targets.sort(key=int)
    print(" ".join(targets))
    print(why)
    print(extras)


if __name__ == "__main__":
    main()
