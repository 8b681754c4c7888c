"""The kit's own class graded once for a whole test run (the ``graded_class`` fixture of
``tests/conftest.py``), shared between pytest-xdist's workers through a file lock."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The class: every solution and exercise (a submission per language) and a wrong .py.
CLASS = (ROOT / "solutions", ROOT / "exercises", ROOT / "tests" / "submissions" /
         "run_ace_high.py")
SEED = 7


@dataclass(frozen=True)
class GradedClass:
    """Where the shared grading wrote its outputs."""

    folder: Path

    @property
    def book(self) -> Path:
        """The JSON gradebook (its rerun cache beside it)."""
        return self.folder / "book.json"

    @property
    def gradescope(self) -> Path:
        return self.folder / "gs"

    @property
    def key_dir(self) -> Path:
        """The key the rerun cache is signed with (``BOX_GIN_KEY_DIR``)."""
        return self.folder / "key"

    @property
    def students(self) -> dict[str, dict[str, Any]]:
        data = json.loads(self.book.read_text())
        return {s["student"]: s for s in data["students"]}

    def command(self, *more: str) -> list[str]:
        """``box-gin check`` of the same class with ``more`` options."""
        return ["check", *map(str, CLASS), "--seed", str(SEED), *more]


def shared_grading(folder: Path) -> GradedClass:
    """Grade the class into ``folder`` unless a worker already did (under its lock)."""
    folder.mkdir(parents=True, exist_ok=True)
    graded = GradedClass(folder)
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / "done").exists():
            env = dict(os.environ, BOX_GIN_KEY_DIR=str(graded.key_dir), LANG="C.UTF-8")
            done = subprocess.run(
                [sys.executable, "-m", "box_gin.cli", *graded.command(
                    "--json", str(graded.book), "--gradescope", str(graded.gradescope),
                    "-j", "2", "-q")], env=env, capture_output=True, text=True,
                timeout=1800, cwd=ROOT, check=False)
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
            (folder / "done").write_text("graded\n")
    return graded
