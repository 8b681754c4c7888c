"""The staged copy of what a child may load: the few modules a learner may use and the
child's own script, read-only, in a folder of its own that the sandbox's uid can enter
(and the same files in memory, which bubblewrap copies in)."""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from contextlib import suppress
from pathlib import Path
from typing import Any

PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: The modules copied into the sandbox: what a learner may use, and the child itself.
STAGED = ("cards.py", "errors.py", "i18n.py", "views/__init__.py", "views/cards.py",
          "katas/wire.py", "katas/timer.py", "checker/runtime.py", "checker/child.py")
#: Where a root checker may stage for its children when TMPDIR is closed to them.
STAGE_PLACES = ("/tmp", "/var/tmp", "/dev/shm")


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


def stage_base(root: bool) -> tuple[str, str | None]:
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


def make_stage(root: bool) -> tuple[Path, dict[str, bytes], str | None]:
    """A read-only copy of the modules the child may load, in a folder of its own that the
    child's uid can enter; the same files in memory (what bubblewrap copies in); and the
    folder that kept the stage out of the children's reach, if any."""
    base, closed = stage_base(root)
    top = Path(tempfile.mkdtemp(prefix="box-gin-sandbox-", dir=base))
    os.chmod(top, 0o755)
    files = {}
    for name in STAGED:
        target = top / "box_gin" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        files[name] = (PACKAGE_DIR / name).read_bytes()
        target.write_bytes(files[name])
        os.chmod(target, 0o444)
    for folder in staged_folders(top):
        os.chmod(folder, 0o555)
    return top, files, closed


def staged_folders(top: Path) -> list[Path]:
    """The folders of the staged copy, deepest first."""
    folders = {(top / "box_gin" / name).parent for name in STAGED}
    return sorted(folders, key=lambda f: len(f.parts), reverse=True)


def unstage(top: Path) -> None:
    """Remove a staged copy, and any other staged under it (a bot's engine copy)."""
    folders = staged_folders(top) + [Path(base) / d for base, dirs, _files in os.walk(top)
                                      for d in dirs]
    for folder in folders:
        with suppress(OSError):
            os.chmod(folder, 0o755)
    shutil.rmtree(top, ignore_errors=True)


def remove_tree(folder: str) -> None:
    """Remove a child's folder, whatever modes it left on what it wrote."""
    def unlock(function: Any, path: str, info: Any) -> None:
        with suppress(OSError):
            parent = os.path.dirname(path)
            os.chmod(parent, stat.S_IRWXU)
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, stat.S_IRWXU)
            function(path)

    shutil.rmtree(folder, onerror=unlock)
