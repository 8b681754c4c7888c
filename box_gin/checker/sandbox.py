"""Start, talk to and kill the sandboxed child that runs a submission's code.

The trust model, from the checker's side (``docs/checker.md`` has the whole of it):

- Student code runs only in a child, inside a sandbox chosen once per run
  (:func:`open_sandbox`), strongest first:

  ``bubblewrap``
      ``bwrap`` with every namespace unshared (user, mount, pid, network, IPC, UTS,
      cgroup) and no further user namespaces: the child sees only ``/usr``, the
      interpreter, a read-only copy of the few modules a learner may use (copied in
      from memory, so no host path of the stage shows in its mount table), a fresh
      ``/proc`` of its own processes, a read-only root and a read-only minimal ``/dev``,
      and an empty ``/tmp`` capped in bytes and in files, its only writable place.
      When the checker is root the sandbox also runs as a uid of its own (one per
      concurrent child), so no file of the grader's is its own either.
  ``uid`` (root, no bubblewrap)
      a uid of its own per concurrent child, no supplementary groups, a private
      temporary folder as its only writable place; it still sees what any user may read.
  ``none`` (not root, no bubblewrap)
      only a fresh interpreter, a session and resource limits: install bubblewrap.

- In every mode the child's limits are set on itself before it reads its orders: CPU
  time, address space, file size, open files, no core dumps, and (where the count is the
  sandbox's own) no new process or thread, so the address-space limit bounds the whole
  sandbox.  Where the machine gives a writable memory and pids cgroup (root, cgroup v1;
  or a delegated v2 tree), each child runs in one of its own, which bounds what it holds
  in the kernel too (socket and pipe buffers, files in ``/tmp``).
- uids are claimed machine-wide (locks in ``/run/lock/box-gin-uids/``, whatever
  ``TMPDIR``), and a uid is only taken when no process runs as it: two graders side by
  side never share one, and each kills only what it started.
- The child gets inputs and returns outputs as plain data on pipes; expected answers
  are computed here.  It answers on a dedicated pipe, each line led by a random nonce;
  its stdout and stderr go nowhere.  Every byte it sends is bounded and decoded here
  defensively; the pipes are non-blocking and served in one loop with one deadline.
- When a child is done, everything it started is killed: its pid namespace goes with it
  (bubblewrap), and every process of its uid is killed (root).
"""

from __future__ import annotations

import ctypes
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _
from .caps import MIB, Limits, SandboxError
from .cgroups import Cgroups, CpuClock
from .staging import closed_folder, make_stage, remove_tree, unstage
from .uids import UID_RANGE, lock, lock_folder, own_folder, processes_of, uid_base

KINDS = ("bubblewrap", "uid", "none")


def harden_grader() -> None:
    """Make this process impossible to trace or read through /proc by anyone but root."""
    with suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0


def _pythons() -> list[str]:
    """Interpreters the child may run on: ours, else the system's (same language)."""
    out = [os.path.realpath(sys.executable)]
    minor = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    out += [p for p in (minor, "/usr/bin/python3") if os.path.exists(p)]
    return list(dict.fromkeys(os.path.realpath(p) for p in out))


def _site_folders(prefix: str) -> list[str]:
    """Every folder of installed Python packages the sandbox could otherwise see."""
    import glob

    found = []
    for base in dict.fromkeys((prefix, "/usr", "/usr/local")):
        for pattern in ("lib/python3*/site-packages", "lib/python3*/dist-packages",
                        "lib/python3/dist-packages", "lib/python3/site-packages"):
            found += glob.glob(os.path.join(base, pattern))
    return sorted(p for p in set(found) if os.path.isdir(p) and not os.path.islink(p))


def _prefix_of(python: str) -> str:
    """The folder an interpreter's standard library lives under."""
    return str(Path(python).resolve().parent.parent)


