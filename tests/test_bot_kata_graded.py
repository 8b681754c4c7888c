"""The bot kata graded by ``box-gin check`` as any kata is: the grader plays the hands and
asks the learner's bot, in the checker's sandbox, for each decision; it judges every
answer itself, and ``check(play)`` in a notebook reaches the same verdict
(docs/checker.md, "The bot kata").

The bots below are submissions: a correct one (the solution notebook), and wrong or
hostile ones, each with the verdict it must get.  The grader's tests need the real
sandbox (bubblewrap, for the one that looks for the grader's processes and files); they
run in the pass of tests that run alone (the Makefile's ALONE).
"""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from box_gin.actions import ActionKind
from box_gin.bots import greedy_bot
from box_gin.checker.grader import grade_all, start_run
from box_gin.checker.sandbox import Sandbox
from box_gin.checker.submissions import find_submissions
from box_gin.checker.verdicts import language, verdict_text
from box_gin.cli import main
from box_gin.hand import Role
from box_gin.katas import BY_NAME, KATAS, check
from box_gin.katas.feedback import CheckResult
from box_gin.katas.specs.nb7_bots import (
    CORNERS,
    BotKata,
    Timing,
    all_deals,
    legality,
    play_hands,
)
from box_gin.platforms.nbgrader import grade_result
from box_gin.rules import PRESETS

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "solutions" / "07_write_a_bot.ipynb"
EXERCISE = ROOT / "exercises" / "07_write_a_bot.ipynb"
BOTS = [k for k in KATAS if isinstance(k, BotKata)]
#: The seed of the grading run, and of check() beside it.
SEED = 20240607

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="bubblewrap is not installed")
main_thread_only = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"), reason="the decision's timers need the main thread")


