#!/usr/bin/env python3
"""Counts instructions in the machine code (SASS) of a built grader, for the lessons that quote
what the compiler made of a kernel.

    count_sass.py write BUILD_DIR [SOURCE_ROOT]   rewrite every chapter's counts from BUILD_DIR
    count_sass.py check SPEC BINARY               recount; compare with the committed file
    count_sass.py kernels JUDGE KERNELS_FILE chNN the kernels file holds the judge's kernels

A chapter asks for counts with a spec, solutions/NN_slug/compiled_code.ini:

    [measurements/compiled.tsv]        ; the file written, relative to the spec's folder
    binary = NAME                      ; the executable, relative to the build directory
    arch = 90                          ; the SASS counted: code for sm_90
    kernel = NAME                      ; the function counted (its unqualified name)
    what = TEXT                        ; one line for the file's header
    count.QUANTITY = REGEX             ; instructions whose opcode, modifiers included
                                       ; ("LDS.128"), matches REGEX in full

The counts are over the whole function, as `cuobjdump -sass` (CUDA toolkit; no GPU needed) prints
it. `write` (run by run_gpu_suite.sh on the solution build it made, for the GPU's own
architecture) skips a spec whose architecture the build holds no SASS for, saying so. `check`
(a solution-mode meson test) exits 77, the test's SKIP, when cuobjdump is missing or the binary
holds no SASS for the spec's architecture (CI builds sm_75 only), and 1 when a count differs from
the committed file.

`kernels` checks a chapter's kernels file (chNN_slug_kernels.fatbin: the exercise and the device
probes compiled for the device alone), which the judge loads and finds
each kernel in by the name of its own copy (common/cuda/kernel_module.hpp): a kernel whose name
differs there (internal linkage, another namespace) would fail only on a GPU, in the middle of a
student's run. It reads the names from the compiled code, the judge's kernels of the chapter's
namespace in its unit (the probes and the stand-ins of the student's functions), not those of
the chapter's other compiled sources (their anonymous namespaces: the judge launches those
itself), and exits 1 naming each one the file lacks.
"""
import configparser
import datetime
import glob
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")


def cuobjdump():
    """The cuobjdump to use: $CUOBJDUMP, then PATH, then beside nvcc; None if there is none."""
    named = os.environ.get("CUOBJDUMP")
    if named:
        return named
    found = shutil.which("cuobjdump")
    if found:
        return found
    nvcc = shutil.which("nvcc")
    if nvcc:
        beside = os.path.join(os.path.dirname(os.path.realpath(nvcc)), "cuobjdump")
        if os.path.isfile(beside):
            return beside
    return None


def read_specs(path):
    """The spec's sections: (output path, settings, {quantity: compiled regex})."""
    parser = configparser.ConfigParser(inline_comment_prefixes=(";",), interpolation=None)
    parser.optionxform = str
    if not parser.read(path, encoding="utf-8"):
        sys.exit(f"{path}: cannot read")
    specs = []
    for section in parser.sections():
        settings = dict(parser[section])
        for key in ("binary", "arch", "kernel", "what"):
            if key not in settings:
                sys.exit(f"{path}: [{section}] has no '{key}'")
        counts = {key[len("count."):]: re.compile(value) for key, value in settings.items()
                  if key.startswith("count.")}
        if not counts:
            sys.exit(f"{path}: [{section}] counts nothing (no count.QUANTITY = REGEX)")
        specs.append((os.path.join(os.path.dirname(path), section), settings, counts))
    return specs


