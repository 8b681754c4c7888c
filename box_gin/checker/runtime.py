"""The runtime of every sandboxed child: the kata's (``child.py``) and the bot's
(``botchild.py``), staged beside them and loaded by its path (standard library only: it
runs before any learner code, with nothing of ``box_gin`` importable but what the child
allows).

A child starts with :func:`start`: its part of the sandbox (a capped ``/tmp``, every
capability dropped, the limits on CPU time, memory, file size, open files and
processes), then its setup, one JSON line on stdin.  It answers on a pipe of its own,
each line led by the setup's nonce (:class:`Session.send`), never on stdout.  It runs
the learner's cells with :func:`run_cells`, each under the one timer of
``box_gin/katas/timer.py`` (:func:`load`), and reports what stopped a cell in the same
words whatever the child.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import sys
import types
from collections.abc import Iterator
from typing import Any, BinaryIO

#: Exit status of a child whose sandbox is not all in force: it ran nothing.
NOT_IN_FORCE = 3


def load(path: str, name: str) -> types.ModuleType:
    """The module of the file ``path`` (staged beside the child), under ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Session:
    """A started child: its setup, its orders (``lines``) and its answers (:meth:`send`)."""

    def __init__(self, setup: dict[str, Any], stdin: BinaryIO) -> None:
        self.setup = setup
        self._stdin = stdin
        self._nonce = str(setup["nonce"]).encode() + b" "
        self._fd = int(setup["fd"])

    def send(self, message: dict[str, Any]) -> None:
        """One answer line, led by the nonce; written whole."""
        data = self._nonce + json.dumps(message, separators=(",", ":")).encode() + b"\n"
        while data:
            data = data[os.write(self._fd, data):]

    def lines(self) -> Iterator[dict[str, Any]]:
        """The orders after the setup, one JSON line each, until stdin ends."""
        for line in self._stdin:
            yield json.loads(line)


def start() -> Session:
    """The child's sandbox (``argv[1]``: its limits), then its setup; a child whose
    sandbox is not all in force exits at once, running nothing."""
    if not setup_sandbox(json.loads(sys.argv[1])):
        os._exit(NOT_IN_FORCE)
    stdin = os.fdopen(os.dup(0), "rb")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)  # the learner's code reads nothing of the orders
    return Session(json.loads(stdin.readline()), stdin)


def text(exc: BaseException, size: int = 300) -> str:
    """What an exception says, at most ``size`` characters (a hostile ``__str__``: "?")."""
    try:
        said = str(exc)
        return said[:size] if isinstance(said, str) else "?"
    except BaseException:
        return "?"


def run_cells(session: Session, namespace: dict[str, Any], timer: types.ModuleType,
              progress: bool = True) -> list[str]:
    """Run the setup's ``cells`` in ``namespace`` (but those to ``skip``), each limited
    to ``cell_seconds`` of CPU time (``timer``: the staged ``katas/timer.py``, its
    timers installed); with ``progress``, a ``cell`` line before each, so that the
    driver knows which cell stopped the child.  What stopped a cell, a line each."""
    setup = session.setup
    seconds = float(setup.get("cell_seconds", 10))
    skip = set(setup.get("skip", []))
    errors: list[str] = []
    for index, (label, source) in enumerate(setup["cells"]):
        if index in skip:
            continue
        if progress:
            session.send({"t": "cell", "i": index})
        try:
            code = compile(source, label, "exec")
            timer.arm(seconds)
            try:
                exec(code, namespace)
            finally:
                timer.disarm()
        except timer.Rang:
            errors.append(f"{label}: did not finish within {seconds:g} s")
        except SyntaxError as exc:
            errors.append(f"{label}: SyntaxError: {exc.msg} (line {exc.lineno})")
        except BaseException as exc:  # SystemExit, KeyboardInterrupt... anything
            errors.append(f"{label}: {type(exc).__name__}: {text(exc)}")
    return errors


def setup_sandbox(limits: dict[str, Any]) -> bool:
    """The child's own part of the sandbox, before anything else runs: its capped /tmp
    (bubblewrap: bytes *and* files, which bubblewrap's own tmpfs cannot cap), every
    capability dropped for good, then the limits.  False when a part asked for is not
    in force (the caller must not go on)."""
    ok = True
    if "tmp" in limits:
        ok = _capped_tmp(int(limits["tmp"]["bytes"]), int(limits["tmp"]["inodes"]))
    ok = _drop_capabilities() and ok
    limit(limits)
    return ok


def _capped_tmp(size: int, inodes: int) -> bool:
    """Mount a fresh /tmp capped in bytes and inodes, in a mount namespace of the child's
    own (every mount it inherits stays locked as bubblewrap made it: read-only)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
        return False
    options = f"size={size},nr_inodes={inodes},mode=1777".encode()
    return bool(libc.mount(b"tmpfs", b"/tmp", b"tmpfs", 2 | 4, options) == 0)  # nosuid, nodev


def _drop_capabilities() -> bool:
    """No capability left in any set (bubblewrap gave one only for the mount above)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    libc.prctl(47, 4, 0, 0, 0)  # PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, self
    data = (ctypes.c_uint32 * 6)()
    libc.capset(header, data)
    try:
        with open("/proc/self/status") as f:
            sets = {line.split(":")[0]: line.split(":")[1].strip() for line in f
                    if line.startswith(("CapInh", "CapPrm", "CapEff", "CapAmb"))}
    except OSError:
        return False
    return len(sets) == 4 and all(int(v, 16) == 0 for v in sets.values())


def limit(limits: dict[str, Any]) -> None:
    """Cap CPU time, address space, file size, open files, core dumps and (in a sandbox)
    processes."""
    import resource

    def cap(which: int, value: int) -> None:
        try:
            _soft, hard = resource.getrlimit(which)
            if hard != resource.RLIM_INFINITY:
                value = min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass

    cap(resource.RLIMIT_CPU, int(limits["cpu"]))
    cap(resource.RLIMIT_AS, int(limits["memory"]))
    cap(resource.RLIMIT_FSIZE, int(limits["file"]))
    cap(resource.RLIMIT_CORE, 0)
    if int(limits.get("files", 0)) > 0:  # sockets and pipes: the kernel buffers they hold
        cap(resource.RLIMIT_NOFILE, int(limits["files"]))
    if int(limits["processes"]) > 0:  # the sandbox's own count: no new process or thread
        cap(resource.RLIMIT_NPROC, int(limits["processes"]))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # writing too much raises, not kills