def _cells(path: Path) -> dict[str, Any]:
    """A notebook's functions, run here as its kernel would (check() cells left out)."""
    ns: dict[str, Any] = {}
    for cell in json.loads(path.read_text())["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "code" and not src.startswith("check(") and \
                "HIDDEN TESTS" not in src:
            exec(compile(src, str(path), "exec"), ns)
    return ns


def _functions(source: str) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    exec(compile(source, "<bot>", "exec"), ns)
    return ns


# -- the wrong bots: (source, the reason each function must fail for, or None: it passes)

NOT_AN_ACTION = """
from box_gin import greedy_bot
def play(view):
    return str(greedy_bot(view))  # the action's text, not the action
def advise(view):
    return str(greedy_bot(view.captain))
"""

ILLEGAL_AT_THE_UPCARD = """
from box_gin import greedy_bot
from box_gin.actions import DRAW_STOCK
from box_gin.hand import Phase
def play(view):
    if view.phase is Phase.UPCARD_OFFER:
        return DRAW_STOCK  # only take or pass are legal when the upcard is offered
    return greedy_bot(view)
def advise(view):
    return play(view.captain)
"""

DISCARDS_THE_TAKEN_CARD = """
from box_gin import greedy_bot
from box_gin.actions import DRAW_DISCARD, TAKE, discard
def play(view):
    if view.taken_card is not None:
        return discard(view.taken_card)  # legal in the discard-taken preset only
    for action in (TAKE, DRAW_DISCARD):
        if action in view.legal_actions:
            return action
    return greedy_bot(view)
"""

RAISES_IN_HOLLYWOOD = """
from box_gin import greedy_bot
def play(view):
    if view.rules.hollywood:
        raise RuntimeError("hollywood is not done yet")
    return greedy_bot(view)
"""

RAISES_AT_BIG_GIN = """
from box_gin import greedy_bot
from box_gin.actions import ActionKind
def play(view):
    if any(a.kind is ActionKind.BIG_GIN for a in view.legal_actions):
        raise KeyError("big gin")
    return greedy_bot(view)
"""

RAISES_AT_THE_END_OF_THE_STOCK = """
from box_gin import greedy_bot
def play(view):
    if view.stock_size <= 3:
        raise IndexError("the stock is nearly out")
    return greedy_bot(view)
"""

# Computes for 3 s of CPU time at its first decision under the classic rules.
TOO_SLOW = """
import time
from box_gin import greedy_bot
def play(view):
    if view.rules.classic_bonuses and len(view.history) < 2:
        start = time.process_time()
        while time.process_time() - start < 3:
            pass
    return greedy_bot(view)
"""

# Sleeps 3 s at one decision: more than a decision's CPU time, less than the clock's
# safety, and no computing: it passes.
SLEEPS_A_LITTLE = """
import time
from box_gin import greedy_bot
slept = []
def play(view):
    if view.rules.big_gin and not slept:
        slept.append(1)
        time.sleep(3)
    return greedy_bot(view)
"""

# Blocks the child's timers and sleeps: only the grader's own deadline stops it.
STALLS = """
import signal, time
from box_gin import greedy_bot
def play(view):
    if view.rules.oklahoma:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGPROF})
        time.sleep(60)
    return greedy_bot(view)
"""

CRASHES = """
import os
from box_gin import greedy_bot
def play(view):
    if view.rules.gin_bonus == 20:
        os._exit(3)
    return greedy_bot(view)
"""

# Looks for the other seats' cards everywhere it can reach: the engine's hands among the
# interpreter's objects, the frames that called it, the view's attributes, the grader's
# processes and files.  Finding any, it raises (and fails the kata).
PEEKER = """
import gc, os, sys
from box_gin import greedy_bot
from box_gin.hand import Hand
asked = [0]
def _seen(view):
    found = [type(o).__name__ for o in gc.get_objects() if isinstance(o, Hand)]
    frame = sys._getframe(1)
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if isinstance(value, Hand) or (hasattr(value, "stock") and hasattr(value, "hands")):
                found.append(frame.f_code.co_name)
        frame = frame.f_back
    found += [n for n in ("hands", "stock", "deck", "seen") if hasattr(view, n)]
    for pid in os.listdir("/proc"):
        if pid.isdigit() and int(pid) not in (1, os.getpid()):
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    line = f.read()
                if b"pytest" in line or b"box-gin" in line:
                    found.append(pid)
            except OSError:
                pass
    found += [p for p in ("/work", "/root", "/home") if os.path.isdir(p) and os.listdir(p)]
    try:
        import box_gin.checker.grader  # the grader, which holds the hands
        found.append("grader")
    except ImportError:
        pass
    return found
def play(view):
    asked[0] += 1
    if asked[0] <= 3 or asked[0] % 1000 == 0:
        seen = _seen(view)
        if seen:
            raise RuntimeError("saw " + " ".join(map(str, seen[:4])))
    return greedy_bot(view)
def advise(view):
    asked[0] += 1
    if asked[0] <= 3 and _seen(view):
        raise RuntimeError("saw the captain's opponent")
    return greedy_bot(view.captain)
"""

# Writes straight down its child's answer pipe, with the child's own nonce and sender
# (found in its caller's frame), a line of answers for decisions it was not asked yet:
# the answers held so far and two more, forged; refused when they pass the batch's end,
# and the child's own next line, out of order then, breaks the protocol.
FORGES = """
import sys
from box_gin import greedy_bot
def play(view):
    frame = sys._getframe(1)
    while frame is not None and "held" not in frame.f_locals:
        frame = frame.f_back
    if frame is not None and view.rules.hollywood:
        ns = frame.f_locals
        forged = [{"a": "pass", "k": 1, "s": 0}] * 2
        ns["send"]({"t": "a", "id": ns["number"], "i": ns["first"], "n": ns["held"] + forged})
    return greedy_bot(view)
"""

#: name -> (source, {function: the reason it fails for, or None when it passes}).
WRONG: dict[str, tuple[str, dict[str, str | None]]] = {
    "not_an_action": (NOT_AN_ACTION, {"play": "not_action", "advise": "not_action"}),
    "illegal_at_the_upcard": (ILLEGAL_AT_THE_UPCARD, {"play": "illegal", "advise": "illegal"}),
    "discards_the_taken_card": (DISCARDS_THE_TAKEN_CARD, {"play": "illegal"}),
    "raises_in_hollywood": (RAISES_IN_HOLLYWOOD, {"play": "raised"}),
    "raises_at_big_gin": (RAISES_AT_BIG_GIN, {"play": "raised"}),
    "raises_at_the_end_of_the_stock": (RAISES_AT_THE_END_OF_THE_STOCK, {"play": "raised"}),
    "too_slow": (TOO_SLOW, {"play": "slow"}),
    "sleeps_a_little": (SLEEPS_A_LITTLE, {"play": None}),
    "stalls": (STALLS, {"play": "stalled"}),
    "crashes": (CRASHES, {"play": "gone"}),
    "forges": (FORGES, {"play": "gone"}),
    "peeker": (PEEKER, {"play": None, "advise": None}),
}
#: The bots that can run here, in this process, beside the grader (the others stall,
#: kill or spy on their process).
HERE = ("not_an_action", "illegal_at_the_upcard", "discards_the_taken_card",
        "raises_in_hollywood", "raises_at_big_gin", "raises_at_the_end_of_the_stock",
        "too_slow")


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """The grader's verdicts on the wrong bots, the solution and the exercise, in one
    run with the run's seed :data:`SEED`, two at a time."""
    folder = tmp_path_factory.mktemp("bots")
    for name, (source, _expected) in WRONG.items():
        (folder / name).mkdir()
        (folder / name / "07_bot.py").write_text(source)
    for name, notebook in (("solution", SOLUTION), ("exercise", EXERCISE)):
        (folder / name).mkdir()
        shutil.copy(notebook, folder / name / notebook.name)
    run = start_run(seed=SEED, jobs=2, katas=BOTS)
    try:
        results = grade_all(find_submissions([folder]), jobs=2, run=run)
    finally:
        run.sandbox.close()
    return {r["student"]: r for r in results}


# -- the grader ---------------------------------------------------------------------

#: The verdicts of the collection above, as the grader gave them when it asked one
#: decision at a time (before the hands were played side by side), with the same seed:
#: passed, points, the note and its values (but the time a slow decision took).
RECORDED = Path(__file__).with_name("bot_kata_verdicts.json")


@needs_bwrap
@pytest.mark.timeout(900)
def test_side_by_side_play_gives_the_verdicts_of_one_decision_at_a_time(graded):
    recorded = json.loads(RECORDED.read_text())
    now = {}
    for student, result in graded.items():
        for function, entry in result["katas"].items():
            note = (entry.get("verdict") or {}).get("note") or {}
            values = {k: v for k, v in (note.get("values") or {}).items() if k != "took"}
            now[f"{student}/{function}"] = {"passed": entry["passed"],
                                            "points": entry["points"],
                                            "note": note.get("id"), "values": values}
    assert {k: now[k] for k in recorded} == recorded


@needs_bwrap
@pytest.mark.timeout(900)
def test_each_wrong_bot_fails_for_its_reason_and_the_rest_pass(graded):
    for name, (_source, expected) in WRONG.items():
        katas = graded[name]["katas"]
        for function, reason in expected.items():
            entry = katas[function]
            note = entry["verdict"]["note"]
            if reason is None:
                assert entry["passed"] and entry["points"] == BY_NAME[function].points, (
                    name, function, entry["feedback"])
                continue
            assert not entry["passed"] and entry["points"] == 0, (name, function)
            assert note["id"] == "bot_fault" and note["values"]["why"] == reason, (
                name, function, entry["feedback"])
            assert entry["feedback"].startswith(f"✘ {function}: not passed.")
    # Where each failed: the seat, the preset and the hand, as the bot's bug says.
    where = {name: graded[name]["katas"]["play"]["verdict"]["note"]["values"]
             for name in WRONG if WRONG[name][1].get("play")}
    assert where["raises_in_hollywood"]["preset"] == "hollywood"
    assert where["raises_at_big_gin"]["preset"] == "big-gin"
    assert where["raises_at_big_gin"]["hand"] == "gin-now"  # a fixed hand: every seed
    assert where["too_slow"]["preset"] == "classic" and where["too_slow"]["took"] > 2
    assert where["stalls"]["preset"] == "oklahoma"
    assert where["crashes"]["preset"] == "gin-20" and where["crashes"]["gone"] == "exited"
    assert where["forges"]["preset"] == "hollywood" and where["forges"]["gone"] == "protocol"
    assert where["illegal_at_the_upcard"]["action"] == "draw stock"
    assert where["illegal_at_the_upcard"]["legal"] == ["take", "pass"]
    assert where["discards_the_taken_card"]["preset"] != "discard-taken"
    text = graded["raises_in_hollywood"]["katas"]["play"]["feedback"]
    assert "(hollywood rules), as the " in text and "RuntimeError" in text
    assert '"hollywood is not done yet"' in text  # the bot's words, quoted


# Runs for 1.5 s on the clock (or computes for 1.2 s of CPU time) in its first decision;
# the clock's limit below: 1 s.
SPINS = """
import time
from box_gin import greedy_bot
spun = []
def play(view):
    if not spun:
        spun.append(1)
        start = time.{clock}()
        while time.{clock}() - start < {seconds}:
            pass
    return greedy_bot(view)
"""


@needs_bwrap
@pytest.mark.timeout(900)
def test_the_graders_clock_leaves_out_the_childs_waits_for_a_cpu(tmp_path, monkeypatch):
    """The grader judges a decision's time on the clock less what the kernel counts the
    child waiting for a CPU (a busy machine lengthens computing, which is the CPU time's
    to judge): a decision that computes past the clock's limit is 'stalled'; one that
    runs past it on the clock passes where a stand-in for the kernel says it waited for
    a CPU all the while it ran."""
    play = BY_NAME["play"]
    assert isinstance(play, BotKata)
    kata = dataclasses.replace(play, timing=Timing(decision=2.0, wall=1.0, total=30,
                                                   total_wall=60))

    def grade(clock: str, seconds: float) -> dict[str, Any]:
        folder = tmp_path / clock
        (folder / "spinner").mkdir(parents=True)
        (folder / "spinner" / "07_bot.py").write_text(
            SPINS.format(clock=clock, seconds=seconds))
        run = start_run(seed=SEED, jobs=1, katas=[kata])
        try:
            return grade_all(find_submissions([folder]), jobs=1, run=run)[0]["katas"]["play"]
        finally:
            run.sandbox.close()

    computes = grade("process_time", 1.2)  # past the clock's limit however busy the machine
    assert not computes["passed"], computes["feedback"]
    assert computes["verdict"]["note"]["values"]["why"] == "stalled"
    counted = Sandbox.waited_seconds

    def kept_from_a_cpu(self: Sandbox, proc: Any) -> tuple[float, float] | None:
        both = counted(self, proc)
        return None if both is None else (both[0], both[1] - both[0])

    monkeypatch.setattr(Sandbox, "waited_seconds", kept_from_a_cpu)
    busy = grade("perf_counter", 1.5)
    assert busy["passed"], busy["feedback"]


@needs_bwrap
@pytest.mark.timeout(900)
def test_the_solution_passes_and_the_exercise_is_not_written_yet(graded):
    solution = graded["solution"]["katas"]
    for kata in BOTS:
        assert solution[kata.name]["passed"] and solution[kata.name]["points"] == kata.points
        hands = kata.all_hands
        assert solution[kata.name]["verdict"]["tests"] == {"public": 0, "more": hands,
                                                           "hidden": True}
        assert f"legal in {hands:,} hands" in solution[kata.name]["feedback"]
        stub = graded["exercise"]["katas"][kata.name]
        assert stub["verdict"]["note"]["values"]["why"] == "not_written"
        assert "not written yet" in stub["feedback"]


@needs_bwrap
@pytest.mark.timeout(900)
def test_a_bot_sees_only_its_own_seat(graded):
    """The spy finds nothing of the other seats in the grader's sandbox; in a notebook's
    kernel, where the hands are played in the same process, it finds the hand at once
    (so it would have said so in the sandbox)."""
    assert graded["peeker"]["score"] == sum(k.points for k in BOTS)
    here = legality(_functions(PEEKER)["play"], "play", hands=4)
    assert here.fault is not None and here.fault.reason == "raised"
    assert "saw" in here.fault.values["message"]


@needs_bwrap
@pytest.mark.timeout(900)
def test_check_reaches_the_graders_verdict(graded):
    """``check(play)`` here (the same seed) and the grader in its sandbox: the same
    verdict, and for a wrong bot the same decision of the same hand, for the same
    reason.  (The solution and the stub too.)"""
    solution, stub = _cells(SOLUTION), _cells(EXERCISE)
    cases = [(name, _functions(WRONG[name][0])) for name in HERE]
    cases += [("solution", solution), ("exercise", stub)]
    for name, fns in cases:
        for kata in BOTS:
            if kata.name not in fns:
                continue
            entry = graded[name]["katas"][kata.name]
            mine = legality(fns[kata.name], kata.kind, hands=kata.hands, seed=SEED)
            assert mine.passed == entry["passed"], (name, kata.name, entry["feedback"])
            if mine.fault is None:
                continue
            theirs = entry["verdict"]["note"]["values"]
            keys = ("seat", "preset", "hand", "decision", "why")
            assert {k: mine.fault.data()[k] for k in keys} == {k: theirs[k] for k in keys}, (
                name, kata.name)
            if mine.fault.reason == "raised":
                assert mine.fault.values["error"] == theirs["error"]
            if mine.fault.reason == "illegal":
                assert mine.fault.values["action"] == theirs["action"]
                assert mine.fault.values["legal"] == theirs["legal"]


@needs_bwrap
@pytest.mark.timeout(900)
def test_the_verdict_is_rendered_in_the_learners_language(graded):
    verdict = graded["raises_in_hollywood"]["katas"]["play"]["verdict"]
    english = verdict_text(verdict)
    with language("fr"):
        french = verdict_text(verdict)
    assert french != english and "hollywood" in french and "RuntimeError" in french
    hand = str(verdict["note"]["values"]["hand"])
    assert hand in english and hand in french


@needs_bwrap
@pytest.mark.timeout(900)
def test_a_correct_bot_passes_box_gin_check_end_to_end(tmp_path):
    """A class folder: ada's notebook is the solution, bo's the exercise as handed out;
    the gradebook's columns, the JSON and Gradescope's results name the bot kata's
    functions with their points."""
    for student, notebook in (("ada", SOLUTION), ("bo", EXERCISE)):
        (tmp_path / "class" / student).mkdir(parents=True)
        shutil.copy(notebook, tmp_path / "class" / student / notebook.name)
    book, grades = tmp_path / "book.json", tmp_path / "grades.csv"
    assert main(["check", str(tmp_path / "class"), "--json", str(book), "--csv", str(grades),
                 "--gradescope", str(tmp_path / "gs"), "-j", "2", "-q"]) == 0
    rows = {r["student"]: r for r in csv.DictReader(grades.open())}
    assert (rows["ada"]["play"], rows["ada"]["advise"]) == ("3", "2")
    assert (rows["bo"]["play"], rows["bo"]["advise"]) == ("0", "0")
    assert rows["ada"]["total"] == "5" and int(rows["ada"]["max_score"]) == sum(
        k.points for k in KATAS)
    data = json.loads(book.read_text())
    assert {"name": "play", "points": 3, "notebook": 7} in data["katas"]
    ada = {s["student"]: s for s in data["students"]}["ada"]["katas"]
    assert ada["play"]["passed"] and ada["advise"]["passed"]
    scope = json.loads((tmp_path / "gs" / "ada" / "results.json").read_text())
    tests = {t["name"]: t for t in scope["tests"]}
    assert tests["play"]["score"] == 3 and tests["advise"]["status"] == "passed"


# -- check() and the hands, here (no sandbox) -----------------------------------------

def test_the_fixed_hands_lead_where_few_shuffled_hands_go():
    """gin-now offers gin, and big gin where the rules allow it, at the seat's first turn
    whatever it does first; ace-up in Oklahoma plays the stock to its last cards (as the
    captain, for the greedy bot and the solution)."""
    solution = _cells(SOLUTION)["play"]
    for bot in (greedy_bot, solution):
        met: set[tuple[str, str, str]] = set()

        def ask(deal, view, bot=bot, met=met):
            kinds = {a.kind for a in view.legal_actions}
            if ActionKind.BIG_GIN in kinds:
                met.add((str(deal.seed), deal.preset, "big gin"))
            if view.stock_size <= 3:
                met.add((str(deal.seed), deal.preset, "last cards"))
            from box_gin.katas.specs.nb7_bots import Answer
            return Answer(bot(view))

        deals = [d for d in all_deals("play", hands=0) if d.seat is Role.CAPTAIN]
        assert play_hands("play", deals, ask).passed
        assert ("gin-now", "big-gin", "big gin") in met
        assert ("ace-up", "oklahoma", "last cards") in met
        assert ("ace-up", "oklahoma-spades", "last cards") in met


def test_every_preset_and_seat_gets_the_fixed_hands_then_the_shuffled_ones():
    for kind, seats in (("play", (Role.BOX, Role.CAPTAIN)), ("advise", (Role.SITTER,))):
        deals = all_deals(kind, hands=32, seed=1)
        fixed = [d for d in deals if isinstance(d.seed, str)]
        assert deals[:len(fixed)] == fixed
        assert {(d.seed, d.preset, d.seat) for d in fixed} == {
            (c, p, s) for c in CORNERS for p in PRESETS for s in seats}
        assert len(deals) - len(fixed) == 32
        assert {d.seed for d in deals[len(fixed):]} != {
            d.seed for d in all_deals(kind, hands=32, seed=2)[len(fixed):]}


@pytest.mark.parametrize("name", ["raises_at_big_gin", "raises_at_the_end_of_the_stock",
                                  "discards_the_taken_card", "illegal_at_the_upcard"])
def test_a_bot_wrong_in_a_rare_state_fails_on_every_seed_in_the_same_place(name):
    play = _functions(WRONG[name][0])["play"]
    faults = {seed: legality(play, "play", hands=8, seed=seed).fault for seed in range(4)}
    assert all(f is not None for f in faults.values())
    assert len({repr(f) for f in faults.values()}) == 1, faults  # found in a fixed hand
    fault = faults[0]
    assert fault is not None and isinstance(fault.seed, str)


def test_a_correct_bot_passes_whatever_the_seed():
    solution = _cells(SOLUTION)
    for seed in (0, 1, 99):
        assert legality(solution["play"], "play", hands=40, seed=seed).passed
        assert legality(solution["advise"], "advise", hands=40, seed=seed).passed


@main_thread_only
def test_check_enforces_a_decisions_cpu_time_and_the_clocks_safety():
    """A decision that computes past its CPU time fails (the timer stops it); one that
    sleeps uses no CPU time: past the clock's safety it fails, under it it passes."""
    def computes(view):
        if len(view.history) >= 3:
            start = time.process_time()
            while time.process_time() - start < 1.0:
                pass
        return greedy_bot(view)

    def sleeps(seconds):
        slept: list[float] = []

        def play(view):
            if len(view.history) == 3 and not slept:
                slept.append(seconds)
                time.sleep(seconds)
            return greedy_bot(view)
        return play

    # The computing decision's clock safety is far above its CPU time: on a machine so
    # busy that this process gets a tenth of a core, its CPU timer still rings first.
    computing = Timing(decision=0.05, wall=10, total=30, total_wall=60)
    slow = legality(computes, "play", hands=0, timing=computing).fault
    assert slow is not None and slow.reason == "slow" and slow.values["took"] >= 0.05
    assert "CPU time" in slow.why
    timing = Timing(decision=0.05, wall=0.5, total=30, total_wall=60)
    stalled = legality(sleeps(5), "play", hands=0, timing=timing).fault
    assert stalled is not None and stalled.reason == "stalled"
    napping = Timing(decision=0.05, wall=5, total=30, total_wall=60)
    assert legality(sleeps(0.3), "play", hands=0, timing=napping).passed


def test_all_the_decisions_of_a_kata_have_a_cpu_time_in_all():
    def steady(view):
        start = time.process_time()
        while time.process_time() - start < 0.002:
            pass
        return greedy_bot(view)

    fault = legality(steady, "play", hands=0, timing=Timing(total=0.05)).fault
    assert fault is not None and fault.reason == "slow_overall"
    assert "in all" in fault.why


def test_katas_check_and_nbgrader_grade_the_bot_kata_as_box_gin_check():
    solution = _cells(SOLUTION)
    result = check(solution["play"], "play")
    assert isinstance(result, CheckResult) and result.passed and "legal in" in repr(result)
    wrong = _functions(NOT_AN_ACTION)
    failed_here = check(wrong["play"])
    assert isinstance(failed_here, CheckResult) and not failed_here.passed
    graded = grade_result("play", solution, seed=SEED)
    assert graded.passed and graded.points == BY_NAME["play"].points
    failed = grade_result("advise", wrong, seed=SEED)
    assert not failed.passed and "not an action" in (failed.note or "")


def test_the_bot_kata_is_listed_with_points_as_the_other_katas():
    assert [k.name for k in BOTS] == ["play", "advise"]
    assert all(k.notebook == 7 and k.points > 0 for k in BOTS)
    assert BY_NAME["play"] is BOTS[0]
    nb = json.loads(SOLUTION.read_text())
    tests = {c["id"]: c for c in nb["cells"] if c.get("id", "").endswith("-test")}
    assert set(tests) == {"play-test", "advise-test"}
    for kata in BOTS:
        meta = tests[f"{kata.name}-test"]["metadata"]["nbgrader"]
        assert meta["grade"] and meta["points"] == kata.points
        assert f"grade({kata.name!r}, globals())" in "".join(tests[f"{kata.name}-test"]["source"])
