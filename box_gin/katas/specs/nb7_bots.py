"""The bot kata (notebook 7): ``play(view)`` and ``advise(view)`` proved legal.

A bot is judged by playing: hands dealt under every rule preset, with the learner's
function in every seat it can hold (``play``: the box, then the captain, the other seat
played by ``greedy_bot``; ``advise``: the sitter, whose legal advice a greedy captain
follows).  The hands are the kata's fixed hands first (:data:`CORNERS`: stacked decks
that lead at once where few shuffled hands go, the same in every run), then
:data:`HANDS` hands shuffled from the run's seed, every preset and seat in turn.  Every
decision must be an :class:`~box_gin.actions.Action` among the view's legal actions (for
``advise``: an :class:`~box_gin.bots.Advice`, or an action, that is legal for the
captain), with no exception, within its time (:class:`Timing`: seconds of CPU time, so
that a busy machine changes nothing, with the clock as a safety for a decision that
waits).  The first decision that fails is the verdict, with its seat, preset, hand and
why (:class:`Fault`).

One play serves both checks: :func:`legality` runs the function here, in the notebook's
kernel (``check(play)``), and ``box-gin check`` runs it in the checker's sandbox, asking
the child for each decision (``box_gin/checker/bots.py`` calls :func:`play_hands` with
an ``ask`` of its own).  The hands, the judge and the verdict are the same.

>>> from box_gin.bots import greedy_bot
>>> legality(greedy_bot, "play", hands=16).passed
True
>>> print(legality(lambda view: "gin", "play", hands=16).fault.why)
it returned 'gin', which is not an action: return one of view.legal_actions
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...actions import Action
from ...bots import Advice, greedy_bot
from ...cards import Card, full_deck
from ...hand import Hand, Role, SeatView
from ...i18n import _, format_number, format_short
from ...match import SitterView
from ...rules import PRESETS
from ..core import Kata, KataResult
from ..timer import Rang, arm, clock, disarm, timers, unqueued
from .nb7_words import fault_text, why_text

#: The bot kata's notebook, and the functions it asks for.
NOTEBOOK = (7, "07_write_a_bot")
FUNCTIONS = ("play", "advise")
#: The seats each kind of function holds.
SEATS: dict[str, tuple[Role, ...]] = {
    "play": (Role.BOX, Role.CAPTAIN),
    "advise": (Role.SITTER,),
}
#: CPU seconds one decision may take (generous: a decision of the reference bots takes
#: a millisecond or less).
DECISION_SECONDS = 2.0
#: Seconds on the clock one decision may take: a safety, far above the CPU time, for a
#: decision that waits or sleeps.
DECISION_WALL_SECONDS = 10.0
#: CPU seconds all the decisions of one function may take, over all its hands.
TOTAL_SECONDS = 30.0
#: Seconds on the clock all of them may take.
TOTAL_WALL_SECONDS = 60.0
#: How many shuffled hands are played, spread evenly over every preset and seat (after
#: the fixed hands).
HANDS = 256


def cpu_timer(limit: float) -> float:
    """When the CPU timer of a decision rings: well after its limit, since the timer
    counts CPU time more coarsely than the measure that decides (on a virtual machine
    it was seen to ring at 0.93 of its time by ``time.process_time``)."""
    return 1.25 * limit + 0.05


@dataclass(frozen=True)
class Timing:
    """The time a bot may take, in seconds."""

    #: CPU time of one decision.
    decision: float = DECISION_SECONDS
    #: The clock, for one decision.
    wall: float = DECISION_WALL_SECONDS
    #: CPU time of all the decisions of the kata.
    total: float = TOTAL_SECONDS
    #: The clock, for all of them.
    total_wall: float = TOTAL_WALL_SECONDS


# -- the hands ----------------------------------------------------------------------

#: The fixed hands, by name: (the judged seat's ten cards, the other seat's, the upcard,
#: the stock's first cards, and the seed of the fixed order the rest of the deck follows).
#:
#: - ``gin-now``: the seat's ten cards all meld and the upcard, the stock's top card and
#:   the card after it each extend a meld, so that whatever the seat does first (take,
#:   or pass and draw) it may knock for gin, or go big gin where the rules allow it; the
#:   other seat's cards make no meld with any of them (it lets the upcard go by).
#: - ``ace-up``: an ace of spades turned up (in Oklahoma the knock limit is 0, gin only,
#:   and a spade doubles) and ten cards for each seat that make no meld; the rest of the
#:   deck in an order under which, in Oklahoma, the reference bots and the solution play
#:   the stock out to its last cards (unless the judged seat makes gin first).
CORNERS: dict[str, tuple[str, str, str, str, int]] = {
    "gin-now": ("2H 3H 4H 7C 7D 7S 9S TS JS QS", "AC 3C 6C 9C JC 2D 4D 8D TD QD", "5H",
                "KS 8S", 0),
    "ace-up": ("2C 5C 8C JC 4D 7D TD KD 4S 7S", "TC KC 2D 5D 8D JD 3H 6H 9H QH", "AS", "",
               14),
}


def _cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def corner_deck(name: str, seat: Role) -> list[Card]:
    """The deck of the fixed hand ``name`` with the judged cards in ``seat`` (the sitter
    judges the captain's)."""
    *texts, order = CORNERS[name]
    mine, theirs, upcard, top = (_cards(t) for t in texts)
    captain, box = (theirs, mine) if seat is Role.BOX else (mine, theirs)
    used = {*mine, *theirs, *upcard, *top}
    rest = [c for c in full_deck() if c not in used]
    random.Random(f"box-gin bot kata {name} {order}").shuffle(rest)
    dealt = [card for pair in zip(captain, box, strict=True) for card in pair]
    return [*dealt, *upcard, *top, *rest]


@dataclass(frozen=True)
class Deal:
    """One hand of the kata: its rules preset, the seat judged, and its cards: shuffled
    from ``seed`` (a number), or the fixed hand of that name."""

    preset: str
    seat: Role
    seed: int | str

    def hand(self) -> Hand:
        """The hand, dealt."""
        rules = PRESETS[self.preset]
        if isinstance(self.seed, str):
            return Hand.deal(rules, deck=corner_deck(self.seed, self.seat))
        return Hand.deal(rules, seed=self.seed)


def deals(hands: int, seed: int, kind: str) -> list[tuple[str, Role, int]]:
    """The (preset, seat, deal seed) of each shuffled hand: every preset and seat in
    turn."""
    rng = random.Random(f"box-gin bot kata {kind} {seed}")
    combos = [(p, s) for p in PRESETS for s in SEATS[kind]]
    return [(*combos[i % len(combos)], rng.getrandbits(32)) for i in range(hands)]


def all_deals(kind: str, hands: int = HANDS, seed: int = 0) -> list[Deal]:
    """Every hand the kata plays, in order: the fixed hands in every preset and seat,
    then ``hands`` shuffled from ``seed``."""
    fixed = [Deal(p, s, name) for name in CORNERS for p in PRESETS for s in SEATS[kind]]
    return fixed + [Deal(p, s, d) for p, s, d in deals(hands, seed, kind)]


# -- one decision, and its judge --------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """What one decision gave: the action the function returned (None: it returned no
    action, and ``shown`` is what it returned, in short); or the exception it raised
    (its type's name and its message); or why it stopped (``"cpu"``: its CPU timer
    rang; ``"wall"``: the clock's; in the sandbox, why its process went: ``"exited"``,
    ``"too_much"``, ``"protocol"``); and the CPU time and the time on the clock it
    took, less what the kernel counts it waiting for a CPU (a busy machine lengthens
    computing, which the CPU time judges, and must not make it look like waiting)."""

    action: Action | None = None
    shown: str = ""
    raised: tuple[str, str] | None = None
    stopped: str | None = None
    cpu: float = 0.0
    wall: float = 0.0


def short(value: Any) -> str:
    """A returned value, in at most 60 characters."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__
        text = "?"
    return text if len(text) <= 60 else text[:57] + "..."