def _setpriv() -> str | None:
    """The system's ``setpriv`` (util-linux), when root owns it and no one else may write
    it: the child takes its uid through it, after the exec.  Python drops to a uid only
    from a full copy of this process (fork), while a child without a uid change is
    started with vfork: for a grader or tournament of a few hundred MiB, about 5 ms of
    this process's time a child, with the interpreter lock held, saved."""
    for path in ("/usr/bin/setpriv", "/bin/setpriv"):
        with suppress(OSError):
            st = os.stat(path)
            if st.st_uid == 0 and not st.st_mode & 0o022 and os.access(path, os.X_OK):
                return path
    return None


#: The shell step that puts a child's first process into its cgroups before it execs.
_JOIN = 'while [ "$1" != -- ]; do echo $$ >"$1" || exit 125; shift; done; shift; exec "$@"'


@dataclass
class Sandbox:
    """How this run's children are isolated: chosen and probed once, before any child."""

    kind: str
    python: str
    stage: Path
    root: bool
    jobs: int = 1
    uids: queue.Queue[int] = field(default_factory=queue.Queue)
    #: The locks that keep this run's uids its own while it lasts (root).
    locks: list[int] = field(default_factory=list)
    #: The staged files' bytes, copied into each bubblewrap sandbox from memory.
    files: dict[str, bytes] = field(default_factory=dict)
    #: The child mounts its own /tmp capped in bytes and files (bubblewrap).
    inode_cap: bool = False
    #: A memory and pids cgroup per child, where the machine gives one.
    cgroups: Cgroups | None = None
    #: Where the uid locks are (None: no uid claimed).
    lock_folder: Path | None = None
    #: The limits the children run under (said by :meth:`describe`).
    limits: Limits = field(default_factory=Limits)
    #: child pid -> its cgroup folders, until :meth:`release`.
    _groups: dict[int, list[Path]] = field(default_factory=dict)
    #: child pid -> the clock of its sandbox's CPU time (:meth:`cpu_seconds`).
    _clocks: dict[int, CpuClock] = field(default_factory=dict)
    #: an interpreter's prefix -> the folders of installed packages hidden from the child.
    _hidden: dict[str, list[str]] = field(default_factory=dict)
    #: The ``setpriv`` a child takes its uid with (None: this process gives it, by fork).
    setpriv: str | None = field(default_factory=_setpriv)

    def describe(self) -> str:
        """The isolation in force, in words, for the terminal and the gradebook; then
        which limits are in force and which are not."""
        if self.kind == "bubblewrap" and self.root:
            how = _("bubblewrap sandbox (namespaces, no network, read-only system), "
                    "one uid per child")
        elif self.kind == "bubblewrap":
            how = _("bubblewrap sandbox (namespaces, no network, read-only system)")
        elif self.kind == "uid":
            how = _("one uid per child, without bubblewrap: the child can read what any "
                    "user may read and has network access; install bubblewrap")
        else:
            how = _("process limits only, without bubblewrap: the child runs as this user "
                    "and can read and write what it can; install bubblewrap")
        return how + "; " + self.limits_text()

    def limits_text(self) -> str:
        """Which of the footprint's limits are in force here, and which are not."""
        lim = self.limits
        on: list[str] = []
        off: list[str] = []
        if self.kind == "bubblewrap":
            on.append(_("read-only root and /dev"))
            size = f"{lim.disk_bytes / MIB:g}"
            if self.inode_cap:
                on.append(_("/tmp of {size} MiB, files at most: {n}").format(
                    size=size, n=lim.disk_inodes))
            else:
                on.append(_("/tmp of {size} MiB").format(size=size))
                off.append(_("a cap on the number of files in /tmp"))
        on.append(_("open files at most: {n}").format(n=lim.open_files))
        if self.cgroups is not None:
            on.append(_("a cgroup per child: memory {size} MiB (kernel buffers "
                        "included), processes at most: {n}").format(
                size=f"{lim.memory_bytes / MIB:g}", n=lim.sandbox_pids))
        else:
            off.append(_("a memory cgroup (no writable one here): socket and pipe buffers "
                         "are bounded only by the open files"))
        text = _("limits in force: {limits}").format(limits=", ".join(on))
        if off:
            text += "; " + _("not in force: {limits}").format(limits=", ".join(off))
        return text

    @property
    def processes(self) -> int:
        """RLIMIT_NPROC for the child: its processes may not grow (0: not set)."""
        # In a user namespace the count is the sandbox's own: its init and the child.
        # With a uid of its own, the child is the uid's only process.
        return {"bubblewrap": 2, "uid": 1}.get(self.kind, 0)

    def _bwrap(self, python: str, tail: list[str], limits: Limits
               ) -> tuple[list[str], list[int]]:
        """bubblewrap's command line, and the files it copies in (to close after)."""
        argv = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
                "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
        for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            if os.path.islink(top):
                argv += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                argv += ["--ro-bind", top, top]
        prefix = _prefix_of(python)
        if not prefix.startswith("/usr/"):
            argv += ["--ro-bind", prefix, prefix]
        hidden = self._hidden.get(prefix)
        if hidden is None:  # looked for once a run, not at every child's start
            hidden = self._hidden[prefix] = _site_folders(prefix)
        for packages in hidden:  # installed packages: hidden (the engine too)
            argv += ["--tmpfs", packages, "--remount-ro", packages]
        # The staged modules are copied in from memory: nothing in the sandbox's mount
        # table names the host folder they came from.
        fds: list[int] = []
        try:
            names = sorted(self.files)  # the katas' STAGED, or another child's files
            folders = sorted({str(Path("/box/box_gin", n).parent) for n in names}, key=len)
            for folder in ["/box", *folders]:
                argv += ["--perms", "0555", "--dir", folder]
            for name in names:
                fd = os.memfd_create("box-gin-stage", os.MFD_CLOEXEC)
                fds.append(fd)
                os.write(fd, self.files[name])
                os.lseek(fd, 0, os.SEEK_SET)
                argv += ["--perms", "0444", "--file", str(fd), f"/box/box_gin/{name}"]
        except BaseException:
            for fd in fds:
                os.close(fd)
            raise
        argv += ["--proc", "/proc", "--dev", "/dev", "--size", str(limits.disk_bytes),
                 "--tmpfs", "/tmp", "--remount-ro", "/dev", "--remount-ro", "/",
                 "--chdir", "/tmp", "--clearenv",
                 "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
                 "--setenv", "TMPDIR", "/tmp", "--setenv", "LANG", "C.UTF-8"]
        if self.inode_cap:  # the child mounts its capped /tmp, then drops it at once
            argv += ["--cap-add", "CAP_SYS_ADMIN"]
        return [*argv, "--", python, *tail], fds

    def child_limits(self, limits: Limits) -> dict[str, Any]:
        """The limits the child sets on itself, as it reads them."""
        out: dict[str, Any] = {"cpu": limits.cpu_seconds, "memory": limits.memory_bytes,
                               "file": limits.file_bytes, "processes": self.processes,
                               "files": limits.open_files}
        if self.kind == "bubblewrap" and self.inode_cap:
            out["tmp"] = {"bytes": limits.disk_bytes, "inodes": limits.disk_inodes}
        return out

    def spawn(self, uid: int | None, tail: list[str], limits: Limits, pass_fds: tuple[int, ...],
              python: str | None = None, stderr: int = subprocess.DEVNULL,
              stdout: int = subprocess.DEVNULL) -> tuple[subprocess.Popen[bytes], str | None]:
        """Start ``python tail...`` in the sandbox; the process and its private folder.
        Call :meth:`release` with the process when done with it."""
        python = python or self.python
        kwargs: dict[str, Any] = {}
        if uid is not None and self.setpriv is None:
            kwargs = {"user": uid, "group": uid, "extra_groups": []}
        folder = None
        fds: list[int] = []
        if self.kind == "bubblewrap":
            argv, fds = self._bwrap(python, [a.replace("{box}", "/box") for a in tail],
                                    limits)
            cwd = "/"
            env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        else:
            folder = tempfile.mkdtemp(prefix="box-gin-child-", dir=self.stage.parent)
            if uid is not None:
                os.chown(folder, uid, uid)
            os.chmod(folder, 0o700)
            argv = [python, *[a.replace("{box}", str(self.stage)) for a in tail]]
            cwd = folder
            env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder,
                   "TMPDIR": folder}
        groups: list[Path] = []
        try:
            if self.cgroups is not None:
                groups = self.cgroups.make(uid, limits)
                argv = ["/bin/sh", "-c", _JOIN, "sh",
                        *[str(g / "cgroup.procs") for g in groups], "--", *argv]
            if uid is not None and self.setpriv is not None:
                # Real, effective and saved ids all the child's, no supplementary group,
                # before anything else runs (the cgroup's join included): as ``user=``.
                argv = [self.setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                        "--", *argv]
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=stdout,
                                    stderr=stderr, cwd=cwd, env=env,
                                    pass_fds=(*pass_fds, *fds), close_fds=True,
                                    start_new_session=True, **kwargs)
        except BaseException:
            if folder is not None:
                remove_tree(folder)
            if groups:
                Cgroups.remove(groups)
            raise
        finally:
            for fd in fds:
                os.close(fd)
        if groups:
            self._groups[proc.pid] = groups
        return proc, folder

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill a spawned child and everything in its cgroup, without waiting for them to
        die (:meth:`release` waits): several are stopped first, then released."""
        Cgroups.kill(self._groups.get(proc.pid, []))
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with suppress(OSError):
            proc.kill()

    def release(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill a spawned child and everything in its cgroup; remove the cgroup."""
        clock = self._clocks.pop(proc.pid, None)
        if clock is not None:
            clock.close()
        self.stop(proc)
        groups = self._groups.pop(proc.pid, [])
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)
        if groups and not Cgroups.remove(groups):
            self._groups[-proc.pid] = groups  # removed at close

    def cpu_seconds(self, proc: subprocess.Popen[bytes]) -> float | None:
        """The CPU time (seconds) that a spawned child's sandbox has used, as the kernel
        counts it: what the child says of its own time is never needed.  None where
        ``/proc`` does not say.  Its processes are found when first asked (bubblewrap's,
        then the child); in a bubblewrap or uid sandbox no process or thread can be
        added, so the child's own count, to the nanosecond, is the sandbox's."""
        return self._clock(proc).read()

    def waited_seconds(self, proc: subprocess.Popen[bytes]) -> tuple[float, float] | None:
        """(CPU seconds, seconds *waited*) of a spawned child's sandbox so far, as the
        kernel counts them; the seconds waited are the clock's time that the child spent
        neither on a CPU nor waiting for one: asleep, or blocked on a read.  A busy
        machine adds none (its cost is time waiting for a CPU).  Only the differences of
        two readings mean anything; None where the sandbox holds more than one process
        or ``/proc`` does not say."""
        now = time.monotonic()
        sched = self._clock(proc).sched()
        if sched is None:
            return None
        run, queued = sched
        return run, now - run - queued

    def _clock(self, proc: subprocess.Popen[bytes]) -> CpuClock:
        clock = self._clocks.get(proc.pid)
        if clock is None:
            clock = self._clocks[proc.pid] = CpuClock(proc.pid, self.processes > 0)
        return clock

    def peak_memory(self, proc: subprocess.Popen[bytes]) -> int | None:
        """The most memory a running child's cgroup held, bytes (None: no cgroup)."""
        return Cgroups.peak(self._groups.get(proc.pid, []))

    def sweep(self, *uids: int | None) -> None:
        """Kill every process of these sandbox uids, until none is left.  Each uid is
        this run's alone (claimed machine-wide, and free when claimed): only its own
        children die.  One look at ``/proc`` serves them all."""
        left = [uid for uid in uids if uid is not None]
        for attempt in range(50):
            running = processes_of(left)
            left = [uid for uid in left if uid in running]
            if not left:
                return
            if attempt:
                time.sleep(0.005 * attempt)
            for uid in left:
                with suppress(OSError, subprocess.SubprocessError):
                    subprocess.run(["kill", "-9", "-1"], user=uid, group=uid,
                                   extra_groups=[], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, timeout=5,
                                   env={"PATH": "/usr/bin:/bin"})

    def take_uid(self) -> int | None:
        """A free sandbox uid (root), or None."""
        return self.uids.get() if self.root and self.kind != "none" else None

    def give_uid(self, uid: int | None) -> None:
        """Return a uid to the pool, once nothing of it runs any more."""
        self.give_uids([uid])

    def give_uids(self, uids: Sequence[int | None]) -> None:
        """Return uids to the pool, once nothing of them runs any more (one sweep)."""
        self.sweep(*uids)
        for uid in uids:
            if uid is not None:
                self.uids.put(uid)

    def close(self) -> None:
        """Remove the staged copy and the cgroups; no process of the sandbox uids is left."""
        self.close_uids()
        if self.cgroups is not None:
            self.cgroups.close()
        unstage(self.stage)

    def close_uids(self) -> None:
        """Kill what is left of this run's children; give the uids back to the machine."""
        for groups in list(self._groups.values()):
            Cgroups.remove(groups)
        self._groups.clear()
        held = []
        while not self.uids.empty():
            held.append(self.uids.get())
        self.sweep(*held)
        for fd in self.locks:
            with suppress(OSError):
                os.close(fd)  # the uid may be claimed by another run now
        self.locks.clear()

    def claim_uids(self, n: int) -> None:
        """Take ``n`` sandbox uids that no other run holds: another grader running at the
        same time (a second class, nbgrader, another TMPDIR) must never sweep this run's
        children, nor this run its.  Each uid is held by an exclusive lock in a fixed
        system folder until :meth:`close`, and taken only when no process runs as it."""
        folder = self.lock_folder = lock_folder()
        # Earlier versions locked in $TMPDIR/box-gin-uids-<euid>/: where that folder is,
        # held there too, so that an older grader beside this one sees these claims.
        legacy = Path(tempfile.gettempdir()) / f"box-gin-uids-{os.geteuid()}"
        folders = [folder]
        if legacy != folder and legacy.is_dir() and not legacy.is_symlink():
            with suppress(SandboxError, OSError):
                folders.append(own_folder(legacy))
        base = uid_base()
        locked: list[tuple[int, list[int]]] = []  # claimed, not yet seen free

        def take_free() -> None:
            running = processes_of(uid for uid, _held in locked)
            for uid, held in locked:
                if uid in running:  # left by a run that died
                    for fd in held:
                        os.close(fd)
                else:
                    self.locks += held
                    self.uids.put(uid)
            locked.clear()

        for uid in range(base, base + UID_RANGE):
            if self.uids.qsize() + len(locked) >= n:
                take_free()
                if self.uids.qsize() >= n:
                    return
            held = [fd for f in folders if (fd := lock(f / f"box-gin-uid-{uid}.lock"))
                    is not None]
            if len(held) < len(folders):
                for fd in held:  # someone else's
                    os.close(fd)
                continue
            locked.append((uid, held))
        take_free()
        if self.uids.qsize() >= n:
            return
        raise SandboxError(_("no free sandbox uid: {n} runs of the checker at once?").format(
            n=UID_RANGE))


