"""Ratings from game results, with openskill (Plackett-Luce), and their intervals.

Each game with a winner is two contests: the box against the captain, and the box
against the sitter (who shares its captain's result; the box's rating moves once, from
the first).  A drawn game moves nobody.  The games are rated in schedule order, so the
same results always give the same ratings.  A bot's interval is mu +- 1.96 sigma; its
place is one more than the number of bots whose interval lies wholly above its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .core import GameResult

#: The half-width of a 95% interval, in standard deviations.
Z95 = 1.959964


@dataclass(frozen=True)
class Rating:
    """A bot's rating: mean, uncertainty, and its 95% interval."""

    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z95 * self.sigma


def rate(names: Sequence[str], results: Iterable[GameResult]) -> dict[str, Rating]:
    """Each bot's rating after ``results`` (in the order given)."""
    # openskill is the tournament extra's (the browser kernel of JupyterLite has none).
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for game in results:
        if game.winner is None:
            continue
        box, captain, sitter = (game.seats[s] for s in ("box", "captain", "sitter"))
        ranks = [0.0, 1.0] if game.winner == "box" else [1.0, 0.0]
        before = ratings[box]
        [[new_box], [new_captain]] = model.rate([[before], [ratings[captain]]], ranks=ranks)
        [[_ignored], [new_sitter]] = model.rate([[before], [ratings[sitter]]], ranks=ranks)
        ratings[box], ratings[captain], ratings[sitter] = new_box, new_captain, new_sitter
    return {name: Rating(r.mu, r.sigma) for name, r in ratings.items()}


def places(ratings: dict[str, Rating]) -> dict[str, int]:
    """Each bot's place: 1 + the number of bots whose interval lies wholly above its own
    (so bots whose intervals overlap are never ranked as if one were surely better)."""
    return {name: 1 + sum(other.low > r.high for other in ratings.values())
            for name, r in ratings.items()}


@dataclass(frozen=True)
class WinRate:
    """A share of games won with its 95% Wilson interval."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        n = self.games
        if n == 0:
            return 0.0, 1.0
        p = self.wins / n
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    @property
    def low(self) -> float:
        return self.interval[0]

    @property
    def high(self) -> float:
        return self.interval[1]

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.rate:.1%} [{low:.1%}, {high:.1%}] of {self.games}"
