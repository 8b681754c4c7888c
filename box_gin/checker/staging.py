"""The staged copy of what a child may load: the few modules a learner may use and the
child's own script, read-only, in a folder of its own that the sandbox's uid can enter
(and the same files in memory, which bubblewrap copies in).

Each staged module comes with its bytecode, compiled here by the checker
(:func:`with_bytecode`): a child runs with ``-B`` in a read-only sandbox, so without it
every child would compile every module it imports from source again (about 40 ms of a
bot child's start)."""

from __future__ import annotations

import importlib.util
import marshal
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path, PurePosixPath
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


def bytecode_name(name: str) -> str | None:
    """Where the bytecode of the staged module ``name`` goes (``katas/wire.py`` ->
    ``katas/__pycache__/wire.cpython-311.pyc``), for this interpreter; None for a file
    that is not a module, or where the interpreter keeps no bytecode cache."""
    tag = sys.implementation.cache_tag
    path = PurePosixPath(name)
    if tag is None or path.suffix != ".py":
        return None
    return str(path.parent / "__pycache__" / f"{path.stem}.{tag}.pyc")


def with_bytecode(files: dict[str, bytes]) -> dict[str, bytes]:
    """``files`` (staged names -> bytes) and each module's bytecode beside it, as a
    *checked* hash-based pyc (PEP 552): the child's interpreter hashes the staged source
    and uses the bytecode only if it was compiled from exactly that source, so a stale or
    mismatched file is never run, merely ignored.  An interpreter of another version
    looks for another file name (its cache tag) or rejects the magic number, and compiles
    the source as before."""
    out = dict(files)
    for name, source in files.items():
        target = bytecode_name(name)
        if target is None:
            continue
        code = compile(source, f"/box/box_gin/{name}", "exec", dont_inherit=True, optimize=0)
        out[target] = b"".join((importlib.util.MAGIC_NUMBER, (0b11).to_bytes(4, "little"),
                                importlib.util.source_hash(source), marshal.dumps(code)))
    return out


def write_stage(top: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` under ``top/box_gin``, every file and folder read-only (``top``
    itself too)."""
    for name, data in files.items():
        target = top / "box_gin" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        os.chmod(target, 0o444)
    for folder in [*staged_folders(top, files), top]:
        os.chmod(folder, 0o555)


def make_stage(root: bool) -> tuple[Path, dict[str, bytes], str | None]:
    """A read-only copy of the modules the child may load (and their bytecode), in a
    folder of its own that the child's uid can enter; the same files in memory (what
    bubblewrap copies in); and the folder that kept the stage out of the children's
    reach, if any."""
    base, closed = stage_base(root)
    top = Path(tempfile.mkdtemp(prefix="box-gin-sandbox-", dir=base))
    files = with_bytecode({name: (PACKAGE_DIR / name).read_bytes() for name in STAGED})
    write_stage(top, files)
    os.chmod(top, 0o755)
    return top, files, closed


def staged_folders(top: Path, names: Iterable[str] = STAGED) -> list[Path]:
    """The folders of the staged copy of ``names``, deepest first (``top`` not
    included)."""
    folders = {(top / "box_gin" / name).parent for name in names}
    folders |= {p for f in folders for p in f.parents if top in p.parents}
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
