#!/usr/bin/env python3
"""Tests of grader/tools/gpu_targets.py, what -Dgpu_targets means: each value on a machine without
a GPU and on one with a stand-in nvidia-smi that reports an H200 (9.0), and bad values refused
with a message that names them.

    test_gpu_targets.py GPU_TARGETS_PY
"""
import os
import stat
import subprocess
import sys
import tempfile

script = sys.argv[1]
SUPPORTED = "75,80,86,87,89,90,100,120"
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from scratch_handout import check, finish  # noqa: E402


def run(values, gpu=None):
    """(exit status, [targets, why, extras] or the error) of gpu_targets.py, with `gpu` the
    compute capability a stand-in nvidia-smi reports (None: no nvidia-smi on PATH)."""
    with tempfile.TemporaryDirectory() as bin_dir:
        if gpu:
            smi = os.path.join(bin_dir, "nvidia-smi")
            with open(smi, "w") as f:
                f.write(f"#!/bin/sh\necho {gpu}\n")
            os.chmod(smi, stat.S_IRWXU)
        env = dict(os.environ, PATH=bin_dir)  # no real nvidia-smi: this machine's GPU is not asked
        done = subprocess.run([sys.executable, script, SUPPORTED] + values, capture_output=True,
                              text=True, env=env, timeout=60)
    return done.returncode, (done.stdout.strip().split("\n") if done.returncode == 0
                             else done.stderr.strip())


# auto: the local GPU and its extras, or one architecture and no extras without a GPU.
code, out = run(["auto"])
check(code == 0 and out[0] == "75" and out[2] == "none", f"auto without a GPU: {out}")
code, out = run(["auto"], gpu="9.0")
check(code == 0 and out[0] == "90" and out[2] == "90", f"auto on an H200: {out}")
# host-only: one architecture and no chapter's extras, even where a GPU is found.
for gpu in (None, "9.0"):
    code, out = run(["host-only"], gpu=gpu)
    check(code == 0 and out[0] == "75" and out[2] == "none" and "host checks" in out[1],
          f"host-only (GPU {gpu}): {out}")
# portable and named architectures build every chapter's extras wherever nvcc can.
code, out = run(["portable"])
check(code == 0 and out[0] == "75 80 86 89 90" and out[2] == "any", f"portable: {out}")
code, out = run(["90", "80"])
check(code == 0 and out[0] == "80 90" and out[2] == "any", f"80,90 named: {out}")
# Bad values: named in the message, with what would do.
code, out = run(["61"])
check(code != 0 and '"61"' in out and "host-only" in out, f"an architecture nvcc lacks: {out}")
code, out = run(["sm_90"])
check(code != 0 and "did you mean 90?" in out, f"an architecture written as sm_90: {out}")
for value in ("auto", "host-only", "portable"):
    code, out = run([value, "90"])
    check(code != 0 and f'"{value}" stands alone' in out, f"{value} with 90: {out}")

finish("gpu_targets.py: every value means what the option says")