#: What the probe child runs: the staged modules load on this interpreter, and the
#: child's own set-up (the capped /tmp, capabilities dropped) works.
_PROBE = ("import sys, json; sys.path.insert(0, '{box}/box_gin/checker'); "
          "sys.path.insert(0, '{box}'); import runtime; "
          "ok = runtime.setup_sandbox(json.loads(sys.argv[1])); "
          "import box_gin.cards, box_gin.views.cards, box_gin.katas.wire; "
          "sys.exit(0 if ok else 3)")


def _probe(box: Sandbox, python: str) -> str | None:
    """Start one real child; None when it works, else what went wrong."""
    uid = box.take_uid()
    try:
        limits = box.child_limits(box.limits)
        proc, folder = box.spawn(uid, ["-I", "-S", "-B", "-c", _PROBE, json.dumps(limits)],
                                 box.limits, (), python, stderr=subprocess.PIPE)
        try:
            _out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            return _("the probe child did not finish within 20 s")
        finally:
            box.release(proc)
            if folder:
                remove_tree(folder)
        if proc.returncode == 0:
            return None
        lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1][:200] if lines else _("the probe child exited with status {n}").format(
            n=proc.returncode)
    except OSError as exc:
        return str(exc)[:200]
    finally:
        box.give_uid(uid)


