"""The views under their first name: ``from box_gin.display import Folded`` keeps working.

The HTML views live in :mod:`box_gin.views` (the card faces in ``box_gin.views.cards``,
the engine's other values in ``box_gin.views.html``); this module only re-exports them.
It stays because the notebooks import it (``Folded``, notebook 06) and because a kata's
code may import ``box_gin.display`` when it is graded: there, in the sandbox, it holds
the card faces only (see ``box_gin/checker/child.py``).
"""

from __future__ import annotations

from .views.cards import (
    STYLE,
    Folded,
    back_html,
    card_html,
    cards_html,
    deadwood_html,
    dir_attribute,
)
from .views.html import (
    DISCARDS_STYLE,
    arrangement_html,
    cut_html,
    deal_html,
    discard_analysis_html,
    hand_html,
    layoff_html,
    layoff_step_html,
    match_html,
    meld_html,
    result_html,
    roles_html,
    score_breakdown,
    score_html,
    score_line,
    sitter_view_html,
    view_html,
)

__all__ = [
    "DISCARDS_STYLE",
    "STYLE",
    "Folded",
    "arrangement_html",
    "back_html",
    "card_html",
    "cards_html",
    "cut_html",
    "deadwood_html",
    "deal_html",
    "dir_attribute",
    "discard_analysis_html",
    "hand_html",
    "layoff_html",
    "layoff_step_html",
    "match_html",
    "meld_html",
    "result_html",
    "roles_html",
    "score_breakdown",
    "score_html",
    "score_line",
    "sitter_view_html",
    "view_html",
]
