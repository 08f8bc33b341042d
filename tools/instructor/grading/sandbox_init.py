"""The first process of a grading sandbox (tools/instructor/grading/sandbox.py starts it as PID 1
of new mount, PID, network, IPC and UTS namespaces, through util-linux's `unshare`).

    sandbox_init.py SPEC_FD STATUS_FD

It builds the sandbox's file system from the spec (JSON, read from SPEC_FD: a fresh tmpfs root, the
system's programs and libraries read-only, the paths that hold the workbook's source, the grades and
the submissions masked, the scratch folders the command may write, the files written for it, the
GPU's device files where asked), then runs the command in it through util-linux: `unshare --root`
(the new root), `setpriv` (another user, no capabilities, no new privileges) and `prlimit` (file
size, open files; processes and memory where the spec asks, no cgroup bounding them). It waits for
the command and writes how it ended to STATUS_FD, which only this process holds. When this process
ends, the kernel ends every process left in the PID namespace.
"""
import json
import os
import subprocess
import sys


def mount(*args, cwd=None):
    done = subprocess.run(["mount", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"mount {' '.join(args)}: {done.stderr.strip()}")


def inside(root, path):
    return os.path.join(root, path.lstrip("/"))


def mounts_under(path):
    """The mount points at or under `path` (from /proc/self/mountinfo), outermost first."""
    found = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            point = line.split()[4].encode().decode("unicode_escape")
            if point == path or point.startswith(path.rstrip("/") + "/"):
                found.append(point)
    return sorted(set(found), key=len)


def bind(root, source, target, writable=False):
    """Binds `source` at `target` (a path inside the sandbox) with whatever is mounted below it
    (a GPU machine's driver libraries are often files mounted one by one), read-only unless
    `writable`."""
    where = inside(root, target)
    if os.path.isdir(source):
        os.makedirs(where, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(where), exist_ok=True)
        if not os.path.exists(where):
            open(where, "a").close()
    mount("--rbind", source, where)
    flags = "remount,bind,nosuid" + ("" if source.startswith("/dev/") else ",nodev")
    for point in mounts_under(where) if os.path.isdir(source) else [where]:
        try:
            mount("-o", flags + ("" if writable else ",ro"), point)
        except RuntimeError:
            if point == where:
                raise


def build_root(spec):
    root = spec["root"]
    mount("--make-rprivate", "/")
    mount("-t", "tmpfs", "-o", "size=16m,mode=0755,nosuid,nodev", "sandbox-root", root)
    for path in spec["system"]:
        if os.path.islink(path):
            os.symlink(os.readlink(path), inside(root, path))
        elif os.path.isdir(path):
            bind(root, path, path)
    # Each overlay's layers by neutral names (links in the stage folder, mounted from there):
    # /proc/self/mountinfo shows the names the mount was given, not the machine's paths.
    stage = spec["stage"]
    for number, (lower, upper, work, target, writable) in enumerate(spec.get("overlays", [])):
        where = inside(root, target)
        os.makedirs(where, exist_ok=True)
        names = {}
        for kind, path in (("lower", lower), ("upper", upper), ("work", work)):
            names[kind] = f"{kind}{number}"
            os.symlink(path, os.path.join(stage, names[kind]))
        if writable:
            options = (f"lowerdir={names['lower']},upperdir={names['upper']},"
                       f"workdir={names['work']}")
        else:  # the changes as one more layer, nothing writable
            options = f"lowerdir={names['upper']}:{names['lower']},ro"
        if spec.get("user_namespace"):
            options += ",userxattr"
        mount("-t", "overlay", "-o", options + ",nosuid,nodev", "sandbox-overlay", where,
              cwd=stage)
        for name in names.values():
            os.remove(os.path.join(stage, name))
    for source, target, writable in spec.get("binds", []):
        bind(root, source, target, writable)
    for target, text in spec.get("files", {}).items():
        where = inside(root, target)
        os.makedirs(os.path.dirname(where), mode=0o755, exist_ok=True)
        with open(where, "w") as f:
            f.write(text)
        os.chmod(where, 0o444)
    # What must not be seen, where a system folder holds it (a checkout under /opt, say).
    for path in spec.get("masks", []):
        where = inside(root, path)
        if os.path.isdir(where) and not os.path.islink(where):
            mount("-t", "tmpfs", "-o", "size=4k,mode=0000,ro", "sandbox-mask", where)
    dev = inside(root, "/dev")
    os.makedirs(dev, exist_ok=True)
    mount("-t", "tmpfs", "-o", "size=64k,mode=0755,nosuid", "sandbox-dev", dev)
    for name in ("null", "zero", "full", "random", "urandom"):
        bind(root, f"/dev/{name}", f"/dev/{name}", writable=True)
    for name in spec.get("devices", []):
        bind(root, name, name, writable=True)
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"),
                         ("stdout", "/proc/self/fd/1"), ("stderr", "/proc/self/fd/2")):
        os.symlink(target, os.path.join(dev, name))
    os.makedirs(os.path.join(dev, "shm"))
    mount("-t", "tmpfs", "-o", "size=64m,mode=1777,nosuid,nodev", "sandbox-shm",
          os.path.join(dev, "shm"))
    os.makedirs(inside(root, "/proc"), exist_ok=True)
    mount("-t", "proc", "-o", "nosuid,nodev,noexec", "proc", inside(root, "/proc"))
    os.makedirs(inside(root, "/tmp"), exist_ok=True)
    mount("-t", "tmpfs", "-o", f"size={spec['tmp_bytes']},mode=1777,nosuid,nodev", "sandbox-tmp",
          inside(root, "/tmp"))
    try:  # the new root's own folders read-only too (its mounts above keep their own flags)
        mount("-o", "remount,ro,nosuid,nodev", root)
    except RuntimeError:
        if not spec.get("user_namespace"):
            raise  # in a user namespace the kernel may refuse it: the root is a private tmpfs


def main():
    with open(int(sys.argv[1])) as f:
        spec = json.load(f)
    status_fd = int(sys.argv[2])
    os.set_inheritable(status_fd, False)
    try:
        build_root(spec)
    except (RuntimeError, OSError) as e:
        os.write(status_fd, json.dumps({"setup_error": str(e)}).encode())
        return 1
    user = spec.get("user")
    drop = ["setpriv", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all"]
    if user is not None:
        drop += [f"--reuid={user}", f"--regid={user}", "--clear-groups"]
    limits = ["prlimit", f"--fsize={spec['file_bytes']}", "--nofile=1024", "--core=0"] + \
        ([f"--nproc={spec['processes']}"] if spec["processes"] else [])  # else a cgroup's
    if spec.get("memory_bytes"):
        limits.append(f"--as={spec['memory_bytes']}")
    command = ["unshare", f"--root={spec['root']}", f"--wd={spec['cwd']}", "--"] + drop + \
        ["--"] + limits + ["--"] + spec["command"]
    report = spec.get("report_fd")
    try:
        child = subprocess.Popen(command, env=spec["env"], stdin=subprocess.DEVNULL,
                                 pass_fds=((report,) if report else ()) +
                                 tuple(spec.get("channel", ())))
    except (OSError, ValueError) as e:
        os.write(status_fd, json.dumps({"setup_error": f"cannot start {command[0]}: {e}"})
                 .encode())
        return 1
    if report:
        os.close(report)  # the command's copy is the only one left: its end is the report's
    status = child.wait()
    os.write(status_fd, json.dumps({"exit": status} if status >= 0 else
                                   {"signal": -status}).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
