"""A kata notebook's hint for the most common first slip: ``check(is_set)`` run before the
cell that defines ``is_set``.

Python would answer in English (``NameError: name 'is_set' is not defined``); once a kata
notebook has imported :mod:`box_gin.katas` (its setup cell), IPython passes a
``NameError`` for a kata's name to :func:`name_error_hint`, which says, in the learner's
language, to run the kata's cell first.  Any other ``NameError`` shows as it always did.
Outside IPython (a script, the grader's sandbox) nothing is installed.
"""

from __future__ import annotations

import sys
from typing import Any

from ..i18n import _
from .specs import BY_NAME


def missing_kata(value: BaseException) -> str | None:
    """The kata whose function ``value`` (a ``NameError``) says is not defined, if any."""
    name = getattr(value, "name", None)
    return name if isinstance(name, str) and name in BY_NAME else None


def hint(name: str) -> str:
    """What to do when the kata ``name``'s function is not defined yet."""
    return _("{name} is not defined yet: run the cell of the kata, the one with "
             "def {name}(...), first; then run check({name}) again.").format(name=name)


def name_error_hint(shell: Any, etype: type[BaseException], value: BaseException,
                    tb: Any, tb_offset: int | None = None) -> list[str]:
    """IPython's custom exception handler (``set_custom_exc``) for ``NameError``."""
    name = missing_kata(value)
    if name is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
        return []
    text = hint(name)
    shell._showtraceback(etype, NameError(text), [f"NameError: {text}"])
    return [text]


def install() -> bool:
    """Give the running IPython (if any) the hint; True when installed."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None) if ipython is not None else None
    shell = get() if callable(get) else None
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    if getattr(shell, "custom_exceptions", ()) not in ((), (NameError,)):
        return False   # someone else's handler: leave it
    shell.set_custom_exc((NameError,), name_error_hint)
    return True