def described(kind: str, value: Any) -> tuple[Action | None, str]:
    """What the function returned: the action (an Advice's, for ``advise``), else None
    and the value in short."""
    action = value.action if kind == "advise" and isinstance(value, Advice) else value
    if isinstance(action, Action):
        return action, ""
    return None, short(value)


#: A reason, as the judge gives it: its id and its values.
Reason = tuple[str, dict[str, Any]]


def judge(kind: str, answer: Answer, legal: Sequence[Action], timing: Timing
          ) -> Reason | None:
    """Why one decision fails, or None: first its time, then what it did."""
    if answer.cpu > timing.decision or answer.stopped == "cpu":
        return "slow", {"took": round(answer.cpu, 2), "limit": timing.decision,
                        "stopped": answer.stopped == "cpu"}
    if answer.stopped == "wall" or answer.wall > timing.wall:
        return "stalled", {"limit": timing.wall, "cpu": timing.decision}
    if answer.stopped is not None:
        return "gone", {"gone": answer.stopped}
    if answer.raised is not None:
        error, message = answer.raised
        if error == "NotImplementedError":
            return "not_written", {}
        return "raised", {"error": error, "message": message}
    if answer.action is None:
        return "not_action", {"value": answer.shown}
    if answer.action not in legal:
        return "illegal", {"action": str(answer.action), "legal": [str(a) for a in legal]}
    return None


