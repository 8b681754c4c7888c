"""Bots in the checker's sandbox: the engine staged for them, and the grader of the bot
kata.

A bot may use the engine (its rules, its views, the reference bots), so a bot's child
gets a read-only copy of the engine and of its own script, ``botchild.py``, staged under
the run's sandbox (:func:`bot_sandbox`: the same isolation, uids, cgroups and caps as a
kata's child; only the staged files differ), and nothing else of the kit: no driver, no
deck, no other bot.  The tournament runs every bot in one (``box_gin/tournament/``).

The grader of the bot kata (:func:`grade_bot`) plays the kata's hands here, with the
engine (:func:`~box_gin.katas.specs.nb7_bots.play_hands`: the fixed hands, then the
shuffled ones from the run's seed, every preset and seat), and asks the child for each
of the learner's decisions: it sends the seat's view over the wire
(:mod:`box_gin.checker.seatwire`), reads the answer and judges it itself, as ``check()``
does in a notebook.  Nothing the child says about legality is trusted: the action must
be one of the legal actions this process computed, and each decision's CPU time is the
kernel's count for the whole sandbox (:meth:`Sandbox.cpu_seconds`), read before the view
goes and after the answer comes, never the child's own report; a decision that does not
answer within the clock's safety is stopped here.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import time
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from ..actions import Action
from ..errors import BoxGinError
from ..hand import SeatView
from ..katas.core import KataResult
from ..katas.specs.nb7_bots import (
    UNASKED,
    Answer,
    BotKata,
    Deal,
    Legality,
    all_deals,
    cpu_timer,
    play_lockstep,
    result_of,
)
from ..katas.timer import WALL_CAP
from .protocol import Child, ChildGone
from .protocol import answers as read_answers
from .safe import one_line, quoted, type_name
from .sandbox import Sandbox
from .seatwire import Histories, question, view_facts
from .staging import PACKAGE_DIR, with_bytecode, write_stage

#: The engine modules a bot's child may load (beside the standard library), and the
#: child itself.
ENGINE = ("__init__.py", "errors.py", "i18n.py", "cards.py", "kernels.py", "melds.py",
          "actions.py", "knocking.py", "layoffs.py", "scoring.py", "rules.py", "hand.py",
          "seating.py", "match.py", "bots/__init__.py", "bots/simple.py", "bots/expert.py",
          "checker/seatwire.py", "checker/botchild.py", "checker/runtime.py",
          "katas/timer.py")
#: The bot's child, under the staged ``box_gin``.
BOT_CHILD = "checker/botchild.py"
#: Seconds an answer may come after its decision's time on the clock (the pipe, a busy
#: machine) before the grader stops the child.
GRACE = 1.0


def engine_files() -> dict[str, bytes]:
    """The files of a bot's staged copy, by their name under ``box_gin/`` (the compiled
    kernels too, when built)."""
    names = list(ENGINE) + [p.name for p in PACKAGE_DIR.glob("_speedups*.so")]
    return {name: (PACKAGE_DIR / name).read_bytes() for name in names}


def bot_sandbox(box: Sandbox) -> Sandbox:
    """``box`` with the bots' staged files in place of the katas': the engine copy and its
    bytecode, written read-only under the sandbox's own stage (removed with it); the
    uids, locks and cgroups are the sandbox's own."""
    files = with_bytecode(engine_files())
    top = box.stage / "bots"
    write_stage(top, files)
    return dataclasses.replace(box, stage=top, files=files, uids=box.uids, locks=box.locks)


def child_setup(katas: list[BotKata]) -> dict[str, Any]:
    """What a bot's child needs to know beside its cells: each decision's timers (the
    CPU time, and the clock's safety), and to say which cell it runs."""
    timing = katas[0].timing
    return {"progress": True, "cpu_seconds": cpu_timer(timing.decision),
            "decision_seconds": timing.wall}


class OutOfTime(Exception):
    """The submission's time ran out while its bot was asked (not the bot's fault)."""


def _shown(text: Any) -> str:
    """What the bot returned, as its child said it: a Python literal (``'gin'``,
    ``None``, ``['pass']``) shown as it is, anything else quoted."""
    line = one_line(text if isinstance(text, str) else "?", 60)
    try:
        ast.literal_eval(line)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return quoted(line, 60)
    return line


@lru_cache(maxsize=1024)
def _parsed(text: str) -> Action:
    """An answer's action, parsed once per text (bounded: the texts are the child's;
    a text that names no action raises, and is not kept)."""
    return Action.parse(text)


