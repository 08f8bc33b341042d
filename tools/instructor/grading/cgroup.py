"""A cgroup of each grading sandbox (sandbox.py), so that its processes and memory are its own: a
submission's fork bomb or memory hog meets its own limit, never a classmate's. Made as root,
under cgroup v2's root where it gives its children the controllers, or in cgroup v1's
hierarchies under the tool's own cgroup; elsewhere (not root, a read-only cgroup file system)
the sandbox keeps the kernel's per-user limit on processes, which all its sandboxes share.
"""
import os
import time

CGROUPS, CONTROLLERS = "/sys/fs/cgroup", ("pids", "memory")
# v2's and v1's files: the processes, the memory (and swap; memsw after limit_in_bytes).
LIMITS = ("pids.max", "memory.max", "memory.swap.max", "memory.limit_in_bytes",
          "memory.memsw.limit_in_bytes")


def parents():
    """{controller: the folder a sandbox's cgroup is made in} of CONTROLLERS, where it can be."""
    if os.geteuid() != 0:
        return {}
    found = {}
    try:
        if os.path.isfile(os.path.join(CGROUPS, "cgroup.controllers")):
            with open(os.path.join(CGROUPS, "cgroup.subtree_control")) as f:
                given = f.read().split()
            found = {c: CGROUPS for c in CONTROLLERS if c in given}
        else:
            with open("/proc/self/cgroup") as f:
                for line in f:
                    _, controllers, path = line.rstrip("\n").split(":", 2)
                    for c in set(CONTROLLERS) & set(controllers.split(",")):
                        found[c] = os.path.normpath(os.path.join(CGROUPS, c, path.lstrip("/")))
    except (OSError, ValueError):
        return {}
    return {c: folder for c, folder in found.items() if os.access(folder, os.W_OK)}


def remove_stale(parents):
    """Removes the empty cgroups a tool that was killed outright left (named after its pid)."""
    for folder in set(parents.values()):
        for name in os.listdir(folder):
            pid = name.split("-")[1] if name.startswith("workbook-") else ""
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                try:
                    os.rmdir(os.path.join(folder, name))
                except OSError:
                    pass


class Cgroup:
    """A sandbox's cgroup `name` under `parents` (parents()): every process of the command joins
    it (`prefix`, before the command); the kernel refuses a fork past `processes` and ends one of
    them when together they pass `memory` bytes."""

    def __init__(self, parents, name, processes, memory):
        self.folders = sorted({os.path.join(p, name) for p in parents.values()})
        values = dict(zip(LIMITS, (processes, memory, 0, memory, memory)))
        for folder in self.folders:
            os.mkdir(folder)
            for limit in (n for n in LIMITS if os.path.exists(os.path.join(folder, n))):
                with open(os.path.join(folder, limit), "w") as f:
                    f.write(str(values[limit]))
        self.prefix = ["sh", "-c", 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; '
                       'done; shift; exec "$@"', "sh"] + \
            [os.path.join(f, "cgroup.procs") for f in self.folders] + ["--"]

    def count(self, event):
        """How often "max" (a fork refused) or "oom_kill" (a process ended for memory) came."""
        names = ("pids.events",) if event == "max" else ("memory.events", "memory.oom_control")
        total = 0
        for path in (os.path.join(f, n) for f in self.folders for n in names):
            if os.path.exists(path):
                with open(path) as f:
                    total += int(dict(line.split() for line in f if line.strip()).get(event, 0))
        return total

    def remove(self):
        for folder in self.folders:
            for _ in range(100):  # its last processes may take a moment to be reaped
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.05)
