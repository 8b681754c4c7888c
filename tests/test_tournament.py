"""The class tournament: a fair schedule, hostile bots that change only their own result,
reproducible results and match records that replay (docs/tournament.md)."""

from __future__ import annotations

import collections
import hashlib
import json
import shutil
from pathlib import Path

import pytest

from box_gin import Match
from box_gin.bots import expert_bot, greedy_bot
from box_gin.tournament import Budget, Entrant, Settings, measure, references, run, schedule
from box_gin.tournament.cli import entrants
from box_gin.tournament.core import default_action, legal_match

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="bubblewrap is not installed")


def test_every_bot_holds_every_seat_against_every_other_on_the_same_deals() -> None:
    names = ["a", "b", "c", "d", "e"]
    games = schedule(names, deals=2, seed=3)
    seats: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for spec in games:
        roles = Match.new(list(spec.players), seed=spec.seed).roles
        box, captain = roles["box"], roles["captain"]  # type: ignore[index]
        seats[(box, "box", captain)] += 1
    # Every ordered pair (box, captain) meets equally often: 3 groups hold both, two deals.
    assert set(seats.values()) == {2 * 3}
    assert len(seats) == 5 * 4
    # Each group plays the same deals, each deal six times (every seating).
    by_deal = collections.Counter(spec.seed for spec in games)
    assert len(by_deal) == 2 and set(by_deal.values()) == {10 * 6}


def test_a_large_class_plays_a_balanced_cyclic_design() -> None:
    names = [f"s{i}" for i in range(13)]
    games = schedule(names, deals=1, seed=0)
    counts = collections.Counter(n for g in games for n in g.players)
    assert len(set(counts.values())) == 1
    met = {frozenset(p) for g in games for p in [(g.players[0], g.players[1]),
                                                 (g.players[0], g.players[2]),
                                                 (g.players[1], g.players[2])]}
    assert len(met) == 13 * 12 // 2


def test_a_failed_decision_gets_a_legal_default_and_text_is_checked() -> None:
    from box_gin import Hand, Role

    hand = Hand.deal(seed=1)
    legal = hand.view(Role.CAPTAIN).legal_actions
    assert str(default_action(legal)) == "pass"
    assert legal_match("take", legal) is not None
    assert legal_match("discard ZZ", legal) is None
    assert legal_match("x" * 10_000, legal) is None


def test_measure_is_reproducible_and_counts_every_game() -> None:
    a = measure(expert_bot, against=greedy_bot, deals=6, seed=5)
    b = measure(expert_bot, against=greedy_bot, deals=6, seed=5)
    assert a == b
    assert a.wins.games + a.drawn == 12
    low, high = a.interval
    assert 0 <= low <= a.rate <= high <= 1


HONEST = """
from box_gin import greedy_bot
def play(view):
    return greedy_bot(view)
def advise(view):
    return greedy_bot(view)
"""

# Looks for the other seats' cards everywhere it can reach: the interpreter's objects,
# the parent's memory and files; finding any would make it raise (a crash, counted).
PEEKER = """
import gc, os
from box_gin import greedy_bot, Hand
def _peek(view):
    found = [o for o in gc.get_objects() if isinstance(o, Hand)]
    for pid in os.listdir('/proc'):  # the grader's processes: their command lines
        if pid.isdigit() and int(pid) not in (1, os.getpid()):  # bar the sandbox's own
            try:
                line = open(f'/proc/{pid}/cmdline', 'rb').read()
            except OSError:
                continue
            if b'pytest' in line or b'.venv' in line or b'bin/box-gin' in line:
                found.append(pid)
    for path in ('/work', '/root', '/home', os.path.expanduser('~'), '/tmp/records'):
        if os.path.isdir(path) and os.listdir(path):
            found.append(path)
    mine = set(view.hand) | set(view.discard_pile) | set(view.opponent_known)
    if len(mine) + view.stock_size + view.opponent_card_count - len(view.opponent_known) != 52:
        found.append('count')
    return found
def play(view):
    if _peek(view):
        raise RuntimeError('saw what it may not')
    return greedy_bot(view)
"""

