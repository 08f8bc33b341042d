"""The sandbox every command of a submission runs in: its build and its graders. What it shows,
hides and bounds is docs/instructors/grading.md's "The sandbox".

`unshare` (as root; otherwise in a user namespace too) starts sandbox_init.py as PID 1 from
descriptors (its code and its spec), so that its command line names no path of the machine; it
lays out the file system and runs the command through `setpriv` and `prlimit` (cgroup.py bounds
processes and memory where it can). When the command ends, or the tool stops it, the kernel ends
every process of its PID namespace. A report pipe is read while the command runs, so nothing can
rewrite the report afterwards. Debian 12's bubblewrap (0.8) cannot stand in for sandbox_init.py:
it mounts no overlay (the pristine workbook under each submission's changes) and sets no limit.
"""
import contextlib
import glob
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

if __package__:
    from . import cgroup
else:  # run as a subject's wrapper, a script (python3 -I: its folder is not on the path)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import cgroup

HERE = os.path.dirname(os.path.abspath(__file__))
INIT = os.path.join(HERE, "sandbox_init.py")
NOBODY = 65534
PROCESSES = 512  # of a sandbox, of its user where no cgroup bounds them
SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"]
# Of /etc, what the toolchain and the graders read: the dynamic loader's cache and the links of
# /usr/bin/c++ and the like; the accounts (getpwuid), written for the sandbox.
ETC = ["/etc/ld.so.cache", "/etc/alternatives"]
ETC_FILES = {"/etc/passwd": "root:x:0:0:root:/tmp:/bin/sh\n"
                            "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
             "/etc/group": "root:x:0:\nnogroup:x:65534:\n",
             "/etc/nsswitch.conf": "passwd: files\ngroup: files\n"}
# /sys: the CPUs' list for every command (how many threads to run), all of it for the GPU's
# driver, which walks the PCI devices.
SYS_HOST, SYS_GPU = ["/sys/devices/system/cpu"], ["/sys"]
LOG_BYTES = 4 << 20  # of a command's output, kept for the instructor
MIB = 1 << 20
GIB = 1 << 30
REPORT_BYTES = 16 * MIB  # of a command's report, kept (and one byte more, to tell)
TMP_BYTES = 512 * MIB  # of a sandbox's /tmp
PROGRAMS = ("meson", "ninja", "nvcc", "c++", "nm")  # what commands run, shown where they are
# The descriptors of a judge's channel to its subject (grader/harness/subject_protocol.hpp).
CHANNEL = (3, 4)
WRAPPER_FAULT = "wrapper-fault"  # what a subject's wrapper leaves where it failed
SUBJECT = "/grading/subject"  # where a subject's folder is seen (subject_wrapper)

# The process groups running now, so that an interrupted tool stops them (stop_everything).
running = set()
running_lock = threading.RLock()  # a signal handler may interrupt its holder


def stop_everything():
    with running_lock:
        for pid in list(running):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass


class Outcome:
    """How a sandboxed command ended: `exit` (its status) or `signal`, `timed_out`, `seconds`,
    `report` (the bytes it wrote to its report pipe, at most REPORT_BYTES and one more, or
    None), `log_overflow`, `out_of_memory` and `out_of_processes` (the sandbox's
    limit, where the kernel ended a process for memory or refused a fork) and `setup_error` when
    the sandbox itself could not be made."""

    def __init__(self, **fields):
        self.exit = self.signal = self.report = self.setup_error = None
        self.out_of_memory = self.out_of_processes = None
        self.timed_out = self.log_overflow = False
        self.seconds = 0.0
        self.__dict__.update(fields)

    def describe(self):
        if self.setup_error:
            return f"the sandbox could not be made: {self.setup_error}"
        if self.timed_out:
            return "stopped at the time limit"
        said = f"killed by signal {self.signal}" if self.signal is not None else \
            f"exit status {self.exit}"
        return said + (f" (its processes passed the memory limit of a sandbox, "
                       f"{self.out_of_memory / GIB:.1f} GiB)" if self.out_of_memory else "")