@dataclass(frozen=True)
class Fault:
    """The first decision that failed: where (the seat, the preset, the hand: its seed,
    or a fixed hand's name; the decision's number in the hand, from 0) and why (a
    reason's id and its values, :func:`why_text`)."""

    seat: Role
    preset: str
    seed: int | str
    decision: int
    reason: str
    values: dict[str, Any] = field(default_factory=dict)
    kind: str = "play"

    @property
    def why(self) -> str:
        """Why, in words."""
        return why_text(self.reason, self.values, self.kind)

    def data(self) -> dict[str, Any]:
        """The fault as plain data: a verdict's note values (:func:`fault_text`)."""
        return {"kind": self.kind, "seat": self.seat.value, "preset": self.preset,
                "hand": self.seed, "decision": self.decision, "why": self.reason,
                **self.values}

    def text(self) -> str:
        """Where and why, in words."""
        return fault_text(self.data())


@dataclass(frozen=True)
class Legality:
    """What playing the hands showed."""

    kind: str
    hands: int
    decisions: int
    #: The longest decision, in CPU seconds (it varies a little from run to run).
    slowest: float
    fault: Fault | None
    #: The CPU seconds a decision may take.
    seconds: float = DECISION_SECONDS
    #: The CPU seconds of all the decisions.
    cpu: float = 0.0

    @property
    def passed(self) -> bool:
        return self.fault is None


# -- playing the hands --------------------------------------------------------------

Ask = Callable[[Deal, SeatView], Answer]
#: The answer of a decision that was never asked: the process that was to answer it
#: stopped at another decision of the same batch (which is the one judged).
UNASKED = "unasked"
#: Many decisions asked at once: (the deal, the view) of each, in the order given; an
#: answer for each, in that order.
AskMany = Callable[[Sequence[tuple[Deal, SeatView]]], list[Answer]]


def play_hands(kind: str, hands: Sequence[Deal], ask: Ask, timing: Timing = Timing()
               ) -> Legality:
    """Play ``hands``, the learner's seat asked with ``ask(deal, view)`` (for ``advise``
    the view is the captain's, which the sitter watches), the other seat by
    ``greedy_bot``; the first decision that fails, in the hands' order (see
    :func:`play_lockstep`, which this is with one decision asked at a time).  Once a
    decision of a round runs past its time, the round's others are not asked: one slow
    decision costs its time once, not once a hand."""

    def ask_many(batch: Sequence[tuple[Deal, SeatView]]) -> list[Answer]:
        out: list[Answer] = []
        for deal, view in batch:
            if out and (out[-1].stopped == UNASKED or _over_time(out[-1], timing)):
                out.append(Answer(stopped=UNASKED))
            else:
                out.append(ask(deal, view))
        return out

    return play_lockstep(kind, hands, ask_many, timing)


def _over_time(answer: Answer, timing: Timing) -> bool:
    """Whether a decision ran past its CPU time or the clock's safety."""
    return answer.stopped in ("cpu", "wall") or answer.cpu > timing.decision \
        or answer.wall > timing.wall


class Pipeline(Protocol):
    """An asker with a batch of decisions in flight while the caller goes on: ``send``
    a batch (a ticket back), ``receive`` its answers later, in the batch's order.  At
    most one batch is in flight: each is received before the next is sent."""

    def send(self, items: Sequence[tuple[Deal, SeatView]]) -> Any: ...

    def receive(self, ticket: Any) -> list[Answer]: ...


class _AtOnce:
    """:data:`AskMany` as a :class:`Pipeline` that asks when received (nothing in
    flight: the hands are played in the same order, one batch after the other)."""

    def __init__(self, ask_many: AskMany) -> None:
        self.ask_many = ask_many

    def send(self, items: Sequence[tuple[Deal, SeatView]]) -> Any:
        return items

    def receive(self, ticket: Any) -> list[Answer]:
        return self.ask_many(ticket)


#: The hands are played in this many groups, taking turns: while one group's decisions
#: are with the learner's process, the other group's hands are played here.
GROUPS = 2


