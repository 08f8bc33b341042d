#!/usr/bin/env python3
"""Host test of tools/maintainer/count_sass.py, with a stand-in for cuobjdump (no toolkit or GPU
needed): `write` writes the spec's counts, `check` passes on them, fails when a committed count
differs, and skips (77) when the binary holds no SASS for the spec's architecture or when no
cuobjdump is found.

    test_count_sass.py SOURCE_ROOT
"""
import os
import stat
import subprocess
import sys
import tempfile

root = sys.argv[1]
tool = os.path.join(root, "tools", "maintainer", "count_sass.py")

# What `cuobjdump -sass` prints, cut down: two architectures, two functions, and an ablation's
# copy of the kernel (namespace ch01_NAME), which is not counted.
SASS = """
\tcode for sm_75
\t\tFunction : _ZN2ns6kernelEPf
        /*0000*/                   LDS R4, [R2] ;
        /*0010*/                   FFMA R5, R4, R4, R5 ;
\tcode for sm_90
\t\tFunction : _ZN2ns12other_kernelEv
        /*0000*/                   LDS.128 R4, [R2] ;
\t\tFunction : _ZN14ch01_ablation2ns6kernelEPf
        /*0000*/                   LDS R4, [R2] ;
        /*0010*/                   FFMA R5, R4, R4, R5 ;
\t\tFunction : _ZN2ns6kernelEPf
        /*0000*/                   LDS R4, [R2] ;
        /*0010*/               @P0 LDS R6, [R2+0x4] ;
        /*0020*/                   LDS.128 R8, [R3] ;
        /*0030*/                   FFMA R5, R4, R4, R5 ;
        /*0040*/                   FFMA R5, R6, R6, R5 ;
        /*0050*/                   FFMA R5, R8, R9, R5 ;
"""

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check, finish  # noqa: E402


def run(args, env):
    done = subprocess.run([sys.executable, tool] + args, capture_output=True, text=True, env=env)
    return done.returncode, done.stdout + done.stderr


with tempfile.TemporaryDirectory() as scratch:
    fake = os.path.join(scratch, "cuobjdump")
    with open(fake, "w", encoding="utf-8") as f:
        f.write(f"#!{sys.executable}\nimport sys\nsys.stdout.write({SASS!r})\n")
    os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
    build = os.path.join(scratch, "build")
    chapter = os.path.join(scratch, "solutions", "01_example")
    os.makedirs(build)
    os.makedirs(chapter)
    open(os.path.join(build, "grader"), "w").close()
    spec = os.path.join(chapter, "compiled_code.ini")

    def write_spec(arch):
        with open(spec, "w", encoding="utf-8") as f:
            f.write(f"[measurements/compiled.tsv]\nbinary = grader\narch = {arch}\n"
                    f"kernel = kernel\nwhat = a test kernel\ncount.lds = LDS\n"
                    f"count.lds128 = LDS\\.128\ncount.ffma = FFMA\n")

    env = dict(os.environ, CUOBJDUMP=fake)
    write_spec(90)
    status, text = run(["write", build, scratch], env)
    output = os.path.join(chapter, "measurements", "compiled.tsv")
    written = open(output, encoding="utf-8").read() if os.path.isfile(output) else ""
    for line in ("lds\t2\tinstructions", "lds128\t1\tinstructions", "ffma\t3\tinstructions"):
        check(line in written, f"write: {line!r} not in what it wrote ({status}: {text})")
    binary = os.path.join(build, "grader")
    status, text = run(["check", spec, binary], env)
    check(status == 0, f"check on the file just written: exit {status}, want 0: {text}")
    with open(output, "w", encoding="utf-8") as f:
        f.write(written.replace("ffma\t3", "ffma\t4"))
    status, text = run(["check", spec, binary], env)
    check(status == 1 and "DIFFERS" in text,
          f"check with a wrong committed count: exit {status}, want 1: {text}")
    write_spec(80)
    status, text = run(["check", spec, binary], env)
    check(status == 77 and "no SASS for sm_80" in text,
          f"check without SASS for the spec's architecture: exit {status}, want 77: {text}")
    no_toolkit = dict(os.environ, CUOBJDUMP="", PATH=scratch + "/none")
    status, text = run(["check", spec, binary], no_toolkit)
    check(status == 77, f"check without cuobjdump: exit {status}, want 77: {text}")

finish("count_sass.py: write, check, a differing count and both skips behave")