def functions_by_arch(tool, binary):
    """{arch: {function name (mangled): [opcode, ...]}} of every SASS in the binary."""
    done = subprocess.run([tool, "-sass", binary], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{tool} -sass {binary} failed: {done.stderr.strip()}")
    text = done.stdout
    code, arch, function = {}, None, None
    for line in text.splitlines():
        found = re.search(r"code for sm_(\w+)", line)
        if found:
            arch, function = found.group(1), None
            continue
        found = re.search(r"Function : (\S+)", line)
        if found and arch is not None:
            function = found.group(1)
            code.setdefault(arch, {}).setdefault(function, [])
            continue
        found = INSTRUCTION.search(line)
        if found and function is not None:
            code[arch][function].append(found.group(1))
    return code


# A namespace chNN_NAME: an ablation's copy of the chapter's code (grader/tools/manifest.py
# make-ablation), which a solution-mode grader holds beside its own.
ABLATION = re.compile(r"(?<![0-9])[0-9]+ch[0-9]{2}_")


def is_kernel(mangled, name):
    """Whether a mangled function name is `name`, unqualified, in any namespace but an
    ablation's."""
    if ABLATION.search(mangled):
        return False
    return mangled == name or re.search(rf"(?<![0-9]){len(name)}{re.escape(name)}", mangled)


def count(tool, binary, settings, counts):
    """{quantity: count} for the spec's kernel, or a reason it cannot be counted."""
    try:
        code = functions_by_arch(tool, binary)
    except RuntimeError as failed:
        return None, str(failed)
    arch = settings["arch"]
    if arch not in code:
        held = ", ".join("sm_" + a for a in sorted(code)) or "none"
        return None, f"{binary} holds no SASS for sm_{arch} (it holds: {held})"
    matches = [f for f in code[arch] if is_kernel(f, settings["kernel"])]
    if len(matches) != 1:
        return None, (f"{binary}: {len(matches)} functions for sm_{arch} are named "
                      f"{settings['kernel']} ({', '.join(matches) or 'none'}); need one")
    opcodes = code[arch][matches[0]]
    return {q: sum(1 for op in opcodes if pattern.fullmatch(op)) for q, pattern in
            counts.items()}, matches[0]


def toolkit_version(program):
    """The last line of `program --version`, or "unknown"."""
    try:
        lines = subprocess.run([program, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return "unknown"
    lines = [line for line in lines.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "unknown"


def write_file(output, spec_path, settings, counts, values, tool):
    units = {q: "instructions" for q in counts}
    lines = [
        f"# Written by tools/maintainer/count_sass.py from {os.path.basename(spec_path)}; "
        f"do not edit by hand.",
        f"# {settings['what']}",
        f"# SASS for sm_{settings['arch']} in {settings['binary']}, function {settings['kernel']}",
        f"# compiled by nvcc: {toolkit_version(shutil.which('nvcc') or 'nvcc')}; "
        f"disassembled by cuobjdump: {toolkit_version(tool)}",
        f"# date: {datetime.date.today().isoformat()}",
        "# quantity\tvalue\tunit",
    ] + [f"{q}\t{values[q]}\t{units[q]}" for q in counts]
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def committed(output):
    values = {}
    for line in open(output, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            fields = line.rstrip("\n").split("\t")
            values[fields[0]] = float(fields[1])
    return values


def kernel_names(path, namespace):
    """The kernels of `namespace` (chNN) in the device code of the file at `path`."""
    with open(path, "rb") as f:
        data = f.read()
    pattern = rb"\.text\.(_ZN\d*4" + re.escape(namespace.encode()) + rb"[A-Za-z0-9_]+)"
    return {m.group(1).decode() for m in re.finditer(pattern, data)}


def check_kernels_file(judge, kernels, namespace):
    needed = {n for n in kernel_names(judge, namespace)
              if "_GLOBAL__N_" not in n or f"_{namespace}_judge_unit_cu_" in n}
    if not needed:
        sys.exit(f"{judge}: no kernel of namespace {namespace} in its device code (compressed?)")
    missing = sorted(needed - kernel_names(kernels, namespace))
    for name in missing:
        print(f"{kernels} lacks {name}, which {judge} may launch from it")
    if not missing:
        print(f"{kernels}: holds all {len(needed)} kernels of {namespace} that {judge} may launch")
    return 1 if missing else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "kernels" and re.fullmatch(r"ch\d\d", sys.argv[4]):
        return check_kernels_file(*sys.argv[2:])
    if len(sys.argv) < 3 or sys.argv[1] not in ("write", "check"):
        sys.exit(__doc__)
    tool = cuobjdump()
    if sys.argv[1] == "write":
        build = sys.argv[2]
        root = sys.argv[3] if len(sys.argv) > 3 else os.getcwd()
        if tool is None:
            sys.exit("count_sass.py: no cuobjdump (CUDA toolkit) on PATH or beside nvcc")
        for spec_path in sorted(glob.glob(os.path.join(root, "solutions", "*",
                                                       "compiled_code.ini"))):
            for output, settings, counts in read_specs(spec_path):
                binary = os.path.join(build, settings["binary"])
                if not os.path.isfile(binary):
                    print(f"{output}: not written, {binary} was not built")
                    continue
                values, detail = count(tool, binary, settings, counts)
                if values is None:
                    print(f"{output}: not written, {detail}")
                    continue
                write_file(output, spec_path, settings, counts, values, tool)
                print(f"{output}: " + ", ".join(f"{q} {v}" for q, v in values.items()))
        return 0
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    spec_path, binary = sys.argv[2], sys.argv[3]
    if tool is None:
        print("SKIP: no cuobjdump (CUDA toolkit) on PATH or beside nvcc")
        return SKIP
    status = 0
    for output, settings, counts in read_specs(spec_path):
        values, detail = count(tool, binary, settings, counts)
        if values is None:
            print(f"SKIP: {detail}: {output} is counted on the GPU machine's build "
                  f"(tools/maintainer/run_gpu_suite.sh)")
            status = status or SKIP
            continue
        want = committed(output)
        for q, v in values.items():
            same = want.get(q) == v
            print(f"{q}: {v} in {settings['kernel']} (sm_{settings['arch']}), committed "
                  f"{want.get(q, float('nan')):g}" + ("" if same else "  DIFFERS"))
            if not same:
                status = 1
        if status == 1:
            print(f"{output} is out of date: rerun tools/maintainer/run_gpu_suite.sh (or "
                  f"count_sass.py write BUILD_DIR) and commit it, with the lesson it changes")
    return status


if __name__ == "__main__":
    sys.exit(main())