# Stalls with the alarm blocked (the child cannot stop it: the driver must), sends
# garbage and huge replies straight down its answer pipe, and crashes its process.
HOSTILE = """
import os, signal, sys, time
from box_gin import greedy_bot
n = 0
def play(view):
    global n
    n += 1
    if n == 3:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(60)
    if n == 5:
        for fd in range(3, 12):
            try:
                os.write(fd, b'garbage\\n' + b'x' * 100 + b'\\n')
            except OSError:
                pass
    if n == 7:
        return 'discard ' + 'Q' * 100000
    if n == 9:
        os._exit(3)
    return greedy_bot(view)
"""

# Two copies of one idea: leave a note in every writable place, read the other's.
COLLUDER = """
import os, glob
from box_gin import greedy_bot
def play(view):
    for folder in ('/tmp', os.getcwd(), '/dev/shm'):
        try:
            with open(os.path.join(folder, 'box-gin-collude'), 'w') as f:
                f.write(' '.join(str(c) for c in view.hand))
        except OSError:
            pass
    notes = [p for p in glob.glob('/tmp/box-gin-collude*') + glob.glob('/dev/shm/box-gin-*')]
    for p in notes:
        with open(p) as f:
            if set(f.read().split()) - {str(c) for c in view.hand}:
                raise RuntimeError('read another seat')
    return greedy_bot(view)
"""


def _class(tmp_path: Path) -> Path:
    root = tmp_path / "class"
    for name, code in [("honest", HONEST), ("peeker", PEEKER), ("hostile", HOSTILE),
                       ("colluder", COLLUDER), ("colluder2", COLLUDER)]:
        (root / name).mkdir(parents=True)
        (root / name / "bot.py").write_text(code)
    (root / "nobot").mkdir()
    (root / "nobot" / "notes.py").write_text("x = 1\n")
    return root


@needs_bwrap
@pytest.mark.timeout(600)
def test_a_class_tournament_end_to_end_with_hostile_bots(tmp_path: Path) -> None:
    bots, skipped = entrants([_class(tmp_path)], with_references=False)
    assert skipped == ["nobot"]
    bots += references(["greedy_bot"])
    assert [b.name for b in bots] == ["colluder", "colluder2", "honest", "hostile", "peeker",
                                      "greedy_bot"]
    settings = Settings(deals=1, seed=11, budget=Budget(2.0, 60.0), lanes=8)
    results = run(bots, settings, final=False)
    by = {b.name: b for b in results.bots}
    for name in ("honest", "peeker", "colluder", "colluder2", "greedy_bot"):
        assert (by[name].illegal, by[name].timeouts, by[name].crashes) == (0, 0, 0), name
    hostile = by["hostile"]
    assert hostile.timeouts >= 1 and hostile.crashes >= 1
    # Every bot held every seat equally often.
    for b in results.bots:
        assert len(set(b.games_per_seat.values())) == 1
    # Every game's record replays to the result reported, and its digest is the record's.
    for game in results.games:
        match = Match.from_json(game.record)
        assert {r.value: n for r, n in match.history[0].roles.items()} == game.seats
        assert game.digest == hashlib.sha256(game.record.encode()).hexdigest()
        last = match.history[-1].result
        assert (last.winner.value if last.winner else None) == game.winner


@needs_bwrap
@pytest.mark.timeout(600)
def test_the_same_seed_gives_the_same_tournament() -> None:
    """Games, ratings and records, for bots that decide from their view in time (the
    budget is generous: a busy machine must not make a decision late)."""
    bots = [Entrant("honest", cells=(("bot.py", HONEST),)), *references()]
    settings = Settings(deals=1, seed=5, budget=Budget(10.0, 300.0))
    first, again = run(bots, settings), run(bots, settings)
    for results in (first, again):  # a late or failed decision would change the games
        assert [(b.illegal, b.timeouts, b.crashes) for b in results.bots] == [(0, 0, 0)] * 4
    assert again.records_digest == first.records_digest
    assert again.to_dict() == first.to_dict()
    other = run(bots, Settings(deals=1, seed=6, budget=Budget(10.0, 300.0)))
    assert other.records_digest != first.records_digest


