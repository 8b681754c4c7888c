"""The kit's own files: which they are (never a checkpoint, a cache or a learner's
scratch notebook), and the pure wheel built from them.

Standard library only, and loaded by its path where box-gin is not installed (the
JupyterLite build, ``lite.py``).  The tools and the tests list the kit's notebooks with
:func:`kit_files`; the notebook folders' ``conftest.py`` keep nbval off every other
notebook with :func:`not_the_kits_notebook`, and have its kernel started again when it
dies at its start (:func:`retry_kernel_starts`); Gradescope's bundle and the JupyterLite site
carry the wheel of :func:`build_pure_wheel`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Folders that are never the kit's own: JupyterLab's checkpoints, caches, environments,
#: build output, the version control's own.
NOT_THE_KITS = frozenset({
    ".ipynb_checkpoints", "__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache",
    ".ruff_cache", ".git", ".venv", ".venv-nbgrader", ".venv-lite", "build", "dist",
    "node_modules", ".virtual_documents", ".jupyter", ".ipython"})


def tracked_files(root: Path) -> set[str] | None:
    """The files git tracks under ``root`` (POSIX paths relative to it), or None when
    ``root`` is not a git checkout (a release tarball, a copy) or git is missing."""
    try:
        done = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--full-name", "."],
                              capture_output=True, check=False, timeout=120)
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-prefix"],
                             capture_output=True, text=True, check=False, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0 or top.returncode != 0:
        return None
    prefix = top.stdout.strip()
    names = (n.decode("utf-8", "surrogateescape") for n in done.stdout.split(b"\0") if n)
    return {n[len(prefix):] for n in names if n.startswith(prefix)}


def kit_files(root: Path, *patterns: str) -> list[Path]:
    """The kit's own files under ``root`` that match the glob ``patterns`` (relative to
    ``root``, such as ``"notebooks/*.ipynb"`` or ``"**/*.ipynb"``), sorted, each once.

    Never a JupyterLab checkpoint (``.ipynb_checkpoints/``), a cache, an environment or a
    learner's scratch file: in a git checkout only the files git tracks (and still
    there); elsewhere every match outside a hidden or cache folder (:data:`NOT_THE_KITS`)
    whose name does not start with ``Untitled``."""
    root = Path(root)
    tracked = tracked_files(root)
    found: set[Path] = set()
    for pattern in patterns:
        for path in root.glob(pattern):
            rel = path.relative_to(root)
            if not path.is_file():
                continue
            if tracked is not None:
                if rel.as_posix() not in tracked:
                    continue
            elif any(part in NOT_THE_KITS or part.startswith(".") for part in rel.parts[:-1]) \
                    or rel.name.startswith(("Untitled", ".")):
                continue
            found.add(path)
    return sorted(found)


def not_source(folder: str, names: list[str]) -> set[str]:
    """shutil.copytree's filter for a wheel's source copy: no compiled extension, no
    compiled catalog, no cache or environment, no notebook folder."""
    skip = {n for n in names if n in NOT_THE_KITS or (n.startswith(".") and n != ".gitignore")}
    skip |= {n for n in names if n.endswith((".so", ".pyd", ".mo", ".part", ".whl"))}
    if Path(folder, "pyproject.toml").is_file():  # the project's top: only what builds
        skip |= {n for n in names if n in (
            "tests", "notebooks", "solutions", "exercises", "benchmarks", "lite", "docs")}
    return skip


def build_pure_wheel(root: Path, dest: Path) -> Path:
    """Build box-gin's pure wheel (``BOX_GIN_NO_COMPILE=1``: no compiled extension) from
    a copy of the source tree at ``root`` into ``dest``; return the wheel.

    The build runs in a temporary copy, so the checkout's own files (its compiled
    ``box_gin/_speedups*.so``, its catalogs) are never touched.  Raises ``OSError``
    (with pip's complaint) when the build fails."""
    root, dest = Path(root), Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="box-gin-wheel-") as tmp:
        source = Path(tmp) / "src"
        shutil.copytree(root, source, ignore=not_source, symlinks=False)
        out = Path(tmp) / "out"
        env = {**os.environ, "BOX_GIN_NO_COMPILE": "1"}
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                               "--wheel-dir", str(out), str(source)],
                              capture_output=True, text=True, env=env, check=False)
        wheels = sorted(out.glob("box_gin-*.whl"))
        if done.returncode != 0 or len(wheels) != 1:
            lines = [line[:300] for line in (done.stderr or done.stdout).splitlines()
                     if not line.startswith("WARNING")]
            raise OSError("pip wheel " + str(root) + " failed:\n" + "\n".join(lines[-12:]))
        target = dest / wheels[0].name
        shutil.move(str(wheels[0]), target)
    return target


#: How many times nbval starts a notebook's kernel before a kernel that died at its start
#: fails the notebook (:func:`retry_kernel_starts`).
KERNEL_STARTS = 3


def retry_kernel_starts() -> None:
    """Have nbval start a notebook's kernel again when it dies before it answers, up to
    :data:`KERNEL_STARTS` times (the notebook folders' ``conftest.py`` call this).  On a
    machine running tests side by side, a kernel can lose the port ``jupyter_client``
    chose for it to another process before it binds it, and die; that is the machine's
    doing, not the notebook's.  Nothing a notebook's cells do is ever retried, nor a
    kernel that does not answer in time."""
    import importlib

    try:
        kernel = importlib.import_module("nbval.kernel")
    except ImportError:  # nbval is not installed: nothing to do
        return
    start = kernel.start_new_kernel
    if getattr(start, "retried", False):
        return

    def start_new_kernel(*args: object, **kwargs: object) -> object:
        for attempt in range(1, KERNEL_STARTS + 1):
            try:
                return start(*args, **kwargs)
            except RuntimeError as exc:  # nbval has shut the dead kernel down
                if attempt == KERNEL_STARTS or "died" not in str(exc):
                    raise
        raise AssertionError("not reached")

    start_new_kernel.retried = True  # type: ignore[attr-defined]
    setattr(kernel, "start_new_kernel", start_new_kernel)  # noqa: B010 (nbval is untyped)


def not_the_kits_notebook(collection_path: Path) -> bool | None:
    """pytest's ``pytest_ignore_collect`` for the notebook folders (their conftest.py):
    True for a notebook that is not the kit's own (a learner's scratch notebook, a
    checkpoint), so nbval never runs it; no opinion on anything else."""
    path = Path(collection_path)
    if path.suffix != ".ipynb":
        return None
    return True if path.resolve() not in kit_files(path.parent, path.name) else None