def answer_of(reply: dict[str, Any], cpu: float, wall: float) -> Answer:
    """The child's answer line read as untrusted data (its CPU time measured here)."""
    sent = reply.get("a")
    if isinstance(sent, dict) and "u" in sent:  # not computed: its round was stopped
        return Answer(stopped=UNASKED)
    if isinstance(sent, dict) and "x" in sent:  # which timer rang: only its label
        return Answer(stopped="cpu" if sent.get("w") == "cpu" else "wall", cpu=cpu,
                      wall=wall)
    if isinstance(sent, dict) and "e" in sent:
        message = sent.get("m")
        return Answer(raised=(type_name(sent.get("e")),
                              quoted(message) if isinstance(message, str) and message else ""),
                      cpu=cpu, wall=wall)
    if reply.get("k") == 1 and isinstance(sent, str) and len(sent) <= 300:
        try:
            return Answer(_parsed(sent), cpu=cpu, wall=wall)
        except (BoxGinError, ValueError):
            return Answer(shown=_shown(repr(sent)), cpu=cpu, wall=wall)
    return Answer(shown=_shown(reply.get("r")), cpu=cpu, wall=wall)


def _any(message: dict[str, Any]) -> bool:
    """Every line is taken, then checked (:func:`read_answers`)."""
    return True


def _gone_id(exc: ChildGone) -> str:
    return {"timeout": "wall", "the child exited": "exited",
            "the child sent too much": "too_much"}.get(str(exc), "protocol")


#: The kernel's CPU count for a batch may pass the sum of the child's own timings by this
#: factor, this many seconds and this much a decision (what the child does outside the
#: decisions it times: reading and decoding the batch, writing the answers) before its
#: timings are not believed, and the batch is asked again one decision at a time.
TRUST_FACTOR = 1.1
TRUST_SLACK = 0.1
TRUST_PER_DECISION = 0.0005


@dataclasses.dataclass(frozen=True)
class Sent:
    """A batch sent to a bot's child: its items, its messages (each one's id and the
    items it asks) and the kernel's CPU count for the child as it went (None where
    ``/proc`` says nothing)."""

    items: Sequence[tuple[Deal, SeatView]]
    messages: list[tuple[int, list[int]]]
    cpu: float | None


