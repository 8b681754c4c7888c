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
import fcntl
import json
import os
import queue
import secrets
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _
from ..katas.wire import wall_seconds

PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: The modules copied into the sandbox: what a learner may use, and the child itself.
STAGED = ("cards.py", "errors.py", "i18n.py", "views/__init__.py", "views/cards.py",
          "katas/wire.py", "checker/child.py")
#: The most a child may send in one line (bytes); more is an attack or a bug.
MAX_LINE = 8 * 1024 * 1024
#: The first uid of the sandboxes when the checker is root (one uid per concurrent child);
#: ``$BOX_GIN_SANDBOX_UID`` moves it (read when a run claims its uids).
UID_BASE = 3210000
#: How many uids from UID_BASE runs may claim (several runs at once each take their own).
UID_RANGE = 1024
KINDS = ("bubblewrap", "uid", "none")
#: Where uid claims live: fixed system places, the same for every run whatever its
#: TMPDIR (the first that exists and is writable; else TMPDIR, said in the output).
LOCK_PLACES = ("/run/lock", "/var/lock")
#: Where a root checker may stage for its children when TMPDIR is closed to them.
STAGE_PLACES = ("/tmp", "/var/tmp", "/dev/shm")
MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What a child may use."""

    # The cell, call and batch limits are CPU seconds, so that a busy machine changes no
    # verdict; each also has a wall-clock safety, ``katas.wire.wall_seconds`` of it, for
    # code that waits instead of computing.
    #: Seconds to run all the cells of a submission (the wall-clock safety of the load).
    load_seconds: float = 20.0
    #: CPU seconds for one cell (a cell that never finishes is skipped).
    cell_seconds: float = 10.0
    #: CPU seconds for one kata's batch of tests.
    kata_seconds: float = 20.0
    #: CPU seconds for one call of a learner's function.
    call_seconds: float = 2.0
    #: Wall-clock seconds for a whole submission: every child, restart and shrink.
    budget_seconds: float = 60.0
    #: CPU seconds for the whole child.
    cpu_seconds: int = 120
    #: Address space, bytes (the sandbox holds one process, so this bounds it all); also
    #: the memory cgroup's limit for the whole sandbox, kernel memory included.
    memory_bytes: int = 1024 * 1024 * 1024
    #: Largest file the child may write, bytes.
    file_bytes: int = 1024 * 1024
    #: The size of the sandbox's /tmp (bubblewrap), bytes.
    disk_bytes: int = 16 * 1024 * 1024
    #: How many files and folders the sandbox's /tmp may hold (bubblewrap).
    disk_inodes: int = 4096
    #: Open files at once: bounds sockets and pipes (and so the buffers the kernel holds
    #: for them) where no memory cgroup does.
    open_files: int = 32
    #: Processes and threads of the whole sandbox (pids cgroup), its bubblewrap included.
    sandbox_pids: int = 8


class ChildGone(Exception):
    """The child died, hung, or broke the protocol."""


class SandboxError(RuntimeError):
    """No sandbox of the kind asked for can run here."""


def harden_grader() -> None:
    """Make this process impossible to trace or read through /proc by anyone but root."""
    with suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0


def closed_folder(path: str | Path) -> str | None:
    """The first folder on the way to ``path`` (itself included, when a folder) that a
    user with no claim on it (no owner, no group: a sandbox uid) cannot enter; or None."""
    current = Path(os.path.abspath(path))
    for folder in [*reversed(current.parents), current]:
        try:
            info = folder.stat()
        except OSError:
            return str(folder)
        if stat.S_ISDIR(info.st_mode) and not info.st_mode & stat.S_IXOTH:
            return str(folder)
    return None


def _stage_base(root: bool) -> tuple[str, str | None]:
    """Where to stage: TMPDIR, unless a root checker's children could not enter it; then
    the first system temporary folder they can.  The folder, and why TMPDIR was not."""
    first = tempfile.gettempdir()
    closed = closed_folder(first) if root else None
    if closed is None:
        return first, None
    for base in STAGE_PLACES:
        if (os.path.isdir(base) and os.access(base, os.W_OK | os.X_OK)
                and closed_folder(base) is None):
            return base, None
    return first, closed


def _stage(root: bool) -> tuple[Path, dict[str, bytes], str | None]:
    """A read-only copy of the modules the child may load, in a folder of its own that the
    child's uid can enter; the same files in memory (what bubblewrap copies in); and the
    folder that kept the stage out of the children's reach, if any."""
    base, closed = _stage_base(root)
    top = Path(tempfile.mkdtemp(prefix="box-gin-sandbox-", dir=base))
    os.chmod(top, 0o755)
    files = {}
    for name in STAGED:
        target = top / "box_gin" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        files[name] = (PACKAGE_DIR / name).read_bytes()
        target.write_bytes(files[name])
        os.chmod(target, 0o444)
    for folder in _staged_folders(top):
        os.chmod(folder, 0o555)
    return top, files, closed


