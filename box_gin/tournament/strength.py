"""Measuring a bot in a notebook: its score over plain or duplicate deals with a 95%
interval, and the bot kata's ``check(play)`` / ``check(advise)``.

A game scores 1 for a win, 0 for a loss, 1/2 when the hand is drawn.  Over *plain*
deals every game has fresh cards (the bot's seat alternating); over *duplicate* deals
each deck is played twice, the bot in the box and then as captain, and the deal's score
is the mean of the two, so the luck of the cards cancels.  Either way the interval is
the mean plus or minus 1.96 standard errors of the scores it averages.

>>> from box_gin.bots import expert_bot, greedy_bot
>>> e = duplicate(expert_bot, greedy_bot, deals=4, seed=1)
>>> e.games, 0 <= e.low <= e.score <= e.high <= 1
(8, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import KIT_BOTS, greedy_bot
from ..hand import Role
from ..i18n import _, format_number, format_percent, format_short
from ..katas.specs.nb7_bots import HANDS, Legality, legality
from ..rules import STANDARD, Rules
from .core import deal_seeds
from .measure import AdviceMeasurement, measure_advice, play_hand
from .ratings import Z95

Bot = Callable[..., Any]


@dataclass(frozen=True)
class Estimate:
    """A mean score with its 95% interval, over ``games`` games (``units`` independent
    scores: games for plain deals, deals for duplicate ones)."""

    scores: tuple[float, ...]
    games: int

    @property
    def score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0

    @property
    def half_width(self) -> float:
        n = len(self.scores)
        if n < 2:
            return 1.0
        m = self.score
        var = sum((s - m) ** 2 for s in self.scores) / (n - 1)
        return Z95 * math.sqrt(var / n)

    @property
    def low(self) -> float:
        return max(0.0, self.score - self.half_width)

    @property
    def high(self) -> float:
        return min(1.0, self.score + self.half_width)

    def __str__(self) -> str:
        return _("{score} [{low}, {high}] over {games} games").format(
            score=format_percent(self.score), low=format_percent(self.low),
            high=format_percent(self.high), games=self.games)


def _score(bot: Bot, against: Bot, seed: int, seat: Role, rules: Rules) -> float:
    box, captain = (bot, against) if seat is Role.BOX else (against, bot)
    result = play_hand(seed, rules, box, captain).result
    assert result is not None
    return 0.5 if result.winner is None else float(result.winner is seat)


def plain(bot: Bot, against: Bot = greedy_bot, *, games: int = 200, seed: int = 0,
          rules: Rules = STANDARD) -> Estimate:
    """``bot`` against ``against`` over ``games`` games, each on fresh cards, the bot
    in the box for the even games and captain for the odd ones."""
    rng = random.Random(f"box-gin plain deals {seed}")
    scores = tuple(_score(bot, against, rng.getrandbits(63),
                          Role.BOX if i % 2 == 0 else Role.CAPTAIN, rules)
                   for i in range(games))
    return Estimate(scores, games)


def duplicate(bot: Bot, against: Bot = greedy_bot, *, deals: int = 100, seed: int = 0,
              rules: Rules = STANDARD) -> Estimate:
    """``bot`` against ``against`` over ``deals`` duplicate deals (two games each)."""
    scores = tuple((_score(bot, against, s, Role.BOX, rules)
                    + _score(bot, against, s, Role.CAPTAIN, rules)) / 2
                   for s in deal_seeds(seed, deals))
    return Estimate(scores, 2 * deals)


#: The reference bots a learner's bot is measured against (made afresh from the seed
#: for each measurement, so that the random bot plays the same moves every time).
REFERENCES: dict[str, Callable[[int], Bot]] = {
    f"{name}_bot": KIT_BOTS[name].make for name in ("random", "greedy", "expert")}


def _pc(share: float, signed: bool = False) -> str:
    """A share as a whole percentage of the language in use (``+`` before a gain)."""
    text = format_percent(share, 0)
    return "+" + text if signed and share > 0 else text


@dataclass(frozen=True)
class BotCheck:
    """What ``check(play)`` or ``check(advise)`` found: legality, then strength."""

    legality: Legality
    #: play: the score against each reference bot; advise: the advised greedy captain.
    strength: dict[str, Estimate]
    advice: AdviceMeasurement | None

    @property
    def passed(self) -> bool:
        return self.legality.passed

    def lines(self) -> list[str]:
        leg = self.legality
        if leg.fault is not None:
            return [_("✘ {name}: not legal.").format(name=leg.kind), leg.fault.text()]
        out = [_("✔ {name}: legal in {hands} hands, every seat and rule preset "
                 "({decisions} decisions, each within {limit} s of CPU time).").format(
            name=leg.kind, hands=format_number(leg.hands), decisions=format_number(leg.decisions),
            limit=format_short(leg.seconds))]
        for ref, est in self.strength.items():
            out.append(_("Against {bot}: scores {score}, 95% interval "
                         "[{low}, {high}], over {games} games.").format(
                bot=ref, score=_pc(est.score), low=_pc(est.low), high=_pc(est.high),
                games=est.games))
        if self.advice is not None:
            gain, low, high = self.advice.difference
            out.append(_("A greedy captain you advise wins {advised} of its games, "
                         "{alone} alone: a gain of {gain}, 95% interval "
                         "[{low}, {high}].").format(
                advised=_pc(self.advice.advised.rate), alone=_pc(self.advice.alone.rate),
                gain=_pc(gain, signed=True), low=_pc(low, signed=True),
                high=_pc(high, signed=True)))
        return out

    def __repr__(self) -> str:
        return "\n".join(self.lines())


def check(fn: Bot, kind: str | None = None, *, hands: int = HANDS, deals: int = 50,
          seed: int = 0, against: Sequence[str] = tuple(REFERENCES)) -> BotCheck:
    """The bot kata's check: ``check(play)`` or ``check(advise)`` (the kind is read
    from the function's name, or given).  The kata's fixed hands and ``hands`` hands
    shuffled from ``seed`` prove it legal, as ``box-gin check`` does; then ``deals``
    duplicate deals measure it against each reference bot in ``against``."""
    name = str(kind or getattr(fn, "__name__", ""))
    if name not in ("play", "advise"):
        raise ValueError(_("check() takes your play or advise function, not {name!r}")
                         .format(name=name))
    leg = legality(fn, name, hands=hands, seed=seed)
    strength: dict[str, Estimate] = {}
    advice = None
    if leg.passed and name == "play":
        strength = {ref: duplicate(fn, REFERENCES[ref](seed), deals=deals, seed=seed)
                    for ref in against}
    elif leg.passed:
        advice = measure_advice(greedy_bot, fn, deals=2 * deals, seed=seed)
    return BotCheck(leg, strength, advice)