def open_sandbox(kind: str = "auto", jobs: int = 1, limits: Limits | None = None) -> Sandbox:
    """The strongest isolation that works here (or ``kind``), probed with a real child;
    with every limit of the footprint that the machine allows (said by ``describe``)."""
    root = os.geteuid() == 0
    kinds = [k for k in KINDS if kind in ("auto", k)]
    if not kinds:
        raise SandboxError(_("unknown isolation {kind!r}: choose auto, {kinds}").format(
            kind=kind, kinds=", ".join(KINDS)))
    if root:  # student code never runs as root: a root checker always has a uid to give
        kinds = [k for k in kinds if k != "none"]
        if not kinds:
            raise SandboxError(_("student code is never run as root: as root, the isolation "
                                 "is bubblewrap or uid"))
    stage, files, closed = make_stage(root)
    cgroups = Cgroups.open()
    reasons: list[str] = []
    box: Sandbox | None = None
    try:
        for k in kinds:
            if k == "bubblewrap" and shutil.which("bwrap") is None:
                reasons.append(_("bubblewrap is not installed"))
                continue
            if k == "uid" and not root:
                continue
            if k == "uid" and closed is not None:  # its children read the stage on disk
                reasons.append(_("uid: the sandbox's uid cannot enter {folder}: let every "
                                 "user enter it (chmod o+x), or set TMPDIR to a folder "
                                 "they may enter, such as /tmp").format(folder=closed))
                continue
            box = Sandbox(k, "", stage, root, jobs, files=files, cgroups=cgroups,
                          limits=limits or Limits())
            if root and k != "none":
                box.claim_uids(max(1, jobs))
            for python in _pythons():
                shut = closed_folder(os.path.dirname(python)) if root else None
                if shut is not None:
                    reasons.append(_("{kind} with {python}: the sandbox's uid cannot enter "
                                     "{folder}; install Python where every user may run it "
                                     "(such as /usr/bin/python3), or let every user enter "
                                     "{folder} (chmod o+x)").format(
                        kind=k, python=python, folder=shut))
                    continue
                # The strongest set-up first: the capped /tmp, the cgroups; then less.
                tries = [(True, cgroups), (False, cgroups)] if k == "bubblewrap" else [
                    (False, cgroups)]
                if cgroups is not None:
                    tries.append((False, None))
                for inode_cap, groups in dict.fromkeys(tries):
                    box.inode_cap, box.cgroups = inode_cap, groups
                    why = _probe(box, python)
                    if why is None:
                        box.python = python
                        if groups is None and cgroups is not None:
                            cgroups.close()
                        return box
                    reasons.append(f"{k} with {python}: {why}")
            box.close_uids()
            box = None
    except BaseException:
        if box is not None:
            box.close_uids()
        if cgroups is not None:
            cgroups.close()
        unstage(stage)
        raise
    if cgroups is not None:
        cgroups.close()
    unstage(stage)
    text = _("no sandbox of the kind {kind!r} works here").format(kind=kind)
    unique = list(dict.fromkeys(reasons))
    raise SandboxError(text + (": " + "; ".join(unique[:6]) if unique else ""))