def _staged_folders(top: Path) -> list[Path]:
    """The folders of the staged copy, deepest first."""
    folders = {(top / "box_gin" / name).parent for name in STAGED}
    return sorted(folders, key=lambda f: len(f.parts), reverse=True)


def _unstage(top: Path) -> None:
    """Remove a staged copy, and any other staged under it (a bot's engine copy)."""
    folders = _staged_folders(top) + [Path(base) / d for base, dirs, _files in os.walk(top)
                                      for d in dirs]
    for folder in folders:
        with suppress(OSError):
            os.chmod(folder, 0o755)
    shutil.rmtree(top, ignore_errors=True)


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


def _write(path: Path, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


class Cgroups:
    """A memory and pids cgroup per child, under this process's own cgroups, where the
    machine gives writable ones: cgroup v1 ``memory`` and ``pids`` hierarchies (root), or
    a cgroup v2 tree delegated with both controllers."""

    def __init__(self, folders: dict[str, Path], version: int) -> None:
        #: controller -> this run's folder in it (v2: the same folder for both).
        self.folders = folders
        self.version = version
        self._count = 0
        self._lock = threading.Lock()

    @classmethod
    def open(cls) -> Cgroups | None:
        """This run's cgroups, or None where none is writable."""
        try:
            own: dict[str, str] = {}
            with open("/proc/self/cgroup") as f:
                for line in f:
                    _num, names, path = line.rstrip("\n").split(":", 2)
                    for name in names.split(",") if names else [""]:
                        own[name] = path
            v1: dict[str, str] = {}
            v2 = None
            with open("/proc/self/mountinfo") as f:
                for line in f:
                    left, _sep, right = line.partition(" - ")
                    fstype, _source, options = [*right.split(), "", "", ""][:3]
                    point = left.split()[4]
                    if fstype == "cgroup":
                        for name in options.split(","):
                            v1.setdefault(name, point)
                    elif fstype == "cgroup2" and v2 is None:
                        v2 = point
        except (OSError, ValueError, IndexError):
            return None
        token = f"box-gin-{os.getpid()}-{secrets.token_hex(4)}"
        if all(c in v1 and c in own and ".." not in own[c] for c in ("memory", "pids")):
            folders = {c: Path(v1[c]) / own[c].lstrip("/") for c in ("memory", "pids")}
            if all(os.access(folder, os.W_OK) for folder in folders.values()):
                made: dict[str, Path] = {}
                try:
                    for c, folder in folders.items():
                        made[c] = folder / token
                        made[c].mkdir(mode=0o755)
                    return cls(made, 1)
                except OSError:
                    cls(made, 1).close()
        if v2 is not None and "" in own and ".." not in own[""]:
            tree = Path(v2) / own[""].lstrip("/")
            try:
                enabled = (tree / "cgroup.subtree_control").read_text().split()
                if {"memory", "pids"} <= set(enabled) and os.access(tree, os.W_OK):
                    (tree / token).mkdir(mode=0o755)
                    try:
                        _write(tree / token / "cgroup.subtree_control", "+memory +pids")
                    except OSError:
                        (tree / token).rmdir()
                        return None
                    return cls({"memory": tree / token, "pids": tree / token}, 2)
            except OSError:
                return None
        return None

    def make(self, uid: int | None, limits: Limits) -> list[Path]:
        """A cgroup of its own for one child: its folders (one per hierarchy)."""
        with self._lock:
            self._count += 1
            name = f"child-{self._count}"
        made: list[Path] = []
        try:
            for folder in dict.fromkeys(self.folders.values()):
                (folder / name).mkdir(mode=0o755)
                made.append(folder / name)
            if self.version == 1:
                memory, pids = self.folders["memory"] / name, self.folders["pids"] / name
                _write(memory / "memory.limit_in_bytes", str(limits.memory_bytes))
                with suppress(OSError):  # only where swap is accounted
                    _write(memory / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
                _write(pids / "pids.max", str(limits.sandbox_pids))
            else:
                _write(made[0] / "memory.max", str(limits.memory_bytes))
                with suppress(OSError):
                    _write(made[0] / "memory.swap.max", "0")
                _write(made[0] / "pids.max", str(limits.sandbox_pids))
            if uid is not None:  # the child's first process joins it as that uid
                for folder in made:
                    os.chown(folder / "cgroup.procs", uid, uid)
        except OSError:
            self.remove(made)
            raise
        return made

    @staticmethod
    def kill(folders: list[Path]) -> None:
        """Kill every process in a child's cgroups (only this run's children are there)."""
        for folder in folders:
            with suppress(OSError, ValueError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    with suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)

    @classmethod
    def remove(cls, folders: list[Path]) -> bool:
        """Remove a child's cgroups once empty (killing what is left); True when gone."""
        for attempt in range(40):
            cls.kill(folders)
            for folder in list(folders):
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                folders.remove(folder)
            if not folders:
                return True
            time.sleep(0.005 * (attempt + 1))
        return False

    @staticmethod
    def peak(folders: list[Path]) -> int | None:
        """The most memory a child's cgroup held (bytes), where the kernel says."""
        for folder in folders:
            for name in ("memory.max_usage_in_bytes", "memory.peak"):
                with suppress(OSError, ValueError):
                    return int((folder / name).read_text())
        return None

    def close(self) -> None:
        left = [f / c.name for f in dict.fromkeys(self.folders.values()) if f.is_dir()
                for c in f.iterdir() if c.is_dir()]
        self.remove(left)
        self.remove(list(dict.fromkeys(self.folders.values())))


_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state first)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read(4096)
    except OSError:
        return None
    return data[data.rfind(b")") + 2:].decode("ascii", "replace").split()


def _cpu_ticks(pid: int) -> int | None:
    """The user and system CPU time of a live process (all its threads), clock ticks."""
    fields = _stat_fields(pid)
    if fields is None or len(fields) < 13 or fields[0] in ("Z", "X"):
        return None
    try:
        return int(fields[11]) + int(fields[12])
    except ValueError:
        return None


class _CpuClock:
    """The CPU time of a child and every process below it: with ``single`` (no process
    or thread can be added), the last one's ``/proc/PID/schedstat``, kept open; else the
    user and system time of each from ``/proc/PID/stat``."""

    def __init__(self, pid: int, single: bool) -> None:
        self.pids = _descendants(pid)
        self.fd: int | None = None
        if single:
            with suppress(OSError):
                self.fd = os.open(f"/proc/{self.pids[-1]}/schedstat",
                                  os.O_RDONLY | os.O_CLOEXEC)

    def read(self) -> float | None:
        if self.fd is not None:
            sched = self.sched()
            return None if sched is None else sched[0]
        ticks = [_cpu_ticks(pid) for pid in self.pids]
        known = [t for t in ticks if t is not None]
        return sum(known) / _CLOCK_TICKS if known else None

    def sched(self) -> tuple[float, float] | None:
        """(seconds on a CPU, seconds runnable but waiting for a CPU) of the single
        process, from its ``schedstat``; None where it is not watched so."""
        if self.fd is None:
            return None
        try:
            fields = os.pread(self.fd, 64, 0).split()
            return int(fields[0]) / 1e9, int(fields[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def close(self) -> None:
        if self.fd is not None:
            with suppress(OSError):
                os.close(self.fd)
            self.fd = None


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (bubblewrap's, then the child)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = _stat_fields(int(entry))
            if fields is not None and len(fields) > 1 and fields[1].isdigit():
                children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo += children.get(current, [])
    return out


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
    _clocks: dict[int, _CpuClock] = field(default_factory=dict)

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
        for packages in _site_folders(prefix):  # installed packages: hidden (the engine too)
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
        if uid is not None:
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
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=stdout,
                                    stderr=stderr, cwd=cwd, env=env,
                                    pass_fds=(*pass_fds, *fds), close_fds=True,
                                    start_new_session=True, **kwargs)
        except BaseException:
            if folder is not None:
                _remove_tree(folder)
            if groups:
                Cgroups.remove(groups)
            raise
        finally:
            for fd in fds:
                os.close(fd)
        if groups:
            self._groups[proc.pid] = groups
        return proc, folder

    def release(self, proc: subprocess.Popen[bytes]) -> None:
        """Kill a spawned child and everything in its cgroup; remove the cgroup."""
        clock = self._clocks.pop(proc.pid, None)
        if clock is not None:
            clock.close()
        groups = self._groups.pop(proc.pid, [])
        Cgroups.kill(groups)
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with suppress(OSError):
            proc.kill()
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

    def _clock(self, proc: subprocess.Popen[bytes]) -> _CpuClock:
        clock = self._clocks.get(proc.pid)
        if clock is None:
            clock = self._clocks[proc.pid] = _CpuClock(proc.pid, self.processes > 0)
        return clock

    def peak_memory(self, proc: subprocess.Popen[bytes]) -> int | None:
        """The most memory a running child's cgroup held, bytes (None: no cgroup)."""
        return Cgroups.peak(self._groups.get(proc.pid, []))

    def sweep(self, uid: int | None) -> None:
        """Kill every process of a sandbox uid, until none is left.  The uid is this run's
        alone (claimed machine-wide, and free when claimed): only its own children die."""
        if uid is None:
            return
        for attempt in range(50):
            if not uid_processes(uid):
                return
            if attempt:
                time.sleep(0.005 * attempt)
            with suppress(OSError, subprocess.SubprocessError):
                subprocess.run(["kill", "-9", "-1"], user=uid, group=uid, extra_groups=[],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=5, env={"PATH": "/usr/bin:/bin"})

    def take_uid(self) -> int | None:
        """A free sandbox uid (root), or None."""
        return self.uids.get() if self.root and self.kind != "none" else None

    def give_uid(self, uid: int | None) -> None:
        """Return a uid to the pool, once nothing of it runs any more."""
        if uid is not None:
            self.sweep(uid)
            self.uids.put(uid)

    def close(self) -> None:
        """Remove the staged copy and the cgroups; no process of the sandbox uids is left."""
        self.close_uids()
        if self.cgroups is not None:
            self.cgroups.close()
        _unstage(self.stage)

    def close_uids(self) -> None:
        """Kill what is left of this run's children; give the uids back to the machine."""
        for groups in list(self._groups.values()):
            Cgroups.remove(groups)
        self._groups.clear()
        while not self.uids.empty():
            self.sweep(self.uids.get())
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
                folders.append(_own_folder(legacy))
        base = uid_base()
        for uid in range(base, base + UID_RANGE):
            if self.uids.qsize() >= n:
                return
            held = [fd for f in folders if (fd := _lock(f / f"box-gin-uid-{uid}.lock"))
                    is not None]
            if len(held) < len(folders) or uid_processes(uid):
                for fd in held:  # someone else's, or left by a run that died
                    os.close(fd)
                continue
            self.locks += held
            self.uids.put(uid)
        if self.uids.qsize() >= n:
            return
        raise SandboxError(_("no free sandbox uid: {n} runs of the checker at once?").format(
            n=UID_RANGE))


def _lock(path: Path) -> int | None:
    """An exclusive lock on ``path``, held through the returned descriptor; or None."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def uid_base() -> int:
    """The first sandbox uid: ``$BOX_GIN_SANDBOX_UID``, else :data:`UID_BASE`."""
    try:
        return int(os.environ.get("BOX_GIN_SANDBOX_UID", UID_BASE))
    except ValueError:
        return UID_BASE


def lock_folder() -> Path:
    """The folder of the uid locks: ``/run/lock/box-gin-uids`` (or ``/var/lock/...``),
    the same for every run on the machine whatever its TMPDIR; only where neither exists
    (or is writable), ``$TMPDIR/box-gin-uids-<euid>``.  This user's own, never a link."""
    for place in LOCK_PLACES:
        if os.path.isdir(place) and os.access(place, os.W_OK | os.X_OK):
            return _own_folder(Path(place) / "box-gin-uids")
    return _own_folder(Path(tempfile.gettempdir()) / f"box-gin-uids-{os.geteuid()}")


def _own_folder(folder: Path) -> Path:
    with suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    info = folder.lstat()
    if (not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid()
            or info.st_mode & 0o077):
        raise SandboxError(_("{folder} is not the checker's own folder: remove it").format(
            folder=folder))
    return folder


def uid_processes(uid: int) -> list[int]:
    """The live processes running as ``uid`` (real, effective or saved; not zombies)."""
    found = []
    mine = str(uid).encode()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as f:
                status = f.read(4096)
        except OSError:
            continue
        fields = dict(line.split(b":", 1) for line in status.splitlines() if b":" in line)
        if mine in fields.get(b"Uid", b"").split()[:3] and not fields.get(
                b"State", b"").strip().startswith((b"Z", b"X")):
            found.append(int(entry))
    return found


#: What the probe child runs: the staged modules load on this interpreter, and the
#: child's own set-up (the capped /tmp, capabilities dropped) works.
_PROBE = ("import sys, json; sys.path.insert(0, '{box}/box_gin/checker'); "
          "sys.path.insert(0, '{box}'); import child; "
          "ok = child.setup_sandbox(json.loads(sys.argv[1])); "
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
                _remove_tree(folder)
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
    stage, files, closed = _stage(root)
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
        _unstage(stage)
        raise
    if cgroups is not None:
        cgroups.close()
    _unstage(stage)
    text = _("no sandbox of the kind {kind!r} works here").format(kind=kind)
    unique = list(dict.fromkeys(reasons))
    raise SandboxError(text + (": " + "; ".join(unique[:6]) if unique else ""))


#: The script of a kata's child, under the staged ``box_gin``.
KATA_CHILD = "checker/child.py"


class Child:
    """One running child for one submission file (``script``: the child to run, under
    the staged ``box_gin``: a kata's, or a bot's in a sandbox that stages the engine)."""

    def __init__(self, box: Sandbox, setup: dict[str, Any], limits: Limits,
                 budget: float, script: str = KATA_CHILD) -> None:
        self.box = box
        self.limits = limits
        self.budget = budget
        self.nonce = secrets.token_hex(16)
        self.uid = box.take_uid()
        self.current_cell: int | None = None
        self._buffer = bytearray()
        self._out = bytearray()
        read_end, write_end = os.pipe()
        self._read = read_end
        self.folder: str | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        rlimits = box.child_limits(limits)
        try:
            self.proc, self.folder = box.spawn(
                self.uid, ["-I", "-S", "-B", f"{{box}}/box_gin/{script}",
                           json.dumps(rlimits)], limits, (write_end,))
        except OSError as exc:
            os.close(write_end)
            self.close()
            raise ChildGone("the sandbox could not start") from exc
        os.close(write_end)
        assert self.proc.stdin is not None
        self._write = self.proc.stdin.fileno()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        package = "/box/box_gin" if box.kind == "bubblewrap" else str(box.stage / "box_gin")
        self._queue({**setup, "nonce": self.nonce, "fd": write_end, "package": package})

    def _queue(self, message: dict[str, Any]) -> None:
        self._out += json.dumps(message).encode() + b"\n"

    def send(self, message: dict[str, Any]) -> None:
        """Queue a line for the child: :meth:`receive` writes it while it reads."""
        self._queue(message)

    def _lines(self) -> dict[str, Any] | None:
        prefix = self.nonce.encode() + b" "
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                return None
            line = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            if line.startswith(prefix):
                try:
                    message = json.loads(line[len(prefix):].decode("utf-8", "replace"))
                except (ValueError, RecursionError) as exc:
                    raise ChildGone("a garbled message") from exc
                if isinstance(message, dict):
                    return message

    def receive(self, seconds: float, accept: Callable[[dict[str, Any]], bool]
                ) -> dict[str, Any]:
        """Send what is queued and read until a message ``accept`` takes, within
        ``seconds`` and the submission's budget: one loop, one deadline."""
        deadline = min(time.monotonic() + seconds, self.budget)
        while True:
            message = self._lines()
            while message is not None:
                if accept(message):
                    return message
                message = self._lines()
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildGone("timeout")
            writers = [self._write] if self._out else []
            ready, writable, _x = select.select([self._read], writers, [], left)
            if writable:
                try:
                    sent = os.write(self._write, self._out[:1 << 16])
                except BlockingIOError:
                    sent = 0
                except OSError as exc:
                    raise ChildGone("the child stopped reading") from exc
                del self._out[:sent]
            if ready:
                try:
                    chunk = os.read(self._read, 1 << 16)
                except BlockingIOError:
                    continue
                if not chunk:
                    raise ChildGone("the child exited")
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE:
                    raise ChildGone("the child sent too much")

    def wait_ready(self) -> dict[str, Any]:
        """Follow the child through the cells until it is ready for requests."""
        def accept(message: dict[str, Any]) -> bool:
            if message.get("t") == "cell" and isinstance(message.get("i"), int):
                self.current_cell = message["i"]
            return message.get("t") == "ready"

        message = self.receive(wall_seconds(self.limits.load_seconds), accept)
        self.current_cell = None
        return message

    def run(self, request_id: int, function: str, hide: list[tuple[str, str]],
            cases: list[Any]) -> dict[str, Any]:
        """Run ``function`` on the encoded ``cases``; the child's answer."""
        self._queue({"t": "run", "id": request_id, "function": function,
                     "hide": [list(h) for h in hide], "cases": cases,
                     "timeout": self.limits.call_seconds, "budget": self.limits.kata_seconds})
        # The child keeps the limits in CPU seconds; here, only the wall-clock safety
        # (its batch's, and one more call's, which may be running when the batch's ends).
        seconds = wall_seconds(self.limits.kata_seconds) + wall_seconds(self.limits.call_seconds)
        message = self.receive(seconds, lambda m: m.get(
            "t") == "result" and m.get("id") == request_id)
        outcomes = message.get("outcomes")
        if not isinstance(outcomes, list) or len(outcomes) != len(cases):
            raise ChildGone("a malformed answer")
        return message

    def close(self) -> None:
        """Kill the child and everything it started; remove its folder."""
        if self.proc is not None:
            self.box.release(self.proc)
            with suppress(OSError):
                if self.proc.stdin is not None:
                    self.proc.stdin.close()
        with suppress(OSError):
            os.close(self._read)
        self.box.give_uid(self.uid)
        self.uid = None
        if self.folder is not None:
            _remove_tree(self.folder)
            self.folder = None

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _remove_tree(folder: str) -> None:
    """Remove a child's folder, whatever modes it left on what it wrote."""
    def unlock(function: Any, path: str, info: Any) -> None:
        with suppress(OSError):
            parent = os.path.dirname(path)
            os.chmod(parent, stat.S_IRWXU)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, stat.S_IRWXU)
            function(path)

    shutil.rmtree(folder, onerror=unlock)
