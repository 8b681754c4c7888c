"""Measuring a bot on duplicate deals: each deal played with the seats swapped (one bot
against another, :func:`measure`), or with and without a sitter's advice
(:func:`measure_advice`).  The deals come from a public seed (``core.deal_seeds``), so
that anyone can measure again; a tournament's come from a secret.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..bots import greedy_bot
from ..hand import Hand, Role
from ..match import SitterView
from ..rules import STANDARD, Rules
from .core import deal_seeds, follows_advice
from .ratings import WinRate


@dataclass(frozen=True)
class Measurement:
    """A bot's wins over duplicate deals: its win rate (with a 95% interval) over the
    hands someone won, and how many hands were drawn."""

    wins: WinRate
    drawn: int

    @property
    def rate(self) -> float:
        return self.wins.rate

    @property
    def interval(self) -> tuple[float, float]:
        return self.wins.interval

    def __str__(self) -> str:
        return f"{self.wins} ({self.drawn} drawn)"


def play_hand(seed: int, rules: Rules, box: Callable[..., Any], captain: Callable[..., Any],
              sitter: Callable[..., Any] | None = None) -> Hand:
    """The hand of ``seed`` played to its end by ``box`` and ``captain`` (a captain
    advised by ``sitter`` is called with the advice too)."""
    hand = Hand.deal(rules, seed=seed)
    while not hand.is_over:
        role = hand.to_play
        assert role is not None
        view = hand.view(role)
        if role is Role.CAPTAIN and sitter is not None:
            advice = sitter(SitterView(view))
            action = captain(view, getattr(advice, "action", advice))
        else:
            action = (box if role is Role.BOX else captain)(view)
        hand.apply(action)
    return hand


def measure(bot: Callable[..., Any], against: Callable[..., Any] = greedy_bot, *,
            deals: int = 200, seed: int = 0, rules: Rules = STANDARD) -> Measurement:
    """``bot`` against ``against``, head to head, over ``deals`` duplicate deals: each
    deal is played twice, ``bot`` in the box then as captain (no sitter's advice)."""
    wins = games = drawn = 0
    for s in deal_seeds(seed, deals):
        for seat in (Role.BOX, Role.CAPTAIN):
            box, captain = (bot, against) if seat is Role.BOX else (against, bot)
            result = play_hand(s, rules, box, captain).result
            assert result is not None
            if result.winner is None:
                drawn += 1
                continue
            games += 1
            wins += result.winner is seat
    return Measurement(WinRate(wins, games), drawn)


@dataclass(frozen=True)
class AdviceMeasurement:
    """A captain's wins with a sitter's advice and without, on the same deals."""

    advised: WinRate
    alone: WinRate
    #: The deals the advised captain won and the lone one lost, and the reverse.
    better: int
    worse: int

    @property
    def difference(self) -> tuple[float, float, float]:
        """The gain in win rate with its 95% interval (paired, over the same deals)."""
        n = self.advised.games
        if n == 0:
            return 0.0, 0.0, 0.0
        d = (self.better - self.worse) / n
        var = (self.better + self.worse - (self.better - self.worse) ** 2 / n) / (n * n)
        half = 1.959964 * max(var, 0.0) ** 0.5
        return d, d - half, d + half


def measure_advice(captain: Callable[..., Any], sitter: Callable[..., Any],
                   against: Callable[..., Any] = greedy_bot, *, deals: int = 200,
                   seed: int = 0, rules: Rules = STANDARD) -> AdviceMeasurement:
    """A ``captain`` that follows legal advice, advised by ``sitter`` and then alone,
    against ``against`` in the box, on the same deals (drawn hands count as losses)."""
    advised_captain = follows_advice(captain)
    a = b = better = worse = 0
    seeds = deal_seeds(seed, deals)
    for s in seeds:
        with_advice = play_hand(s, rules, against, advised_captain, sitter).result
        alone = play_hand(s, rules, against, captain).result
        assert with_advice is not None and alone is not None
        won_a = with_advice.winner is Role.CAPTAIN
        won_b = alone.winner is Role.CAPTAIN
        a += won_a
        b += won_b
        better += won_a and not won_b
        worse += won_b and not won_a
    return AdviceMeasurement(WinRate(a, len(seeds)), WinRate(b, len(seeds)), better, worse)