def play_lockstep(kind: str, hands: Sequence[Deal], ask: AskMany | Pipeline,
                  timing: Timing = Timing()) -> Legality:
    """Play ``hands`` side by side: the hands, in :data:`GROUPS` groups that take turns,
    are each played (the other seat by ``greedy_bot``) until the learner's seat must
    decide, and a group's decisions are asked at once (``ask``: a function of the batch,
    or a :class:`Pipeline`, whose batch is computed while the other group is played).

    The verdict is the one of playing the hands one after the other: the fault reported
    is the first in the hands' order (a hand is played on until every hand before it
    has finished or failed; the hands after a failed one no longer matter).  Only what
    stops the whole play is reported where it was noticed: all the decisions' time over
    its limit, or a decision that leaves nothing to ask (a process gone, a stall)."""
    if kind not in SEATS:
        raise ValueError(f"kind must be 'play' or 'advise', not {kind!r}")
    pipe: Pipeline = _AtOnce(ask) if callable(ask) else ask
    games = [deal.hand() for deal in hands]
    answered: list[list[Answer]] = [[] for _ in hands]
    faults: dict[int, Fault] = {}
    limit = len(hands)  # the hands from here on no longer matter
    groups = [list(range(g, len(hands), GROUPS)) for g in range(GROUPS)]
    total_cpu = total_wall = 0.0
    stop: int | None = None  # the hand whose fault stopped the whole play

    def advance(group: list[int]) -> list[tuple[int, SeatView]]:
        """Play each hand of ``group`` up to the learner's next decision."""
        batch: list[tuple[int, SeatView]] = []
        for i in group:
            if i >= limit:
                continue
            hand, deal = games[i], hands[i]
            while not hand.is_over:
                role = hand.to_play
                assert role is not None
                view = hand.view(role)
                if role is deal.seat or (deal.seat is Role.SITTER and role is Role.CAPTAIN):
                    batch.append((i, view))
                    break
                hand.apply(greedy_bot(view))
        return batch

    ready: list[list[tuple[int, SeatView]]] = [[] for _ in groups]

    def launch(g: int) -> tuple[int, list[tuple[int, SeatView]], Any] | None:
        """Send group ``g``'s decisions (those that still matter), if any."""
        batch = [(i, v) for i, v in ready[g] if i < limit]
        ready[g] = []
        return (g, batch, pipe.send([(hands[i], v) for i, v in batch])) if batch else None

    flight = None
    for g in range(GROUPS):
        ready[g] = advance(groups[g])
        flight = flight or launch(g)
    while flight is not None:
        g, batch, ticket = flight
        answers = pipe.receive(ticket)
        if len(answers) != len(batch):
            raise ValueError("ask_many answered a different number of decisions")
        flight = None
        if stop is None:  # the next group's batch goes while this one is judged
            for k in range(1, GROUPS):
                flight = launch((g + k) % GROUPS)
                if flight is not None:
                    break
        for (i, view), answer in zip(batch, answers, strict=True):
            if i >= limit or stop is not None or answer.stopped == UNASKED:
                continue
            answered[i].append(answer)
            total_cpu, total_wall = total_cpu + answer.cpu, total_wall + answer.wall
            why = judge(kind, answer, view.legal_actions, timing)
            whole = False
            if why is None and total_cpu > timing.total:
                why, whole = ("slow_overall", {"took": round(total_cpu, 1),
                                               "limit": timing.total}), True
            if why is None and total_wall > timing.total_wall:
                why, whole = ("stalled_overall", {"took": round(total_wall, 1),
                                                  "limit": timing.total_wall}), True
            if why is None:
                assert answer.action is not None
                games[i].apply(answer.action)
                continue
            deal = hands[i]
            faults[i] = Fault(deal.seat, deal.preset, deal.seed, len(view.history), *why,
                              kind=kind)
            limit = min(limit, i)
            if whole or answer.stopped in ("wall", "exited", "too_much", "protocol"):
                stop = i
        if stop is None:
            groups[g] = [i for i, _view in batch if i < limit and i not in faults]
            ready[g] = advance(groups[g])
            flight = flight or launch(g)
    if stop is not None:
        counted = [a for i in range(len(hands)) for a in answered[i]]
        fault: Fault | None = faults[stop]
    elif faults:
        first = min(faults)
        counted = [a for i in range(first + 1) for a in answered[i]]
        fault = faults[first]
    else:
        counted = [a for i in range(len(hands)) for a in answered[i]]
        fault = None
    slowest = max((a.cpu for a in counted), default=0.0)
    cpu = sum(a.cpu for a in counted)
    decisions = len(counted) - (1 if fault is not None else 0)
    return Legality(kind, len(hands), decisions, slowest, fault, timing.decision, cpu)