def memory_file(name, content):
    """A descriptor of a file in memory holding `content` (a path to copy, or a dict as JSON),
    for the sandbox's first process to read."""
    fd = os.memfd_create(name)
    if isinstance(content, dict):
        data = json.dumps(content).encode()
    else:
        with open(content, "rb") as f:
            data = f.read()
    with open(fd, "wb", closefd=False) as f:
        f.write(data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _prefix_of(path):
    """The installation folder of a program (the folder above its bin/)."""
    folder = os.path.dirname(path)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


def _under(path, folders):
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


class Sandbox:
    """Runs commands sandboxed. `hide` are paths that must never be seen (the workbook's
    checkout, the grades, the submissions). The installation folders of PROGRAMS are made
    visible (read-only) where the system folders do not hold them."""

    def __init__(self, scratch, hide=()):
        self.scratch = os.path.abspath(scratch)
        os.makedirs(self.scratch, exist_ok=True)
        self.environment = {}  # set by the caller: in every command's environment
        self.as_root = os.geteuid() == 0
        # Each sandbox's own limits, in a cgroup of its own where the machine allows it (else
        # the kernel's per-user and per-process ones): of memory, a quarter of the machine's
        # and at most 16 GiB, so that one submission leaves its classmates the rest.
        self.cgroups = cgroup.parents()
        cgroup.remove_stale(self.cgroups)
        with open("/proc/meminfo") as f:
            self.memory_limit = min(16 * GIB, int(f.readline().split()[1]) * 1024 // 4)
        self.extra = []
        found = [p for p in map(shutil.which, PROGRAMS) if p]
        for path in [sys.executable] + found:
            for prefix in (_prefix_of(path), _prefix_of(os.path.realpath(path))):
                if not _under(prefix, SYSTEM + self.extra) and prefix != "/":
                    self.extra.append(prefix)
        # The dynamic loader's own path (a GPU machine's driver libraries are often found
        # only through it): visible, read-only, and passed on.
        self.library_path = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":")
                             if d and os.path.isdir(d)]
        for folder in self.library_path:
            if not _under(os.path.realpath(folder), SYSTEM + self.extra):
                self.extra.append(os.path.realpath(folder))
        self.hide = [os.path.abspath(h) for h in hide]
        home = os.path.expanduser("~")
        if home and home != "/":
            self.hide.append(home)
        # PATH: the tools' own folders first (never a version manager's shims, which need the
        # home folder), then the tool's PATH as far as the sandbox shows it.
        path = [os.path.dirname(os.path.realpath(sys.executable))] + [os.path.dirname(p)
                                                                       for p in found]
        path += os.environ.get("PATH", "").split(":") + ["/usr/local/bin", "/usr/bin", "/bin"]
        visible = [p for p in path if p and "shims" not in p and _under(p, SYSTEM + self.extra)]
        self.path = ":".join(dict.fromkeys(visible))

    def gpu_devices(self):
        return sorted(glob.glob("/dev/nvidia*")) + sorted(glob.glob("/dev/dri"))

    def run(self, command, cwd, log_path, timeout, overlays=(), binds=(), env=None,
            report=False, gpu=False, memory_bytes=None, file_bytes=GIB, niceness=0, files=None,
            channel=False):
        """Runs `command` (a list) in the sandbox with `cwd` as its working folder, its output
        appended to `log_path` (up to LOG_BYTES). `overlays` are (lower, upper, work, target,
        writable): a read-only folder seen at `target` with the command's changes in `upper`;
        `binds` are (source, target, writable); `files` {target: text} are written, read-only,
        into the sandbox's own root. With `report`, "{report}" in the command names a
        pipe (/dev/fd/N) the tool reads while the command runs; the Outcome holds what was
        written to it. `niceness` (nice(1)) lowers the command's CPU priority: a build that can
        wait, beside one whose checks are next. With `channel` (a subject, run for a judge:
        subject_wrapper) the command keeps this process's standard output and error and its
        descriptors 3 and 4, the judge's channel, and `log_path` is unused."""
        start = time.monotonic()
        private = tempfile.mkdtemp(prefix="sandbox-", dir=self.scratch)
        root = os.path.join(private, "root")
        os.makedirs(root)
        limits = None
        if self.cgroups:
            try:
                limits = cgroup.Cgroup(self.cgroups, f"workbook-{os.getpid()}-{private[-8:]}",
                                       PROCESSES, self.memory_limit)
            except OSError as e:
                shutil.rmtree(private, ignore_errors=True)
                return Outcome(setup_error=f"its cgroup could not be made: {e}")
        # CCACHE_DISABLE: where ccache is installed meson compiles through it; in here it would
        # only fill the sandbox's temporary folder with a cache no later command sees.
        environment = {"PATH": self.path, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8",
                       "NO_COLOR": "1", "CCACHE_DISABLE": "1"}
        if self.library_path:
            environment["LD_LIBRARY_PATH"] = ":".join(self.library_path)
        for name in ("CUDA_VISIBLE_DEVICES", "CUDA_MPS_PIPE_DIRECTORY", "CUDA_MPS_LOG_DIRECTORY"):
            if gpu and name in os.environ:
                environment[name] = os.environ[name]
        environment.update(self.environment)
        environment.update(env or {})
        binds = [(path, path, False) for path in ETC + (SYS_GPU if gpu else SYS_HOST)
                 if os.path.exists(path)] + list(binds)
        devices = []
        if gpu:
            devices = [d for d in self.gpu_devices() if not os.path.isdir(d)]
            binds += [(d, d, True) for d in self.gpu_devices() if os.path.isdir(d)]
            mps = os.environ.get("CUDA_MPS_PIPE_DIRECTORY", "/tmp/nvidia-mps")
            if os.path.isdir(mps):
                binds.append((mps, mps, True))
        hidden = [h for h in self.hide if _under(h, SYSTEM + self.extra)]
        report_r = report_w = None
        if report:
            report_r, report_w = os.pipe()
            if self.as_root:  # the command, as nobody, opens it by name (/dev/fd/N)
                os.fchown(report_w, NOBODY, NOBODY)
            command = [a.replace("{report}", f"/dev/fd/{report_w}") for a in command]
        status_r, status_w = os.pipe()
        stage = os.path.join(private, "stage")
        os.makedirs(stage)
        spec = {"root": root, "stage": stage, "system": SYSTEM + self.extra,
                "overlays": list(overlays), "files": dict(ETC_FILES, **(files or {})),
                "binds": binds, "masks": hidden, "devices": devices, "cwd": cwd,
                "env": environment, "command": list(command), "tmp_bytes": TMP_BYTES,
                # a process's memory and the user's processes, where no cgroup bounds them
                "processes": None if "pids" in self.cgroups else
                PROCESSES if self.as_root else 8192, "file_bytes": file_bytes,
                "memory_bytes": None if "memory" in self.cgroups else memory_bytes,
                "user": NOBODY if self.as_root else None,
                "user_namespace": not self.as_root, "report_fd": report_w,
                "channel": list(CHANNEL) if channel else []}
        # sandbox_init.py's code and its spec, as descriptors: its command line (PID 1's, which
        # every process of the sandbox may read) names no path of the machine.
        code_fd, spec_fd = memory_file("sandbox-init", INIT), memory_file("sandbox-spec", spec)
        # setpriv --pdeathsig: the sandbox ends with the tool, even a tool killed outright.
        outer = (limits.prefix if limits else []) + (
            ["nice", "-n", str(niceness)] if niceness else []) + [
            "setpriv", "--pdeathsig", "KILL", "unshare", "--mount", "--pid", "--net", "--ipc",
            "--uts", "--fork", "--kill-child"]
        if not self.as_root:
            outer += ["--user", "--map-root-user"]
        outer += ["--", sys.executable, "-I", f"/dev/fd/{code_fd}", str(spec_fd), str(status_w)]
        log_r, log_w = (None, None) if channel else os.pipe()
        passed = (status_w, code_fd, spec_fd) + ((report_w,) if report else ())
        with running_lock:
            process = subprocess.Popen(outer, stdin=subprocess.DEVNULL, stdout=log_w,
                                       stderr=log_w, start_new_session=True,
                                       pass_fds=passed + (CHANNEL if channel else ()),
                                       env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")})
            running.add(process.pid)
        for fd in passed + ((log_w,) if log_w else ()):
            os.close(fd)
        capture = Capture(log_r, log_path, report_r) if log_r else None
        timed_out = False
        deadline = time.monotonic() + max(1.0, timeout)
        try:
            while True:
                try:
                    process.wait(timeout=min(0.5, max(0.0, deadline - time.monotonic())))
                    break
                except subprocess.TimeoutExpired:
                    if time.monotonic() >= deadline:
                        timed_out = True
                        break
                    if channel and limits and limits.count("max"):
                        # A subject's judge stops it when a call does not return, and this
                        # wrapper with it: say now what the judge will show with the call.
                        sys.stderr.write(f"Your code reached its sandbox's limit of {PROCESSES} "
                                         f"processes.\n")
                        sys.stderr.flush()
                        channel = False
        finally:
            try:
                os.killpg(process.pid, signal.SIGKILL)  # the namespace's processes go with it
            except OSError:
                pass
            process.wait()
            with running_lock:
                running.discard(process.pid)
        if capture:
            capture.finish()
        with os.fdopen(status_r, "rb") as f:
            raw = f.read(4096)
        shutil.rmtree(private, ignore_errors=True)
        outcome = Outcome(timed_out=timed_out, seconds=time.monotonic() - start,
                          log_overflow=capture and capture.log_overflow,
                          report=capture and capture.report())
        try:
            status = json.loads(raw.decode()) if raw else {}
        except ValueError:
            status = {}
        if "setup_error" in status:
            outcome.setup_error = status["setup_error"]
        elif "exit" in status:
            outcome.exit = status["exit"]
        elif "signal" in status:
            outcome.signal = status["signal"]
        elif not timed_out:
            outcome.setup_error = f"the sandbox ended without a status ({process.returncode})"
        if limits:
            outcome.out_of_memory = self.memory_limit if limits.count("oom_kill") else None
            outcome.out_of_processes = PROCESSES if limits.count("max") else None
            limits.remove()
        return outcome


    def subject_wrapper(self, folder, timeout, memory_bytes, file_bytes, gpu=False):
        """A program (written beside `folder`, which holds the subject's executable and nothing
        else) that runs the subject it is given in this sandbox, for a judge run outside it
        (WORKBOOK_SUBJECT_WRAPPER): only `folder` shown (at SUBJECT, read-only), no network,
        the limits, and the judge's channel kept; with `gpu` (the GPU checks) the GPU too, which
        some of the student's host functions need (a TMA map is encoded in a CUDA context). It
        ends as the subject did (its status, or the same signal), so that the judge says how."""
        spec = os.path.join(os.path.dirname(folder), "wrapper.json")
        with open(spec, "w") as f:
            json.dump({"scratch": self.scratch, "hide": self.hide, "environment":
                       self.environment, "folder": folder, "timeout": timeout, "gpu": gpu,
                       "memory_bytes": None if gpu else memory_bytes, "file_bytes": file_bytes},
                      f)
        return write_wrapper(folder, [sys.executable, "-I", os.path.abspath(__file__), spec])


    def judging(self):
        """Held while a judge runs its subjects: nothing to do here, each subject's sandbox
        ends with it (sandbox_init.py)."""
        return contextlib.nullcontext()


def own(path, uid, writable=True):
    """Makes the tree at `path` user `uid`'s (`writable`) or the root's with nothing in it
    writable by anyone else."""
    owner = uid if writable else 0
    for folder, dirs, files in os.walk(path):
        for name in [folder] + [os.path.join(folder, n) for n in dirs + files]:
            os.lchown(name, owner, owner)
            if not writable and not os.path.islink(name):
                os.chmod(name, os.lstat(name).st_mode & 0o7755 & ~0o6000)


def write_wrapper(folder, words):
    """A shell script beside `folder` that runs `words` followed by its own arguments."""
    path = os.path.join(os.path.dirname(folder), "wrapper")
    with open(path, "w") as f:
        f.write("#!/bin/sh\nexec " + " ".join(f"'{w}'" for w in words) + ' "$@"\n')
    os.chmod(path, 0o755)
    return path


def run_subject(spec_path, subject):
    """The wrapper's work (subject_wrapper): runs `subject` in the sandbox `spec_path` says,
    then ends as it did."""
    with open(spec_path) as f:
        spec = json.load(f)
    box = Sandbox(spec["scratch"], hide=spec["hide"])
    box.environment = spec["environment"]
    inside = os.path.join(SUBJECT, os.path.relpath(subject, spec["folder"]))
    outcome = box.run([inside], "/tmp", None, spec["timeout"],
                      binds=[(spec["folder"], SUBJECT, False)],
                      memory_bytes=spec["memory_bytes"], file_bytes=spec["file_bytes"],
                      gpu=spec["gpu"], channel=True)
    if outcome.setup_error:
        return wrapper_fault(spec_path, f"the sandbox could not be made: {outcome.setup_error}")
    if outcome.out_of_memory:  # the judge's output, where the check that failed is told
        sys.stderr.write(f"Your code passed the memory limit of "
                         f"{outcome.out_of_memory / GIB:.1f} GiB its sandbox has.\n")
    if outcome.out_of_processes:
        sys.stderr.write(f"Your code reached its sandbox's limit of {outcome.out_of_processes} "
                         f"processes.\n")
    if outcome.signal is not None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if outcome.signal not in (signal.SIGKILL, signal.SIGSTOP):
            signal.signal(outcome.signal, signal.SIG_DFL)
        os.kill(os.getpid(), outcome.signal)
    return 124 if outcome.timed_out else outcome.exit


class Capture:
    """Reads a sandboxed command's output (`log_r`, appended to `log_path` up to LOG_BYTES) and,
    where it has one, its report pipe (`report_r`, kept up to REPORT_BYTES and one byte more,
    so that the reader can tell), each in a thread of its own while the command runs."""

    def __init__(self, log_r, log_path, report_r=None):
        self.log_overflow = False
        self.report_data = bytearray() if report_r is not None else None
        self.readers = [threading.Thread(target=self._read_log, args=(log_r, log_path),
                                         daemon=True)]
        if report_r is not None:
            self.readers.append(threading.Thread(target=self._read_report,
                                                 args=(report_r,), daemon=True))
        for r in self.readers:
            r.start()

    def _read_log(self, log_r, log_path):
        kept = 0
        with open(log_path, "ab") as log, os.fdopen(log_r, "rb", buffering=0) as pipe:
            while True:
                chunk = pipe.read(65536)
                if not chunk:
                    break
                if kept < LOG_BYTES:
                    log.write(chunk[:LOG_BYTES - kept])
                    kept += len(chunk)
                elif not self.log_overflow:
                    self.log_overflow = True
                    log.write(b"\n[output cut: more than %d MiB]\n" % (LOG_BYTES >> 20))

    def _read_report(self, report_r):
        with os.fdopen(report_r, "rb", buffering=0) as pipe:
            while True:
                chunk = pipe.read(65536)
                if not chunk:
                    break
                self.report_data.extend(chunk[:REPORT_BYTES + 1 - len(self.report_data)])

    def finish(self):
        """Waits (a bounded time) for both pipes to end: every writer has ended or been killed."""
        for r in self.readers:
            r.join(timeout=30)

    def report(self):
        return bytes(self.report_data) if self.report_data is not None else None


def unavailable(scratch):
    """Why commands cannot be sandboxed here, or None when they can (a trial run)."""
    for program in ("unshare", "setpriv", "prlimit", "mount"):
        if shutil.which(program) is None:
            return f"{program} (util-linux) is not installed"
    if not sys.platform.startswith("linux"):
        return "the sandbox needs Linux namespaces"
    box = Sandbox(scratch)
    work = tempfile.mkdtemp(prefix="trial-", dir=box.scratch)
    try:
        os.makedirs(os.path.join(work, "lower"))
        os.makedirs(os.path.join(work, "upper"))
        os.makedirs(os.path.join(work, "work"))
        if box.as_root:
            for d in ("upper", "work"):
                os.chown(os.path.join(work, d), NOBODY, NOBODY)
        log = os.path.join(work, "log")
        outcome = box.run(["sh", "-c", "echo trial > /grading/trial && test ! -e /proc/2"],
                          "/tmp", log, 60,
                          overlays=[(os.path.join(work, "lower"), os.path.join(work, "upper"),
                                     os.path.join(work, "work"), "/grading", True)])
        if outcome.exit == 0 and os.path.isfile(os.path.join(work, "upper", "trial")):
            return None
        with open(log, errors="replace") as f:
            output = f.read().strip()[-500:]
        return (outcome.describe() + (": " + output if output else "")
                + ("" if box.as_root else
                   " (as a user other than root the sandbox needs unprivileged user namespaces: "
                   "on Ubuntu 24.04, `sysctl kernel.apparmor_restrict_unprivileged_userns=0`, "
                   "or run the tool as root)"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def wrapper_fault(spec_path, what):
    """Notes, beside the wrapper's spec (the judge's folder, out of the sandbox's sight), that
    the wrapper failed: the machine's fault, which the tool reads after the judge
    (WRAPPER_FAULT), not the student's code ending; returns the status the wrapper ends with."""
    with open(os.path.join(os.path.dirname(spec_path), WRAPPER_FAULT), "a") as f:
        f.write(what.strip()[-2000:] + "\n")
    return 125


if __name__ == "__main__":
    try:
        sys.exit(run_subject(sys.argv[1], sys.argv[2]))
    except Exception:  # noqa: BLE001 (any failure of the wrapper is the machine's)
        import traceback
        sys.exit(wrapper_fault(sys.argv[1], traceback.format_exc()))
