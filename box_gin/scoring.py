"""Scoring one hand: knock, undercut, gin and big gin.

>>> score_hand(knocker_deadwood=4, defender_deadwood=19, gin=False)
HandScore(winner=Side.KNOCKER, points=15, undercut=False, gin=False, big_gin=False)
>>> score_hand(8, 6, gin=False).points        # undercut: 10 + (8 - 6)
12
>>> score_hand(0, 0, gin=True).points         # gin is never undercut
25
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalActionError
from .i18n import _
from .rules import STANDARD, Rules


class Side(StrEnum):
    """The two sides of a knock."""

    KNOCKER = "knocker"
    DEFENDER = "defender"

    def __repr__(self) -> str:
        return f"Side.{self.name}"

    @property
    def label(self) -> str:
        """The side's name in the language in use."""
        return _("knocker") if self is Side.KNOCKER else _("defender")


@dataclass(frozen=True, slots=True)
class HandScore:
    """Who scores a hand, how much, and how."""

    winner: Side
    points: int
    undercut: bool
    gin: bool
    big_gin: bool = False


def score_hand(
    knocker_deadwood: int,
    defender_deadwood: int,
    gin: bool,
    rules: Rules = STANDARD,
    *,
    big_gin: bool = False,
    doubled: bool = False,
) -> HandScore:
    """Score a knock given both deadwood values (the defender's after layoffs).

    Knock, K < D: the knocker scores D - K.  Knock (not gin), K >= D: undercut, the
    defender scores the undercut bonus + K - D.  Gin: the knocker scores the gin bonus
    + D; big gin the big-gin bonus + D.  ``doubled`` doubles the points (Oklahoma spades).
    """
    for name, value in (("knocker_deadwood", knocker_deadwood),
                        ("defender_deadwood", defender_deadwood)):
        if not isinstance(value, int) or value < 0:
            raise IllegalActionError(
                _("{name} must be a whole number of 0 or more, not {value!r}").format(
                    name=name, value=value)
            )
    if (gin or big_gin) and knocker_deadwood:
        raise IllegalActionError(
            _("gin means no deadwood, but the knocker has {k}").format(k=knocker_deadwood)
        )
    factor = 2 if doubled else 1
    if big_gin:
        return HandScore(Side.KNOCKER, factor * (rules.big_gin_bonus + defender_deadwood),
                         False, True, True)
    if gin:
        return HandScore(Side.KNOCKER, factor * (rules.gin_bonus + defender_deadwood),
                         False, True)
    if knocker_deadwood < defender_deadwood:
        return HandScore(Side.KNOCKER, factor * (defender_deadwood - knocker_deadwood),
                         False, False)
    points = rules.undercut_bonus + knocker_deadwood - defender_deadwood
    return HandScore(Side.DEFENDER, factor * points, True, False)
