"""Start, talk to and kill the sandboxed child that runs a submission's code.

The trust model, from the checker's side (``docs/checker.md`` has the whole of it):

- Student code runs only in a child, inside a sandbox chosen once per run
  (:func:`open_sandbox`), strongest first:

  ``bubblewrap``
      ``bwrap`` with every namespace unshared (user, mount, pid, network, IPC, UTS,
      cgroup) and no further user namespaces: the child sees only ``/usr``, the
      interpreter, a read-only copy of the few modules a learner may use, a fresh
      ``/proc`` of its own processes, a minimal ``/dev`` and an empty size-capped
      ``/tmp``.  When the checker is root the sandbox also runs as a uid of its own
      (one per concurrent child), so no file of the grader's is its own either.
  ``uid`` (root, no bubblewrap)
      a uid of its own per concurrent child, no supplementary groups, a private
      temporary folder as its only writable place; it still sees what any user may read.
  ``none`` (not root, no bubblewrap)
      only a fresh interpreter, a session and resource limits: install bubblewrap.

- In every mode the child's limits are set on itself before it reads its orders: CPU
  time, address space, file size, no core dumps, and (where the count is the sandbox's
  own) no new process or thread, so the address-space limit bounds the whole sandbox.
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
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..i18n import _

PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: The modules copied into the sandbox: what a learner may use, and the child itself.
STAGED = ("cards.py", "errors.py", "i18n.py", "views/__init__.py", "views/cards.py",
          "katas/wire.py", "checker/child.py")
#: The most a child may send in one line (bytes); more is an attack or a bug.
MAX_LINE = 8 * 1024 * 1024
#: The first uid of the sandboxes when the checker is root (one uid per concurrent child).
UID_BASE = int(os.environ.get("BOX_GIN_SANDBOX_UID", "3210000"))
#: How many uids from UID_BASE runs may claim (several runs at once each take their own).
UID_RANGE = 1024
KINDS = ("bubblewrap", "uid", "none")


@dataclass(frozen=True)
class Limits:
    """What a child may use."""

    #: Wall-clock seconds to run all the cells of a submission.
    load_seconds: float = 20.0
    #: Wall-clock seconds for one cell (a cell that never finishes is skipped).
    cell_seconds: float = 10.0
    #: Wall-clock seconds for one kata's batch of tests.
    kata_seconds: float = 20.0
    #: Seconds for one call of a learner's function.
    call_seconds: float = 2.0
    #: Wall-clock seconds for a whole submission: every child, restart and shrink.
    budget_seconds: float = 60.0
    #: CPU seconds for the whole child.
    cpu_seconds: int = 120
    #: Address space, bytes (the sandbox holds one process, so this bounds it all).
    memory_bytes: int = 1024 * 1024 * 1024
    #: Largest file the child may write, bytes.
    file_bytes: int = 1024 * 1024
    #: The size of the sandbox's /tmp (bubblewrap), bytes.
    disk_bytes: int = 16 * 1024 * 1024


class ChildGone(Exception):
    """The child died, hung, or broke the protocol."""


class SandboxError(RuntimeError):
    """No sandbox of the kind asked for can run here."""


def harden_grader() -> None:
    """Make this process impossible to trace or read through /proc by anyone but root."""
    with suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0


def _stage() -> Path:
    """A read-only copy of the modules the child may load, in a folder of its own."""
    top = Path(tempfile.mkdtemp(prefix="box-gin-sandbox-"))
    os.chmod(top, 0o755)
    for name in STAGED:
        target = top / "box_gin" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE_DIR / name, target)
        os.chmod(target, 0o444)
    for folder in _staged_folders(top):
        os.chmod(folder, 0o555)
    return top


def _staged_folders(top: Path) -> list[Path]:
    """The folders of the staged copy, deepest first."""
    folders = {(top / "box_gin" / name).parent for name in STAGED}
    return sorted(folders, key=lambda f: len(f.parts), reverse=True)


def _unstage(top: Path) -> None:
    for folder in _staged_folders(top):
        with suppress(OSError):
            os.chmod(folder, 0o755)
    shutil.rmtree(top, ignore_errors=True)


def _pythons() -> list[str]:
    """Interpreters the child may run on: ours, else the system's (same language)."""
    out = [os.path.realpath(sys.executable)]
    minor = f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}"
    out += [p for p in (minor, "/usr/bin/python3") if os.path.exists(p)]
    return list(dict.fromkeys(out))


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

    def describe(self) -> str:
        """The isolation in force, in words, for the terminal and the gradebook."""
        if self.kind == "bubblewrap" and self.root:
            return _("bubblewrap sandbox (namespaces, no network, read-only system), "
                     "one uid per child")
        if self.kind == "bubblewrap":
            return _("bubblewrap sandbox (namespaces, no network, read-only system)")
        if self.kind == "uid":
            return _("one uid per child, without bubblewrap: the child can read what any "
                     "user may read and has network access; install bubblewrap")
        return _("process limits only, without bubblewrap: the child runs as this user "
                 "and can read and write what it can; install bubblewrap")

    @property
    def processes(self) -> int:
        """RLIMIT_NPROC for the child: its processes may not grow (0: not set)."""
        # In a user namespace the count is the sandbox's own: its init and the child.
        # With a uid of its own, the child is the uid's only process.
        return {"bubblewrap": 2, "uid": 1}.get(self.kind, 0)

    def _bwrap(self, python: str, tail: list[str], disk: int) -> list[str]:
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
        argv += ["--ro-bind", str(self.stage), "/box", "--proc", "/proc", "--dev", "/dev",
                 "--size", str(disk), "--tmpfs", "/tmp", "--chdir", "/tmp", "--clearenv",
                 "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
                 "--setenv", "TMPDIR", "/tmp", "--setenv", "LANG", "C.UTF-8", "--",
                 python, *tail]
        return argv

    def spawn(self, uid: int | None, tail: list[str], limits: Limits, pass_fds: tuple[int, ...],
              python: str | None = None) -> tuple[subprocess.Popen[bytes], str | None]:
        """Start ``python tail...`` in the sandbox; the process and its private folder."""
        python = python or self.python
        kwargs: dict[str, Any] = {}
        if uid is not None:
            kwargs = {"user": uid, "group": uid, "extra_groups": []}
        folder = None
        if self.kind == "bubblewrap":
            argv = self._bwrap(python, [a.replace("{box}", "/box") for a in tail],
                               limits.disk_bytes)
            cwd = "/"
            env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        else:
            folder = tempfile.mkdtemp(prefix="box-gin-child-")
            if uid is not None:
                os.chown(folder, uid, uid)
            os.chmod(folder, 0o700)
            argv = [python, *[a.replace("{box}", str(self.stage)) for a in tail]]
            cwd = folder
            env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": folder,
                   "TMPDIR": folder}
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, cwd=cwd, env=env,
                                    pass_fds=pass_fds, close_fds=True,
                                    start_new_session=True, **kwargs)
        except BaseException:
            if folder is not None:
                _remove_tree(folder)
            raise
        return proc, folder

    def sweep(self, uid: int | None) -> None:
        """Kill every process of a sandbox uid, until none is left."""
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
        """Remove the staged copy; no process of the sandbox uids is left."""
        while not self.uids.empty():
            self.sweep(self.uids.get())
        for fd in self.locks:
            with suppress(OSError):
                os.close(fd)  # the uid may be claimed by another run now
        self.locks.clear()
        _unstage(self.stage)

    def claim_uids(self, n: int) -> None:
        """Take ``n`` sandbox uids that no other run holds: another grader running at the
        same time (a second class, nbgrader) must never sweep this run's children, nor
        this run its.  Each uid is held by an exclusive lock until :meth:`close`."""
        folder = _lock_folder()
        for uid in range(UID_BASE, UID_BASE + UID_RANGE):
            if self.uids.qsize() >= n:
                return
            try:
                fd = os.open(folder / f"box-gin-uid-{uid}.lock",
                             os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            if uid_processes(uid):  # left by a run that died: not safe to reuse yet
                os.close(fd)
                continue
            self.locks.append(fd)
            self.uids.put(uid)
        raise SandboxError(_("no free sandbox uid: {n} runs of the checker at once?").format(
            n=UID_RANGE))


def _lock_folder() -> Path:
    """The checker's own folder for its uid locks: this user's only, never a link."""
    folder = Path(tempfile.gettempdir()) / f"box-gin-uids-{os.geteuid()}"
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


def _probe(box: Sandbox, python: str) -> bool:
    uid = box.take_uid()
    try:
        # The staged modules must load on this interpreter, as the child will load them.
        code = ("import sys; sys.path.insert(0, '{box}'); import json, importlib.util; "
                "import box_gin.cards, box_gin.views.cards, box_gin.katas.wire")
        proc, folder = box.spawn(uid, ["-I", "-S", "-B", "-c", code], Limits(), (), python)
        try:
            proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            return False
        finally:
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
        return proc.returncode == 0
    except OSError:
        return False
    finally:
        box.give_uid(uid)


def open_sandbox(kind: str = "auto", jobs: int = 1) -> Sandbox:
    """The strongest isolation that works here (or ``kind``), probed with a real child."""
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
    stage = _stage()
    for k in kinds:
        if k == "bubblewrap" and shutil.which("bwrap") is None:
            continue
        if k == "uid" and not root:
            continue
        box = Sandbox(k, "", stage, root, jobs)
        if root and k != "none":
            box.claim_uids(max(1, jobs))
        for python in _pythons():
            if _probe(box, python):
                box.python = python
                return box
    _unstage(stage)
    raise SandboxError(_("no sandbox of the kind {kind!r} works here").format(kind=kind))


class Child:
    """One running child for one submission file."""

    def __init__(self, box: Sandbox, setup: dict[str, Any], limits: Limits,
                 budget: float) -> None:
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
        rlimits = {"cpu": limits.cpu_seconds, "memory": limits.memory_bytes,
                   "file": limits.file_bytes, "processes": box.processes}
        try:
            self.proc, self.folder = box.spawn(
                self.uid, ["-I", "-S", "-B", "{box}/box_gin/checker/child.py",
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

        message = self.receive(self.limits.load_seconds, accept)
        self.current_cell = None
        return message

    def run(self, request_id: int, function: str, hide: list[tuple[str, str]],
            cases: list[Any]) -> dict[str, Any]:
        """Run ``function`` on the encoded ``cases``; the child's answer."""
        self._queue({"t": "run", "id": request_id, "function": function,
                     "hide": [list(h) for h in hide], "cases": cases,
                     "timeout": self.limits.call_seconds, "budget": self.limits.kata_seconds})
        message = self.receive(self.limits.kata_seconds + 5, lambda m: m.get(
            "t") == "result" and m.get("id") == request_id)
        outcomes = message.get("outcomes")
        if not isinstance(outcomes, list) or len(outcomes) != len(cases):
            raise ChildGone("a malformed answer")
        return message

    def close(self) -> None:
        """Kill the child and everything it started; remove its folder."""
        if self.proc is not None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with suppress(OSError):
                self.proc.kill()
            with suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
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
