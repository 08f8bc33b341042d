"""The sandbox of a Gradescope autograder where the namespace sandbox (sandbox.py) cannot be made
(Docker's default seccomp profile and capabilities refuse new namespaces and mounts): a throwaway
container that grades one submission, as root. What it does, and does not do, is
docs/instructors/grading.md's "The sandbox on Gradescope"; nothing else uses it.

Each command runs as a user of its own (a uid from FIRST_UID to LAST_UID, claimed for the run)
through `setpriv`, `prlimit` and `choom`. What the namespace sandbox shows at its fixed paths
(pristine.SRC, BUILD and TOOL) is laid out as real folders under one folder: the user's while the
submission builds, then root's and read-only before any grader runs, so that no grader can
rewrite another's binary. After each command every process of the user is killed (the tool, a
child subreaper, reaps them) and its files in the temporary folders removed, so commands run one
at a time. trial() proves that the user can reach none of the private paths before grading.
"""
import ctypes
import fcntl
import os
import pwd
import shutil
import subprocess
import threading
import time

from . import sandbox

FIRST_UID, LAST_UID = 64000, 64999
PROCESSES = 512
TEMPORARY_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")
PROGRAMS = ("python3",) + sandbox.PROGRAMS
PR_SET_CHILD_SUBREAPER = 36


class FallbackError(Exception):
    """The fallback sandbox cannot be made here: one line saying why."""


