"""The katas: exercises where learners write the engine's core functions themselves.

In a notebook, ``check(best_melds)`` runs a kata's public tests and a search for a
counterexample on your function (``check(play)`` plays the bot kata's hands).
``box-gin check`` grades whole classes.

>>> from box_gin.katas import CASE_KATAS, KATAS
>>> len(KATAS), sum(k.points for k in KATAS), len(CASE_KATAS)
(18, 41, 16)
"""

from __future__ import annotations

from .core import Kata, KataResult
from .feedback import check
from .hints import install as _install_hint
from .specs import BY_NAME, CASE_KATAS, KATAS, NOTEBOOKS, katas_of

# In a kata notebook: check(is_set) before is_set's cell says so in the learner's language.
_install_hint()

__all__ = ["BY_NAME", "CASE_KATAS", "KATAS", "NOTEBOOKS", "Kata", "KataResult", "check", "katas_of"]
