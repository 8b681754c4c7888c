"""The bot kata (notebook 7): ``play(view)`` and ``advise(view)`` proved legal.

A bot is judged by playing: seeded hands, dealt in turn under every rule preset, with the
learner's function in every seat it can hold (``play``: the box, then the captain, the
other seat played by ``greedy_bot``; ``advise``: the sitter, whose legal advice a greedy
captain follows).  Every decision must be an :class:`~box_gin.actions.Action` among the
view's legal actions (for ``advise``: an :class:`~box_gin.bots.Advice`, or an action,
that is legal for the captain), with no exception, within the time per decision.  The
first decision that fails is the verdict, with its seat, preset, seed and why.

The time is measured, not enforced: in the notebook a function that never returns hangs
the cell (the grader's sandbox stops it).

>>> from box_gin.bots import greedy_bot
>>> legality(greedy_bot, "play", hands=16).passed
True
>>> print(legality(lambda view: "gin", "play", hands=16).fault.why)
it returned 'gin', which is not an action: return one of view.legal_actions
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...bots import Advice, greedy_bot
from ...hand import Hand, Role
from ...i18n import _
from ...match import SitterView
from ...rules import PRESETS

#: The bot kata's notebook, and the functions it asks for (not yet graded by
#: ``box-gin check``: a view does not travel on the grader's wire; see docs/katas.md).
NOTEBOOK = (7, "07_write_a_bot")
FUNCTIONS = ("play", "advise")
#: The seats each kind of function holds.
SEATS: dict[str, tuple[Role, ...]] = {
    "play": (Role.BOX, Role.CAPTAIN),
    "advise": (Role.SITTER,),
}
#: Seconds a decision may take (generous: the grader's machine is busy).
DECISION_SECONDS = 2.0
#: How many hands check() plays by default, spread evenly over every preset and seat.
HANDS = 1000


@dataclass(frozen=True)
class Fault:
    """The first decision that failed."""

    seat: Role
    preset: str
    seed: int
    decision: int
    why: str


@dataclass(frozen=True)
class Legality:
    """What playing the seeded hands showed."""

    kind: str
    hands: int
    decisions: int
    #: The longest decision, in seconds (it varies with the machine's load), and the limit.
    slowest: float
    fault: Fault | None
    seconds: float = DECISION_SECONDS

    @property
    def passed(self) -> bool:
        return self.fault is None


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__
        text = "?"
    return text if len(text) <= 60 else text[:57] + "..."


def _judge(kind: str, value: Any, legal: tuple[Action, ...]) -> str | None:
    """Why ``value`` is not a legal answer, or None."""
    action = value.action if kind == "advise" and isinstance(value, Advice) else value
    if not isinstance(action, Action):
        return _("it returned {value}, which is not an action: return one of "
                 "view.legal_actions").format(value=_short(value))
    if action not in legal:
        return _("it returned {action}, which is not legal here; the legal actions were: "
                 "{legal}").format(action=action, legal=", ".join(str(a) for a in legal))
    return None


def deals(hands: int, seed: int, kind: str) -> list[tuple[str, Role, int]]:
    """The (preset, seat, deal seed) of each hand: every preset and seat in turn."""
    rng = random.Random(f"box-gin bot kata {kind} {seed}")
    combos = [(p, s) for p in PRESETS for s in SEATS[kind]]
    return [(*combos[i % len(combos)], rng.getrandbits(32)) for i in range(hands)]


def legality(fn: Callable[..., Any], kind: str = "play", *, hands: int = HANDS,
             seed: int = 0, seconds: float = DECISION_SECONDS) -> Legality:
    """Play ``hands`` seeded hands with ``fn`` as ``kind`` ("play" or "advise")."""
    if kind not in SEATS:
        raise ValueError(f"kind must be 'play' or 'advise', not {kind!r}")
    decisions, slowest = 0, 0.0
    for preset, seat, deal in deals(hands, seed, kind):
        hand = Hand.deal(PRESETS[preset], seed=deal)
        while not hand.is_over:
            role = hand.to_play
            assert role is not None
            view = hand.view(role)
            ours = role is seat or (seat is Role.SITTER and role is Role.CAPTAIN)
            if not ours:
                hand.apply(greedy_bot(view))
                continue
            asked = SitterView(view) if seat is Role.SITTER else view
            start = time.perf_counter()
            try:
                value = fn(asked)
            except Exception as exc:
                why: str | None = _("it raised {error}: {message}").format(
                    error=type(exc).__name__, message=str(exc)[:200])
            else:
                why = _judge(kind, value, view.legal_actions)
            took = time.perf_counter() - start
            slowest = max(slowest, took)
            if why is None and took > seconds:
                why = _("it took {took:.2f} s to decide; the limit is {limit:g} s").format(
                    took=took, limit=seconds)
            if why is not None:
                return Legality(kind, hands, decisions, slowest,
                                Fault(seat, preset, deal, len(view.history), why), seconds)
            decisions += 1
            action = value.action if isinstance(value, Advice) else value
            hand.apply(action)
    return Legality(kind, hands, decisions, slowest, None, seconds)