def processes_of(uid):
    """The pids of the live (not zombie) processes any of whose user ids is `uid`."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        if fields.get("State", "").strip().startswith("Z"):
            continue
        if str(uid) in fields.get("Uid", "").split():
            found.append(int(name))
    return found


def searchable_by_all(folder):
    """Whether a user other than root can reach `folder` (every folder on the way to it lets
    others search it)."""
    path = os.path.abspath(folder)
    while True:
        try:
            if not os.stat(path).st_mode & 0o001:
                return False
        except OSError:
            return False
        if path == "/":
            return True
        path = os.path.dirname(path)


def uid_lock(uid):
    """The lock file an autograder holds while it grades as `uid` (claim_uid)."""
    locks = "/run/lock" if os.access("/run/lock", os.W_OK) else "/tmp"
    return os.path.join(locks, f"workbook-grading-uid-{uid}.lock")


def uid_claimed(uid):
    """Whether an autograder running now holds `uid` (claim_uid's lock)."""
    try:
        fd = os.open(uid_lock(uid), os.O_RDWR | os.O_NOFOLLOW)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except OSError:
        return True
    finally:
        os.close(fd)


def claim_uid():
    """(uid, lock file): a uid no account and no process has, held (an exclusive lock) until
    the lock file is closed, so that two autograders on one machine (CI) never share one."""
    for uid in range(FIRST_UID, LAST_UID + 1):
        try:
            pwd.getpwuid(uid)
            continue
        except KeyError:
            pass
        try:
            fd = os.open(uid_lock(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        if processes_of(uid):
            os.close(fd)
            continue
        return uid, fd
    raise FallbackError(f"every uid from {FIRST_UID} to {LAST_UID} has an account or a process")


def become_subreaper():
    """Makes this process the parent of its orphaned descendants, so that it reaps them."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass  # orphans then go to the container's first process, which may leave zombies


def reap_orphans(keep):
    """Reaps the zombie children of this process other than `keep` (the pid a Popen still
    waits for)."""
    me = str(os.getpid())
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == keep:
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] == "Z" and fields[1] == me:
            try:
                os.waitpid(int(name), os.WNOHANG)
            except ChildProcessError:
                pass


def remove(path):
    if os.path.islink(path) or os.path.isfile(path):
        os.remove(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


class FallbackSandbox:
    """Runs commands as sandbox.Sandbox does (the same run()), in the fallback described above.
    `places` is the folder holding the sandbox's fixed paths (pristine.show_pristine_at);
    `private` the paths the user must neither read nor write (trial() checks them)."""

    # pristine.chown_tree gives the namespace sandbox's user (nobody) the folders it writes; this
    # sandbox sets the owner of everything it lays out itself.
    as_root = False

    def __init__(self, places, private=()):
        if os.geteuid() != 0:
            raise FallbackError("it runs each command as a user of its own, which needs root")
        for program in ("setpriv", "prlimit", "choom"):
            if shutil.which(program) is None:
                raise FallbackError(f"{program} (util-linux) is not installed")
        self.places = os.path.abspath(places)
        self.private = [os.path.abspath(p) for p in private]
        self.uid, self._lock = claim_uid()
        self.temporary = os.path.join(self.places, "tmp")
        self.subject_place = os.path.join(self.places, "subject")  # subject_wrapper's copy
        self.laid = {}  # target: (lower, upper, writable) as it is laid out now
        # One command at a time, whoever calls (the runner runs host checks side by side): each
        # command's end kills every process of the user, and its folders are laid out for it.
        self.one_at_a_time = threading.Lock()
        self.environment = {}  # set by the caller: in every command's environment
        become_subreaper()
        candidates = [os.path.dirname(p) for p in map(shutil.which, PROGRAMS) if p]
        candidates += os.environ.get("PATH", "").split(":") + ["/usr/local/bin", "/usr/bin",
                                                               "/bin"]
        self.path = ":".join(dict.fromkeys(
            p for p in candidates if p and "shims" not in p and searchable_by_all(p)))
        os.makedirs(self.places, exist_ok=True)
        os.chmod(self.places, 0o755)

    def place(self, target):
        if not sandbox._under(target, [self.places]) or target == self.places:
            raise FallbackError(f"{target} is not under {self.places}, where this sandbox lays "
                                f"out what a command sees")
        return target

    def _lay(self, lower, upper, target, writable):
        """Lays out `lower` with `upper`'s files over it at `target`, unless it is so already
        (a command's changes kept, as an overlay's upper layer keeps them)."""
        where = self.place(target)
        state = self.laid.get(where)
        if state is None or state[:2] != (lower, upper):
            self.laid.pop(where, None)
            remove(where)
            os.makedirs(os.path.dirname(where), exist_ok=True)
            subprocess.run(["cp", "-a", "--", lower, where], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if upper:
                for folder, _, files in os.walk(upper):
                    relative = os.path.relpath(folder, upper)
                    for name in files:
                        copy = os.path.normpath(os.path.join(where, relative, name))
                        os.makedirs(os.path.dirname(copy), exist_ok=True)
                        if os.path.lexists(copy):
                            os.remove(copy)
                        shutil.copy2(os.path.join(folder, name), copy)
            state = (lower, upper, None)
        if state[2] != writable:
            sandbox.own(where, self.uid, writable)
        self.laid[where] = (lower, upper, writable)

    def _fresh_temporary(self):
        remove(self.temporary)
        os.makedirs(self.temporary, mode=0o700)
        os.chown(self.temporary, self.uid, self.uid)

    def end_every_process(self, keep=None):
        """Kills every process of the user (kill(-1) as the user: the kernel lets no process
        fork while it runs) until none is left; returns those that could not be ended."""
        for _ in range(20):
            if not processes_of(self.uid):
                break
            subprocess.run(["sh", "-c", "kill -s KILL -- -1"], user=self.uid, group=self.uid,
                           extra_groups=[], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=30)
            time.sleep(0.05)
            reap_orphans(keep)
        reap_orphans(keep)
        return processes_of(self.uid)

    def remove_user_files(self):
        """The user's files in the system's temporary folders (a full disk, or a file another
        command would find)."""
        for folder in TEMPORARY_FOLDERS:
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                try:
                    if entry.stat(follow_symlinks=False).st_uid == self.uid:
                        remove(entry.path)
                except OSError:
                    pass

    def run(self, command, cwd, log_path, timeout, **options):
        """As sandbox.Sandbox.run, one command at a time: a caller's threads wait their turn,
        and the wait counts against `timeout`. An overlay is laid out as a copy at its target; a
        read-only bind, and each of `files`, as a copy (root's, read-only) for the command only;
        a writable bind is moved to its target and back. "/tmp" (the working folder, or an
        environment variable's value) is the user's own temporary folder."""
        asked = time.monotonic()
        with self.one_at_a_time:
            left = timeout - (time.monotonic() - asked)
            if left <= 0:
                return sandbox.Outcome(timed_out=True)
            return self._run(command, cwd, log_path, left, **options)

    def as_user(self, memory_bytes, file_bytes):
        """The words that run a command as the user, with no groups, capabilities or new
        privileges, within the limits (no bound on its address space without `memory_bytes`),
        the first to go when memory runs out."""
        return ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--", "prlimit",
                f"--nproc={PROCESSES}", f"--fsize={file_bytes}", "--nofile=1024", "--core=0"] + (
            [f"--as={memory_bytes}"] if memory_bytes else []) + ["--", "choom", "-n", "1000", "--"]

    def _run(self, command, cwd, log_path, timeout, overlays=(), binds=(), env=None,
             report=False, gpu=False, memory_bytes=None, file_bytes=sandbox.GIB,
             niceness=0, files=None):
        # niceness: no other command runs beside this one, so there is nothing to yield to.
        start = time.monotonic()
        if gpu:
            return sandbox.Outcome(setup_error="the fallback sandbox runs host checks only")
        moved, copies = [], []
        try:
            for lower, upper, _, target, writable in overlays:
                self._lay(lower, upper, target, writable)
            for source, target, writable in binds:
                where = self.place(target)
                if writable:
                    self.laid.pop(where, None)
                    remove(where)
                    shutil.move(source, where)
                    moved.append((where, source))
                    sandbox.own(where, self.uid, True)
                else:
                    self._lay(source, None, target, False)
                    copies.append(where)
            for target, text in (files or {}).items():
                where = self.place(target)
                os.makedirs(os.path.dirname(where), mode=0o755, exist_ok=True)
                remove(where)
                copies.append(where)
                with open(where, "w") as f:
                    f.write(text)
                os.chmod(where, 0o444)
            self._fresh_temporary()
        except (OSError, subprocess.CalledProcessError, FallbackError) as e:
            self._put_back(moved, copies)
            said = getattr(e, "stderr", b"") or b""
            return sandbox.Outcome(setup_error=f"laying out the command's folders failed: {e} "
                                               f"{said.decode(errors='replace').strip()}".strip())
        temporary = {"/tmp": self.temporary}
        environment = {"PATH": self.path, "HOME": self.temporary, "TMPDIR": self.temporary,
                       "LANG": "C.UTF-8", "NO_COLOR": "1", "CCACHE_DISABLE": "1"}  # as sandbox.py
        environment.update(self.environment)
        environment.update({k: temporary.get(v, v) for k, v in (env or {}).items()})
        report_r = report_w = None
        if report:
            report_r, report_w = os.pipe()
            os.fchown(report_w, self.uid, self.uid)  # the user opens it by name (/dev/fd/N)
            command = [a.replace("{report}", f"/dev/fd/{report_w}") for a in command]
        argv = self.as_user(memory_bytes, file_bytes) + list(command)
        log_r, log_w = os.pipe()
        try:
            with sandbox.running_lock:
                process = subprocess.Popen(argv, cwd=temporary.get(cwd, cwd), env=environment,
                                           stdin=subprocess.DEVNULL, stdout=log_w, stderr=log_w,
                                           start_new_session=True,
                                           pass_fds=(report_w,) if report else ())
                sandbox.running.add(process.pid)
        except OSError as e:
            for fd in (log_r, log_w, report_r, report_w):
                if fd is not None:
                    os.close(fd)
            self._put_back(moved, copies)
            return sandbox.Outcome(setup_error=f"cannot start {argv[0]}: {e}")
        for fd in (log_w, report_w):
            if fd is not None:
                os.close(fd)
        capture = sandbox.Capture(log_r, log_path, report_r)
        timed_out = False
        try:
            process.wait(timeout=max(1.0, timeout))
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            left = self.end_every_process(keep=process.pid)
            process.wait()
            with sandbox.running_lock:
                sandbox.running.discard(process.pid)
        capture.finish()
        self.remove_user_files()
        self._put_back(moved, copies)
        outcome = sandbox.Outcome(timed_out=timed_out, seconds=time.monotonic() - start,
                                  log_overflow=capture.log_overflow, report=capture.report())
        if left:
            outcome.setup_error = (f"{len(left)} process(es) of the grading user outlived "
                                   f"every kill")
        elif not timed_out:
            if process.returncode >= 0:
                outcome.exit = process.returncode
            else:
                outcome.signal = -process.returncode
        return outcome

    def subject_wrapper(self, folder, timeout, memory_bytes, file_bytes, gpu=False):
        """As sandbox.Sandbox.subject_wrapper, called inside judging(): a program that runs the
        subject it is given as the user, with the limits (with `gpu`, no bound on its address
        space: a CUDA context maps more than any), from the user's temporary folder. The user
        cannot reach `folder` (the judge's, beside its record): its files are copied to a
        place of this sandbox's, the root's and read-only, and the program runs the copy of the
        subject named. What the subject leaves running is ended by judging()'s end."""
        del timeout  # the judge's own limits end it
        self._lay(folder, None, self.subject_place, False)
        self._fresh_temporary()
        words = ["env", "-i", f"PATH={self.path}", f"HOME={self.temporary}",
                 f"TMPDIR={self.temporary}", "LANG=C.UTF-8"] + self.as_user(
            None if gpu else memory_bytes, file_bytes)
        path = os.path.join(os.path.dirname(folder), "wrapper")
        with open(path, "w") as f:
            fault = os.path.join(os.path.dirname(folder), sandbox.WRAPPER_FAULT)
            # A tool or the subject's copy that cannot be run would end the exec with status 126
            # or 127, which the judge would read as the student's exit: said here instead.
            subject = f'"{self.subject_place}/$(basename "$1")"'
            f.write(f"#!/bin/sh\ncd '{self.temporary}' || {{ echo 'its temporary folder is "
                    f"gone' >>'{fault}'; exit 125; }}\n"
                    f"for tool in env setpriv prlimit choom; do command -v \"$tool\" "
                    f">/dev/null || {{ echo \"$tool is not installed\" >>'{fault}'; exit 125; }}; "
                    f"done\n[ -x {subject} ] || {{ echo \"the subject's copy cannot be run\" "
                    f">>'{fault}'; exit 125; }}\nexec "
                    + " ".join(f"'{w}'" for w in words) + f" {subject}\n")
        os.chmod(path, 0o755)
        return path

    def judging(self):
        """Held while a judge runs its subjects: one command of the user at a time, and every
        process and file of the user, and the subject's copy, gone after."""
        box = self

        class Turn:
            def __enter__(self):
                box.one_at_a_time.acquire()

            def __exit__(self, *_):
                try:
                    box.end_every_process()
                    box.remove_user_files()
                    box.laid.pop(box.subject_place, None)
                    remove(box.subject_place)
                finally:
                    box.one_at_a_time.release()
        return Turn()

    def _put_back(self, moved, copies):
        for where in copies:
            self.laid.pop(where, None)
            remove(where)
        for where, source in moved:
            sandbox.own(where, self.uid, False)
            shutil.move(where, source)

    def trial(self):
        """Why this sandbox cannot grade here, or None: as the user, the toolchain must run, the
        private paths must be neither readable nor writable, and the tool must be out of reach of
        its signals."""
        script = ('for p in ' + " ".join(PROGRAMS) + '; do\n'
                  '  command -v "$p" >/dev/null || { echo "it cannot run $p"; exit 1; }\n'
                  'done\n'
                  'for p in "$@"; do\n'
                  '  if [ -r "$p" ] || [ -w "$p" ]; then echo "it can reach $p"; exit 1; fi\n'
                  'done\n'
                  'if kill -0 "$TOOL_PID" 2>/dev/null; then echo "it can signal the tool"; '
                  'exit 1; fi\n'
                  'touch "$TMPDIR/trial" || { echo "it cannot write its own folder"; exit 1; }\n')
        log = os.path.join(self.places, f".trial-{os.getpid()}.log")
        try:
            outcome = self.run(["sh", "-c", script, "trial"] + self.private, "/tmp", log, 60,
                               env={"TOOL_PID": str(os.getpid())})
            with open(log, errors="replace") as f:
                said = f.read().strip()[-500:]
        except OSError as e:
            return f"the trial could not run: {e}"
        finally:
            if os.path.exists(log):
                os.remove(log)
        if outcome.exit == 0:
            return None
        return f"the grading user (uid {self.uid}): " + (said or outcome.describe())

    def close(self):
        """Removes what it laid out and gives its uid back."""
        self.end_every_process()
        self.remove_user_files()
        for where in list(self.laid):
            remove(where)
        self.laid.clear()
        remove(self.temporary)
        os.close(self._lock)
