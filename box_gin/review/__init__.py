"""The review: every decision of a played hand rated and explained (docs/review.md).

A room above the bots, beside the tournament: :mod:`.playout` plays a hand out with the
greedy rollout policy on masks, :mod:`.evaluate` values every legal action of a decision
from what the seat could know, :mod:`.classify` rates and explains, :mod:`.records` reads
the records the kit writes, :mod:`.core` reviews whole hands, :mod:`.page` writes the
HTML page and :mod:`.cli` is ``box-gin review``.
"""

from __future__ import annotations

from .classify import Rating, rate
from .core import Decision, Review, ReviewedHand, SeatSummary, review_hand, review_hands
from .evaluate import ActionValue, Evaluation, evaluate
from .records import PlayedHand, played_hands, read_record

__all__ = [
    "ActionValue", "Decision", "Evaluation", "PlayedHand", "Rating", "Review",
    "ReviewedHand", "SeatSummary", "evaluate", "played_hands", "rate", "read_record",
    "review_hand", "review_hands",
]
