"""Writing files so that no reader ever sees half of one.

Standard library only, under every layer: the releases, the checker's reports, the
gradebook exports, the play app's saved games and the translated notebooks all write
through :func:`write_atomic`.  (Which files are the kit's own, and its wheel, are the
tools' business: ``box_gin/tools/kit.py``.)
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, so no reader sees half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
