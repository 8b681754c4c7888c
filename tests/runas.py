"""Run the kit as another user (uid 65534), wherever the checkout lives.

A checkout under a folder only its owner may enter (``mktemp -d``, ``/root``, a home of
mode 750) keeps its ``.venv`` and the interpreter behind it out of another user's reach.
So a test that runs something as another user gives that user its own copy, in a folder
every user may enter: an interpreter it can run (ours when it can, else the system's of
the same language), the kit's ``box_gin`` and every package the kit needs at run time
(its dependencies, found from the installed metadata and copied file by file).  The test
never skips for it: where no such interpreter exists it fails, saying why.
"""

from __future__ import annotations

import atexit
import importlib.metadata
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from box_gin.checker.staging import STAGE_PLACES, closed_folder

ROOT = Path(__file__).resolve().parent.parent
NOBODY = 65534
_RUNTIME: list[Path] = []


def open_temp_folder(prefix: str) -> Path:
    """A fresh temporary folder that every user may enter (mode 755): in TMPDIR when it
    is open to them, else in the first system temporary folder that is."""
    for base in dict.fromkeys((tempfile.gettempdir(), *STAGE_PLACES)):
        if os.path.isdir(base) and closed_folder(base) is None:
            top = Path(tempfile.mkdtemp(prefix=prefix, dir=base))
            os.chmod(top, 0o755)
            return top
    pytest.fail(f"no temporary folder every user may enter: TMPDIR={tempfile.gettempdir()}"
                f" and {', '.join(STAGE_PLACES)} are closed")


def open_python() -> str:
    """An interpreter of this Python (same major.minor) that every user may run."""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (os.path.realpath(sys.executable), f"/usr/bin/python{version}"):
        if os.path.exists(candidate) and closed_folder(os.path.dirname(candidate)) is None \
                and os.stat(candidate).st_mode & 0o001:
            return candidate
    pytest.fail(f"no Python {version} that another user may run: {sys.executable} lies "
                f"behind {closed_folder(os.path.dirname(os.path.realpath(sys.executable)))}"
                f" and /usr/bin/python{version} is missing; install python{version}")


def _runtime_distributions() -> list[importlib.metadata.Distribution]:
    """box-gin's run-time dependencies (no extras), with theirs, from the metadata."""
    seen: dict[str, importlib.metadata.Distribution] = {}
    todo = list(importlib.metadata.distribution("box-gin").requires or [])
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = requirement.name.lower().replace("_", "-")
        if name in seen:
            continue
        seen[name] = importlib.metadata.distribution(name)
        todo += seen[name].requires or []
    return list(seen.values())


def _open_modes(top: Path) -> None:
    for folder, _dirs, files in os.walk(top):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o644)


def runtime() -> tuple[str, Path]:
    """An interpreter and a PYTHONPATH folder (``box_gin`` and its dependencies) that
    every user may read; made once per test process, removed at its end."""
    if not _RUNTIME:
        top = open_temp_folder("box-gin-runtime-")
        atexit.register(shutil.rmtree, top, True)
        packages = top / "site"
        shutil.copytree(ROOT / "box_gin", packages / "box_gin",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        for dist in _runtime_distributions():
            for entry in dist.files or []:
                if entry.parts and entry.parts[0] == "..":  # scripts, not packages
                    continue
                source = Path(str(dist.locate_file(entry)))
                if source.is_file() and "__pycache__" not in entry.parts:
                    target = packages / entry
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, target)
        _open_modes(top)
        _RUNTIME.append(packages)
    return open_python(), _RUNTIME[0]


def open_copy(source: Path, target: Path) -> Path:
    """A copy of ``source`` that every user may read (folders 755, files 644)."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", ".*"))
    _open_modes(target)
    return target
