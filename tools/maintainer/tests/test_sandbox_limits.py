#!/usr/bin/env python3
"""Each grading sandbox's processes and memory are its own (tools/instructor/grading/cgroup.py):
a fork bomb, a memory hog and an honest command that starts 200 processes, each in a sandbox of
its own, all at once. The honest command ends well; the bomb meets its process limit and the
hog its memory limit, each Outcome saying so. Exit 77 (meson's SKIP) where the tool cannot make
a sandbox's cgroup (not root, a read-only cgroup file system).

    test_sandbox_limits.py SOURCE_ROOT
"""
import os
import sys
import tempfile
import threading

sys.path.insert(0, os.path.join(sys.argv[1], "tools", "instructor"))
from grading import cgroup, sandbox  # noqa: E402

if not cgroup.parents() or sandbox.unavailable(tempfile.gettempdir()):
    print(f"SKIP: the sandbox's cgroups cannot be made here ({cgroup.parents()})")
    sys.exit(77)
with tempfile.TemporaryDirectory() as scratch:
    box = sandbox.Sandbox(scratch)
    box.memory_limit = 256 << 20  # the hog meets it in a moment
    commands = {"bomb": ("b() { b & b & }; b; sleep 30", 10),
                "hog": ("python3 -c 'x = []\nwhile True: x.append(b\"x\" * (16 << 20))'", 60),
                "honest": ("sleep 2; for i in $(seq 200); do /bin/true & done; wait; echo ends",
                           60)}
    ended = {}
    threads = [threading.Thread(target=lambda n=n, c=c, t=t: ended.update({n: box.run(
        ["sh", "-c", c], "/tmp", os.path.join(scratch, n), t)})) for n, (c, t) in commands.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with open(os.path.join(scratch, "honest")) as f:
        said = f.read()
honest, bomb, hog = ended["honest"], ended["bomb"], ended["hog"]
problems = [what for ok, what in (
    (honest.exit == 0 and said.endswith("ends\n") and not honest.out_of_processes,
     f"the honest command beside a fork bomb and a memory hog: {honest.describe()}: {said[-300:]}"),
    (bomb.out_of_processes == sandbox.PROCESSES and not bomb.out_of_memory,
     f"the fork bomb meets its own process limit: {bomb.describe()}"),
    (hog.out_of_memory == 256 << 20 and "memory limit" in hog.describe() and not hog.timed_out,
     f"the memory hog meets its own memory limit: {hog.describe()}")) if not ok]
if problems:
    sys.exit("\n".join(problems))
print(f"sandbox limits: beside a fork bomb ({bomb.describe()}) and a memory hog "
      f"({hog.describe()}), an honest command ends well")