def grade_bot(child: Child, box: Sandbox, kata: BotKata, seed: int) -> tuple[Legality, bool]:
    """Play the kata's hands (shuffled from ``seed``) side by side, asking ``child``
    (running in ``box``) for every decision of a group's round at once, while the
    other group's hands are played here (``play_lockstep``); what the play
    showed, and whether the child can still be asked (False once it died, hung or broke
    the protocol).  Raises :class:`OutOfTime` when the submission's time runs out first.

    Each decision's CPU time is the child's own timing of it, believed only when the
    kernel's count for the whole sandbox over the batch (:meth:`Sandbox.cpu_seconds`,
    read before the batch goes and after its last answer comes) is no more than their
    sum and a little (:data:`TRUST_FACTOR`); else the batch is asked again one decision
    at a time, each timed by the kernel alone.  Every answer must be the next one
    expected (its batch, its place): anything else is the protocol broken."""
    timing = kata.timing
    sort = "a" if kata.kind == "advise" else "p"
    state: dict[str, Any] = {"id": 0, "round": 0, "alive": True}
    proc = child.proc
    assert proc is not None

    # Each hand's history goes as the entries the child has not had (by the hand's deal);
    # each rules' JSON text is written once.
    histories = Histories()
    rules_text: dict[int, tuple[str, Any]] = {}

    def cpu_now() -> float | None:
        return box.cpu_seconds(proc)

    def clocks() -> tuple[float, float | None, float | None]:
        """The clock; the clock less the seconds the child has waited for a CPU (the
        kernel's count; None where it says nothing), whose differences are what the
        judge's limits on the clock compare, as the notebook's (``timer.unqueued``); and
        the child's CPU seconds (:func:`cpu_now`, from the same reading when there is
        one)."""
        both = box.waited_seconds(proc)
        if both is None:
            return time.monotonic(), None, cpu_now()
        return time.monotonic(), both[0] + both[1], both[0]

    def send_batch(items: Sequence[tuple[Deal, SeatView]]) -> Sent:
        """Send every decision of ``items`` (one message for each rules: a batch
        decodes its views under one); the kernel's CPU count read as it goes."""
        groups: dict[int, list[int]] = {}
        by_rules: dict[int, Any] = {}
        for index, (_deal, view) in enumerate(items):
            groups.setdefault(id(view.rules), []).append(index)
            by_rules[id(view.rules)] = view.rules
        messages: list[tuple[int, list[int]]] = []  # (message id, the items it asks)
        state["round"] += 1
        before = cpu_now()
        if state["alive"]:
            for key, indices in groups.items():
                state["id"] += 1
                rules = rules_text.get(key)
                if rules is None:  # the rules object kept beside, so its id stays its own
                    rules = rules_text[key] = (json.dumps(by_rules[key].to_dict()),
                                               by_rules[key])
                questions = ",".join([
                    question(sort, view_facts(view), histories.text(deal, view.history), None)
                    for deal, view in map(items.__getitem__, indices)])
                child.send_line(f'{{"id":{state["id"]},"r":{state["round"]},'
                                f'"rules":{rules[0]},"q":[{questions}]}}')
                messages.append((state["id"], indices))
            child.flush()  # the child starts while the other hands are played here
        return Sent(items, messages, before)

    def receive_batch(sent: Sent) -> tuple[list[Answer], float | None]:
        """The answers of a batch sent, in its items' order, and the kernel's CPU count
        for them all (None where ``/proc`` says nothing).  A line's time on the clock
        counts from when this process began to wait for it (it may have played other
        hands meanwhile), not from when the batch went."""
        answers: list[Answer | None] = [None] * len(sent.items)
        # The clock's safety, put off as the child's own is while a busy machine keeps it
        # from a CPU (katas/timer.py).
        stretch = timing.wall * WALL_CAP + GRACE
        last_cpu = sent.cpu
        last, last_unqueued, _cpu = clocks()
        for number, indices in sent.messages:
            place = 0
            while place < len(indices) and state["alive"]:
                try:
                    held = read_answers(child.receive(timing.wall + GRACE, _any, stretch),
                                        number, place, len(indices))
                except ChildGone as exc:
                    stopped = _gone_id(exc)
                    state["alive"] = False
                    wall = time.monotonic() - last
                    gone_cpu = cpu_now()
                    cpu = gone_cpu - last_cpu if gone_cpu is not None \
                        and last_cpu is not None else wall
                    answers[indices[place]] = Answer(stopped=stopped, cpu=cpu, wall=wall)
                    if stopped == "wall" and time.monotonic() >= child.budget:
                        raise OutOfTime() from exc
                    break
                now, now_unqueued, now_cpu = clocks()
                # A busy machine lengthens computing, not waiting: the seconds the child
                # waited for a CPU are not the clock's to judge.
                took = now - last
                if now_unqueued is not None and last_unqueued is not None:
                    took = min(took, max(0.0, now_unqueued - last_unqueued))
                for k, reply in enumerate(held):
                    # The line's time on the clock is its last answer's: the child sends
                    # a line as soon as a decision took long (botchild.FLUSH).
                    wall = took if k == len(held) - 1 else 0.0
                    spent = reply.get("s")
                    cpu = float(spent) if isinstance(spent, int | float) and not isinstance(
                        spent, bool) and 0 <= spent < 1e6 else wall
                    answers[indices[place + k]] = answer_of(reply, cpu, wall)
                place += len(held)
                last, last_unqueued, last_cpu = now, now_unqueued, now_cpu
        after = cpu_now()
        counted = after - sent.cpu if sent.cpu is not None and after is not None else None
        return [a if a is not None else Answer(stopped=UNASKED) for a in answers], counted

    def ask_batch(items: Sequence[tuple[Deal, SeatView]]) -> tuple[list[Answer], float | None]:
        return receive_batch(send_batch(items))

    class Asker:
        """The child as a pipeline (``nb7_bots.Pipeline``): a batch computed there
        while the other hands are played here."""

        def send(self, items: Sequence[tuple[Deal, SeatView]]) -> Sent:
            return send_batch(items)

        def receive(self, sent: Sent) -> list[Answer]:
            answers, counted = receive_batch(sent)
            if not state["alive"] or counted is None:
                return answers
            items = sent.items
            said = sum(a.cpu for a in answers)
            if counted <= said * TRUST_FACTOR + TRUST_SLACK + TRUST_PER_DECISION * len(items):
                return answers
            # The child's timings do not add up to the kernel's count: each decision
            # again, alone, timed by the kernel only.
            again = []
            for item in items:
                (answer,), counted = ask_batch([item])
                if counted is not None and answer.stopped is None:
                    answer = dataclasses.replace(answer, cpu=counted)
                again.append(answer)
                if not state["alive"]:
                    again += [Answer(stopped=UNASKED)] * (len(items) - len(again))
                    break
            return again

    legality = play_lockstep(kata.kind, all_deals(kata.kind, kata.hands, seed), Asker(),
                             timing)
    return legality, bool(state["alive"])


def bot_result(kata: BotKata, legality: Legality) -> tuple[KataResult, dict[str, Any] | None]:
    """A kata result and, for a fault, its note's values (the fault as data)."""
    return result_of(kata, legality), (legality.fault.data() if legality.fault else None)