@needs_bwrap
@pytest.mark.timeout(600)
def test_the_command_writes_json_records_and_the_leaderboard(tmp_path: Path) -> None:
    from box_gin.cli import main

    root = tmp_path / "class"
    (root / "ada").mkdir(parents=True)
    (root / "ada" / "bot.py").write_text(HONEST)
    out = tmp_path / "out"
    status = main(["tournament", str(root), "--matches", "1", "--seed", "4", "-q",
                   "--json", str(out / "r.json"), "--html", str(out / "r.html")])
    assert status == 0
    data = json.loads((out / "r.json").read_text())
    names = [b["name"] for b in data["bots"]]
    assert sorted(names) == ["ada", "expert_bot", "greedy_bot", "random_bot"]
    for b in data["bots"]:
        assert b["low"] < b["rating"] < b["high"]
        assert set(b["wins_per_seat"]) == {"box", "captain", "sitter"}
    lines = (out / "r.records.jsonl").read_text().splitlines()
    assert len(lines) == len(data["games"]) + 1  # and the final
    for line, game in zip(lines, data["games"], strict=False):
        assert hashlib.sha256(line.encode()).hexdigest() == game["record_sha256"]
        Match.from_json(line)
    page = (out / "r.html").read_text()
    assert "<svg" in page and "ada" in page and "<script" not in page
    assert data["final"]["record"]["winner"] in names


@pytest.mark.timeout(300)
def test_the_same_seed_gives_the_same_results_on_a_dask_cluster() -> None:
    distributed = pytest.importorskip("distributed")
    from box_gin.tournament.distributed import dask_runner

    bots = [*references(), Entrant("greedy_again", reference="greedy_bot")]
    settings = Settings(deals=1, seed=8)
    here = run(bots, settings, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        there = run(bots, settings, runner=dask_runner(client))
    assert there.records_digest == here.records_digest
    assert there.to_dict() == here.to_dict()


CONFINED = """
import os
from box_gin import greedy_bot

def confined():
    with open("/proc/self/status") as f:
        caps = [line.split()[1] for line in f if line.startswith(("CapEff", "CapPrm"))]
    if any(int(c, 16) for c in caps):
        return "a capability is left"
    try:
        with open("/tmp/big", "wb") as f:
            f.write(b"x" * (64 << 20))
        return "wrote 64 MiB to /tmp"
    except OSError:
        pass
    for folder in ("/", "/dev", "/box"):
        try:
            open(os.path.join(folder, "planted"), "w").close()
            return "wrote in " + folder
        except OSError:
            pass
    return None

PROBLEM = confined()

def play(view, advice=None):
    if PROBLEM:
        raise RuntimeError(PROBLEM)
    return greedy_bot(view)
"""


@needs_bwrap
@pytest.mark.timeout(600)
def test_a_bot_runs_with_the_checkers_whole_sandbox() -> None:
    """The bot's child gets the kata child's sandbox: no capability left, /tmp capped,
    the root, /dev and the staged engine read-only (a bot that finds otherwise raises,
    and every raise is counted)."""
    bots = [Entrant("confined", cells=(("bot.py", CONFINED),)), *references()]
    results = run(bots, Settings(deals=1, seed=3, budget=Budget(10.0, 300.0)), final=False)
    confined = {b.name: b for b in results.bots}["confined"]
    assert (confined.illegal, confined.timeouts, confined.crashes) == (0, 0, 0)


def test_without_the_extra_the_command_says_what_to_install(tmp_path: Path, monkeypatch,
                                                           capsys) -> None:
    from box_gin.cli import main

    monkeypatch.setitem(__import__("sys").modules, "openskill", None)  # as if not installed
    (tmp_path / "ada.py").write_text(HONEST)
    assert main(["tournament", str(tmp_path), "--matches", "1", "-q"]) == 1
    err = capsys.readouterr().err
    assert "pip install 'box-gin[tournament]'" in err and "openskill" in err


@needs_bwrap
def test_a_decision_is_timed_in_cpu_time_so_a_wait_is_no_time_out() -> None:
    # A busy machine stretches a decision on the clock, not in CPU time: a bot whose
    # first decision waits 1.5 s, with 0.5 s a decision, is not timed out.
    waits = ("import time\nfrom box_gin import greedy_bot\nN = [0]\n"
             "def play(view):\n    N[0] += 1\n    if N[0] == 1:\n        time.sleep(1.5)\n"
             "    return greedy_bot(view)\n")
    bots = [Entrant("waits", cells=(("bot.py", waits),)), *references()]
    results = run(bots, Settings(deals=1, seed=3, budget=Budget(0.5, 300.0)))
    waited = next(b for b in results.bots if b.name == "waits")
    assert waited.decisions > 1 and (waited.illegal, waited.timeouts, waited.crashes) == (0, 0, 0)
