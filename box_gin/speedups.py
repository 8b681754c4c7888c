"""The optional compiled path: a small C extension for the hottest kernels, off by default.

box-gin's engine is plain Python, and that stays the default.  When the extension
``box_gin._speedups`` was built at install time (it needs a C compiler; without one the
package installs and works without it), it can be switched on:

- for a whole process, by setting ``BOX_GIN_COMPILED=1`` in the environment before
  ``box_gin`` is imported;
- from code, with :func:`use_compiled` (and back off with ``use_compiled(False)``).

The compiled path gives exactly the same answers through exactly the same functions
(:func:`~box_gin.melds.best_melds`, :func:`~box_gin.knocking.best_discards`,
:meth:`~box_gin.hand.Hand.legal_actions`, ...): switching it on swaps the code of a few
functions for their compiled twins (the ``_..._compiled`` functions of ``melds``,
``knocking`` and ``hand``), so every reference to them follows and the pure path has no
switch to test on each call.

>>> import box_gin.speedups as speedups
>>> speedups.enabled() in (True, False)
True
"""

from __future__ import annotations

import os
import warnings
from types import CodeType, FunctionType

from . import hand, knocking, melds
from .i18n import _

__all__ = ["available", "enabled", "use_compiled"]

#: (function, its pure code, its compiled twin's code)
_SWAPS: list[tuple[FunctionType, CodeType, CodeType]] = []
for _function, _twin in (
    (melds._mask_of, melds._mask_of_compiled),
    (melds.best_melds, melds._best_melds_compiled),
    (melds.min_deadwood_mask, melds._min_deadwood_mask_compiled),
    (melds._discard_table, melds._discard_table_compiled),
    (knocking._deadwood_after_each, knocking._deadwood_after_each_compiled),
    (knocking._least_after_discard, knocking._least_after_discard_compiled),
    (hand.Hand.legal_actions, hand._legal_actions_compiled),
):
    _pure, _compiled = _function.__code__, _twin.__code__
    # A twin takes the same arguments and has no closure, so its code fits the function.
    assert _pure.co_varnames[:_pure.co_argcount] == _compiled.co_varnames[:_compiled.co_argcount]
    assert not _pure.co_freevars and not _compiled.co_freevars
    _SWAPS.append((_function, _pure, _compiled))  # type: ignore[arg-type]

_enabled = False


def available() -> bool:
    """Whether the compiled extension was built and loads."""
    return melds._compiled_ready()


def enabled() -> bool:
    """Whether the compiled path is in use."""
    return _enabled


def use_compiled(on: bool = True) -> None:
    """Switch the compiled path on (or off, with ``False``).

    Raises :class:`RuntimeError` when asked to switch it on and the extension is not
    available (it is built at install time, when a C compiler is found).
    """
    global _enabled
    if on and not available():
        raise RuntimeError(_(
            "box-gin's compiled path is not available: the extension box_gin._speedups was "
            "not built (it needs a C compiler at install time; reinstall with one, e.g. "
            "pip install -e .). The pure-Python path is in use."))
    for function, pure, compiled in _SWAPS:
        function.__code__ = compiled if on else pure
    _enabled = bool(on)


if os.environ.get("BOX_GIN_COMPILED", "").strip() == "1":
    if available():
        use_compiled(True)
    else:
        warnings.warn(_("BOX_GIN_COMPILED=1, but the compiled extension box_gin._speedups is "
                        "not built: using the pure-Python path"), RuntimeWarning, stacklevel=2)
