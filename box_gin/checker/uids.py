"""The sandboxes' uids, when the checker is root: a uid of its own for each concurrent
child, claimed machine-wide by a lock (``/run/lock/box-gin-uids/``, whatever ``TMPDIR``),
and taken only when no process runs as it, so that two graders side by side never share
one and each kills only what it started."""

from __future__ import annotations

import fcntl
import os
import stat
import tempfile
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path

from ..i18n import _
from .caps import SandboxError

#: The first uid of the sandboxes when the checker is root (one uid per concurrent child);
#: ``$BOX_GIN_SANDBOX_UID`` moves it (read when a run claims its uids).
UID_BASE = 3210000
#: How many uids from UID_BASE runs may claim (several runs at once each take their own).
UID_RANGE = 1024
#: Where uid claims live: fixed system places, the same for every run whatever its
#: TMPDIR (the first that exists and is writable; else TMPDIR, said in the output).
LOCK_PLACES = ("/run/lock", "/var/lock")


def lock(path: Path) -> int | None:
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
            return own_folder(Path(place) / "box-gin-uids")
    return own_folder(Path(tempfile.gettempdir()) / f"box-gin-uids-{os.geteuid()}")


def own_folder(folder: Path) -> Path:
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
    return processes_of([uid]).get(uid, [])


def processes_of(uids: Iterable[int]) -> dict[int, list[int]]:
    """The live processes running as each of ``uids`` (real, effective or saved; not
    zombies), by uid, the uids with none left out: one look at ``/proc`` for them all."""
    wanted = {str(uid).encode(): uid for uid in uids}
    found: dict[int, list[int]] = {}
    if not wanted:
        return found
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as f:
                status = f.read(4096)
        except OSError:
            continue
        owners = _field(status, b"\nUid:").split()[:3]
        mine = {wanted[u] for u in owners if u in wanted}
        if mine and not _field(status, b"\nState:").lstrip().startswith((b"Z", b"X")):
            for uid in mine:
                found.setdefault(uid, []).append(int(entry))
    return found


def _field(status: bytes, key: bytes) -> bytes:
    """A field of a ``/proc/PID/status`` text (``key`` led by its newline), or b""."""
    start = status.find(key)
    if start < 0:
        return b""
    start += len(key)
    end = status.find(b"\n", start)
    return status[start:] if end < 0 else status[start:end]
