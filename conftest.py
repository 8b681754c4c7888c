"""pytest's set-up for the whole checkout: the notebooks nbval collects are the kit's own
(``box_gin.files.kit_files``), never a learner's scratch notebook (an Untitled.ipynb, a
copy left in notebooks/ or solutions/) nor a JupyterLab checkpoint."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from box_gin.files import kit_files

ROOT = Path(__file__).resolve().parent


@cache
def _kit_notebooks() -> frozenset[Path]:
    return frozenset(kit_files(ROOT, "**/*.ipynb"))


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """Leave out a notebook that is not the kit's; no opinion on anything else."""
    if collection_path.suffix != ".ipynb" or ROOT not in collection_path.parents:
        return None
    return True if collection_path.resolve() not in _kit_notebooks() else None
