#!/usr/bin/env python3
"""The GPU checks wait for the lock WORKBOOK_GPU_LOCK names (class grading starts the next
chapters' graders while one checks: tools/instructor/grading/checks.py).

    test_gpu_lock.py STOP_FIXTURE

While this test holds the lock, the fixture's GPU check must not run; once it lets go, the check
runs and the grader says how long it waited. A lock file that cannot be opened is refused with
its name. Without a usable GPU the GPU checks skip before any lock (status 77, as meson's skip).
"""
import fcntl
import os
import subprocess
import sys
import tempfile
import time

fixture = sys.argv[1]
STARTED = "GPU checks start: the GPU is this grader's after"
RAN = "the GPU check ran"
problems = []


def expect(condition, what, shown=""):
    if not condition:
        problems.append(what)
        print("PROBLEM: " + what + ("\n" + shown if shown else ""))


def environment(lock):
    env = dict(os.environ, WORKBOOK_GPU_LOCK=lock, WORKBOOK_FEEDBACK="full")
    env.pop("WORKBOOK_GPU_TIMEOUT", None)
    return env


with tempfile.TemporaryDirectory() as scratch:
    lock = os.path.join(scratch, "gpu.lock")
    open(lock, "w").close()
    free = subprocess.run([fixture, "gpu"], capture_output=True, text=True, timeout=120,
                          env=environment(lock))
    if free.returncode == 77:
        print("SKIP: no usable GPU here, so the GPU checks (and their lock) do not run:\n"
              + free.stdout[-300:])
        sys.exit(77)
    expect(free.returncode == 0 and STARTED in free.stdout and RAN in free.stdout,
           f"with the lock free the GPU check must run (status {free.returncode})",
           free.stdout[-1500:] + free.stderr[-500:])

    output = os.path.join(scratch, "waiting.txt")
    with open(lock) as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with open(output, "w") as out:
            waiting = subprocess.Popen([fixture, "gpu"], stdout=out, stderr=subprocess.STDOUT,
                                       env=environment(lock))
        time.sleep(3)
        with open(output) as f:
            said = f.read()
        expect(waiting.poll() is None and RAN not in said,
               "the GPU check ran while another process held the lock", said[-1500:])
    try:
        status = waiting.wait(timeout=120)
    except subprocess.TimeoutExpired:
        waiting.kill()
        status = None
    with open(output) as f:
        said = f.read()
    expect(status == 0 and RAN in said, f"once the lock was free the GPU check must run and "
           f"pass (status {status})", said[-1500:])
    waited = [line for line in said.splitlines() if line.startswith(STARTED)]
    expect(waited and float(waited[0][len(STARTED):].split()[0]) >= 2.5,
           "the grader must say it waited about 3 s for the lock", "\n".join(waited))

    missing = os.path.join(scratch, "no-such-folder", "gpu.lock")
    refused = subprocess.run([fixture, "gpu"], capture_output=True, text=True, timeout=120,
                             env=environment(missing))
    expect(refused.returncode == 2 and "WORKBOOK_GPU_LOCK" in refused.stderr
           and missing in refused.stderr and RAN not in refused.stdout,
           f"a lock that cannot be opened must be refused by name (status {refused.returncode})",
           refused.stdout[-800:] + refused.stderr[-800:])

print(f"{len(problems)} problems" if problems else "OK: the GPU checks wait for the lock")
sys.exit(1 if problems else 0)
