"""Printed lines of a right-to-left language, shown right to left in a notebook.

Jupyter shows what a cell prints in a left-to-right block, so a Hebrew line such as
``הקלף הפתוח: 8D`` shows its value before its label, and its full stop first.
:func:`print_right_to_left` (called by the Hebrew notebooks' first cell) makes every
line printed from then on that holds a right-to-left letter read right to left: the line
goes inside a right-to-left isolate (U+2067 … U+2069), and the left-to-right runs in it
(cards, formulas, names) inside left-to-right isolates (:func:`box_gin.i18n.isolate_ltr`),
so that the label comes first in reading order and every card keeps its own order.
Lines without such a letter (Python values, English names) are printed as they are.
"""

from __future__ import annotations

import re
import sys
from typing import Any, TextIO

from .i18n import PDI, isolate_ltr

#: Right-to-left isolate.
RLI = "\u2067"
_RTL_LETTER = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")


def right_to_left_line(line: str) -> str:
    """``line`` as it is shown right to left: inside a right-to-left isolate, its
    left-to-right runs isolated, when it holds a right-to-left letter; else as it is.
    A line already in such an isolate is left alone."""
    if not _RTL_LETTER.search(line) or line.startswith(RLI):
        return line
    body = line.rstrip("\r")
    return RLI + isolate_ltr(body) + PDI + line[len(body):]


class RightToLeftLines:
    """A text stream that writes each whole line through :func:`right_to_left_line` to
    the stream it wraps; everything else (``set_parent``, ``fileno``) is the wrapped
    stream's, so that a Jupyter kernel still sends each line to the cell that printed it."""

    def __init__(self, stream: TextIO) -> None:
        self.wrapped = stream
        self._pending = ""

    def write(self, text: str) -> int:
        lines = (self._pending + text).split("\n")
        self._pending = lines.pop()
        if lines:
            self.wrapped.write("".join(right_to_left_line(line) + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self.wrapped.write(right_to_left_line(self._pending))
            self._pending = ""
        self.wrapped.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def print_right_to_left() -> None:
    """From now on, every printed line that holds a right-to-left letter reads right to
    left (see the module's docstring).  Calling it again changes nothing."""
    if isinstance(sys.stdout, RightToLeftLines):
        return
    sys.stdout = RightToLeftLines(sys.stdout)
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is not None:  # a line left without its newline goes out with its cell
        shell.events.register("post_run_cell", lambda *_args: sys.stdout.flush())