def _message(exc: BaseException) -> str:
    try:
        return str(exc)[:200]
    except Exception:
        return "?"


def local_ask(fn: Callable[..., Any], kind: str, timing: Timing, timed: bool) -> Ask:
    """Ask ``fn`` here, in this process: its CPU time measured (``time.process_time``),
    its time on the clock less its waits for a CPU (``timer.unqueued``) and, when
    ``timed``, stopped by a timer when it runs past its CPU time or the
    clock's safety."""

    def ask(deal: Deal, view: SeatView) -> Answer:
        asked = SitterView(view) if kind == "advise" else view
        action, shown, raised, stopped = None, "", None, None
        cpu, wall = time.process_time(), clock()
        try:
            if timed:
                arm(cpu_timer(timing.decision), timing.wall)
            try:
                action, shown = described(kind, fn(asked))  # a hostile __repr__ timed too
            finally:
                if timed:
                    disarm()
        except Rang as rang:
            stopped = rang.which
        except KeyboardInterrupt:  # the learner stops the cell
            raise
        except BaseException as exc:  # SystemExit too, as in the sandbox
            raised = (type(exc).__name__, _message(exc))
        return Answer(action, shown, raised, stopped, time.process_time() - cpu,
                      unqueued(wall))

    return ask


def legality(fn: Callable[..., Any], kind: str = "play", *, hands: int = HANDS,
             seed: int = 0, seconds: float = DECISION_SECONDS,
             timing: Timing | None = None) -> Legality:
    """Play the kata's hands (the fixed ones, then ``hands`` shuffled from ``seed``) with
    ``fn`` as ``kind`` ("play" or "advise"), here; ``seconds``: the CPU time of a
    decision (or ``timing``: every limit)."""
    if kind not in SEATS:
        raise ValueError(f"kind must be 'play' or 'advise', not {kind!r}")
    timing = timing or Timing(decision=seconds)
    with timers() as timed:
        return play_hands(kind, all_deals(kind, hands, seed), local_ask(fn, kind, timing, timed),
                          timing)


# -- the kata, as the checker lists it -------------------------------------------------

@dataclass(frozen=True, eq=False)
class BotKata(Kata):
    """A function of the bot kata: graded by playing hands, not by cases."""

    #: "play" or "advise".
    kind: str = "play"
    #: The shuffled hands played, after the fixed ones.
    hands: int = HANDS
    timing: Timing = Timing()

    def passed_text(self, result: KataResult) -> str | None:
        return _("✔ {name}: legal in {hands} hands, every seat and rule preset, each "
                 "decision within {limit} s of CPU time.").format(
            name=self.name, hands=format_number(result.more_tests),
            limit=format_short(self.timing.decision))

    @property
    def all_hands(self) -> int:
        """How many hands the kata plays: the fixed ones and the shuffled ones."""
        return len(CORNERS) * len(PRESETS) * len(SEATS[self.kind]) + self.hands


def result_of(kata: BotKata, legality: Legality, note: str | None = None) -> KataResult:
    """A kata result from playing the hands (``note``: the fault in words, by default
    in the language in use)."""
    if legality.fault is None:
        return KataResult(kata, True, 0, legality.hands, True)
    return KataResult(kata, False, 0, legality.hands, True,
                      note=note if note is not None else legality.fault.text())


def _bot(name: str, kind: str, points: int, summary: Callable[[], str],
         hint: Callable[[], str]) -> BotKata:
    return BotKata(name=name, notebook=NOTEBOOK[0], points=points, summary=summary,
                   hint=hint, public=(), generate=lambda d: (),
                   reference=lambda *args: None, judge=lambda args, expected, got: None,
                   size=lambda args: 0, params=("view",), hidden_count=0, fresh_count=0,
                   call_timeout=DECISION_SECONDS, kind=kind)


KATAS: tuple[BotKata, ...] = (
    _bot("play", "play", 3,
         lambda: _("a bot for the box or the captain: one of view.legal_actions"),
         lambda: _("return one of view.legal_actions in every phase (the upcard offer, "
                   "a draw, a discard after taking a card that may not go back), and "
                   "never raise")),
    _bot("advise", "advise", 2,
         lambda: _("the sitter's advice: one of view.captain.legal_actions"),
         lambda: _("advise one of view.captain.legal_actions, or an Advice of one; the "
                   "sitter's own view.legal_actions are always empty")),
)

