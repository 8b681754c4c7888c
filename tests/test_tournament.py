"""The class tournament: a fair schedule, hostile bots that change only their own result,
reproducible results and match records that replay (docs/tournament.md)."""

from __future__ import annotations

import collections
import hashlib
import html
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from box_gin import Match
from box_gin.bots import expert_bot, greedy_bot
from box_gin.tournament import (
    REFERENCE_BOTS,
    Budget,
    Entrant,
    Settings,
    measure,
    references,
    run,
    schedule,
)
from box_gin.tournament.cli import entrants
from box_gin.tournament.core import (
    commitment,
    deal_seeds,
    default_action,
    legal_match,
    secret_deal_seeds,
)

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
    assert skipped == [("nobot", "it defines no function named play")]
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
    # Two that cannot enter: listed with their reasons in every output, never dropped.
    (root / "syntax").mkdir()
    (root / "syntax" / "bot.py").write_text("def play(view):\n    return (\n")
    (root / "typo").mkdir()
    (root / "typo" / "bot.py").write_text(HONEST.replace("def play(", "def paly("))
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
    missing = {m["name"]: m["reason"] for m in data["not_entered"]}
    assert set(missing) == {"syntax", "typo"}
    assert "SyntaxError" in missing["syntax"] and "line" in missing["syntax"]
    assert "play" in missing["typo"]
    for name, reason in missing.items():
        assert f'data-bot="{name}"' in page and html.escape(reason) in page
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
@pytest.mark.timeout(600)
def test_a_busy_machine_times_out_no_decision() -> None:
    """A decision's time is what the kernel counts of its CPU (and of its waiting, which
    a busy machine does not add to): with every core kept busy beside it, a bot that
    computes for a fifth of its budget is never timed out."""
    computes = ("import time\nfrom box_gin import greedy_bot\nN = [0]\n"
                "def play(view):\n    N[0] += 1\n    if N[0] <= 24:\n"
                "        t = time.process_time()\n"
                "        while time.process_time() - t < 0.06:\n            pass\n"
                "    return greedy_bot(view)\n")
    bots = [Entrant("computes", cells=(("bot.py", computes),)), *references()]
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
               for _ in range(2 * (os.cpu_count() or 1))]
    try:
        results = run(bots, Settings(deals=1, seed=3, budget=Budget(0.3, 300.0)),
                      final=False)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    bot = next(b for b in results.bots if b.name == "computes")
    assert bot.decisions > 24 and (bot.illegal, bot.timeouts, bot.crashes) == (0, 0, 0)


# -- deals no bot can know, time no bot can hide -------------------------------------------

def test_the_deals_come_from_a_secret_published_by_its_hash() -> None:
    bots = [*references(["random_bot", "greedy_bot"]),
            Entrant("greedy_again", reference="greedy_bot")]
    first, second = (run(bots, Settings(deals=1), final=False) for _ in range(2))
    secrets_used = {first.settings["seed"], second.settings["seed"]}
    assert len(secrets_used) == 2 and "0" not in secrets_used
    for results in (first, second):
        assert results.settings["seed_sha256"] == commitment(results.settings["seed"])
    # Nothing of the public schemes gives a deal: neither the measurement's seeds nor a
    # guessed small secret.
    deals = {spec.seed for spec in schedule(["a", "b", "c"], 1, first.settings["seed"])}
    guessed = {s for n in range(100) for s in deal_seeds(n, 3) + secret_deal_seeds(n, 3)}
    assert not deals & guessed
    # The revealed secret replays the run, record for record.
    again = run(bots, Settings(deals=1, seed=first.settings["seed"]), final=False)
    assert again.records_digest == first.records_digest


# Knows the kit's published schemes and tries them all on small seeds: a deal it can
# compute is one whose every card it knows; finding one, it raises (a crash, counted).
SEED_READER = """
from box_gin import Match, greedy_bot
from box_gin.hand import Role
import hashlib, hmac, random

def _seeds():
    for guess in range(40):
        rng = random.Random(f"box-gin tournament {guess}")
        yield from (rng.getrandbits(63) for _ in range(3))
        for i in range(3):
            mac = hmac.new(str(guess).encode(), f"deal {i}".encode(), hashlib.sha256)
            yield int.from_bytes(mac.digest()[:8], "big") >> 1

KNOWN = {}
for seed in _seeds():
    hand = Match.new(["a", "b", "c"], seed=seed).hand
    for role in (Role.BOX, Role.CAPTAIN):
        KNOWN[frozenset(hand.cards(role))] = seed

def play(view, advice=None):
    if frozenset(view.hand) in KNOWN and len(view.hand) == 10:
        raise RuntimeError("I know this deal: " + str(KNOWN[frozenset(view.hand)]))
    return greedy_bot(view)
"""

# Remembers every hand it is asked about at a deal's first turn, by the upcard: asked
# about the same deal from the other side of the table, it would know its opponent's
# hand (the other side's cards, disjoint from its own), and raises (a crash, counted).
REMEMBERS = """
from box_gin import greedy_bot
SEEN = {}
def _check(view):
    cards = frozenset(view.hand)
    if len(view.discard_pile) == 1 and len(cards) == 10:
        upcard = view.discard_pile[0]
        for other in SEEN.setdefault(upcard, set()):
            if not other & cards:
                raise RuntimeError("I know the other side's hand")
        SEEN[upcard].add(cards)
def play(view, advice=None):
    _check(view)
    return greedy_bot(view)
def advise(view):
    _check(view.captain)
    return greedy_bot(view)
"""

# Switches off the timers of its own child and computes for 3 s of CPU time.
TIMERS_OFF = """
import signal, time
from box_gin import greedy_bot
N = [0]
def play(view, advice=None):
    N[0] += 1
    if N[0] == 2:
        signal.signal(signal.SIGPROF, signal.SIG_IGN)
        signal.signal(signal.SIGALRM, signal.SIG_IGN)
        t = time.process_time()
        while time.process_time() - t < 3.0:
            pass
    return greedy_bot(view)
"""

# Computes past its budget with its timers off, then makes its child report the
# decision as quick: it resets the child's own start of the decision's clock.
LIAR = """
import ctypes, signal, sys, time
from box_gin import greedy_bot
N = [0]
def play(view, advice=None):
    N[0] += 1
    if N[0] == 2:
        signal.signal(signal.SIGPROF, signal.SIG_IGN)
        t = time.process_time()
        while time.process_time() - t < 0.8:
            pass
        frame = sys._getframe(1)
        while frame is not None and "start" not in frame.f_locals:
            frame = frame.f_back
        if frame is not None:
            frame.f_locals["start"] = time.process_time()
            ctypes.pythonapi.PyFrame_LocalsToFast(ctypes.py_object(frame), ctypes.c_int(0))
    return greedy_bot(view)
"""

# Sleeps in every decision, as player and as sitter (its alarm ignored): waiting, not
# computing.
SLEEPER = """
import signal, time
from box_gin import greedy_bot
def play(view, advice=None):
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    time.sleep(5)
    return greedy_bot(view)
def advise(view):
    return play(view)
"""


@needs_bwrap
@pytest.mark.timeout(600)
def test_a_bot_cannot_read_the_deal_from_the_seed() -> None:
    bots = [Entrant("reader", cells=(("bot.py", SEED_READER),)),
            *references(["random_bot", "greedy_bot"])]
    budget = Budget(10.0, 300.0)
    secret = run(bots, Settings(deals=2, budget=budget), final=False)
    reader = next(b for b in secret.bots if b.name == "reader")
    assert reader.decisions > 0 and reader.crashes == 0
    # The same bot, in a tournament replayed from a small published seed it guesses,
    # knows every deal: the test can tell.
    public = run(bots, Settings(deals=2, seed=7, budget=budget), final=False)
    assert next(b for b in public.bots if b.name == "reader").crashes > 0


#: The reference greedy bot as a learner would submit it: a captain that takes its
#: sitter's legal advice, else plays greedy; as sitter, greedy's advice.
GREEDY_AS_SUBMITTED = """
from box_gin import greedy_bot
from box_gin.bots import advise as kit_advise

def play(view, advice=None):
    if advice is not None and advice in view.legal_actions:
        return advice
    return greedy_bot(view)

def advise(view):
    return kit_advise(view).action
"""


@needs_bwrap
@pytest.mark.timeout(600)
def test_sandboxed_bots_see_the_views_the_engine_gives() -> None:
    """The reference greedy bot, submitted as code and run in the sandbox, plays the very
    games it plays in this process: every decision of every game the same, so every
    view its children made (the first of each hand whole, the others from what changed
    since) was the engine's own.  Six games side by side, so that hands interleave."""
    names = ["b0", "b1", "b2"]
    settings = Settings(deals=2, seed=7, budget=Budget(10.0, 300.0), lanes=6)
    sandboxed = run([Entrant(n, cells=(("bot.py", GREEDY_AS_SUBMITTED),)) for n in names],
                    settings, final=False)
    here = run([Entrant(n, reference="greedy_bot") for n in names], settings, final=False)
    assert [(b.illegal, b.timeouts, b.crashes) for b in sandboxed.bots] == [(0, 0, 0)] * 3
    assert sum(b.decisions for b in sandboxed.bots) > 500
    assert [g.record for g in sandboxed.games] == [g.record for g in here.games]
    assert sandboxed.records_digest == here.records_digest


@needs_bwrap
@pytest.mark.timeout(600)
def test_a_bot_never_sees_both_sides_of_a_deal() -> None:
    """The six seatings of a deal are played side by side; a bot's box seats and its
    captain and sitter seats go to two children, so what one child is asked never shows
    the other side's cards of the same deal."""
    bots = [Entrant("remembers", cells=(("bot.py", REMEMBERS),)),
            *references(["random_bot", "greedy_bot"])]
    results = run(bots, Settings(deals=1, seed=12, budget=Budget(10.0, 300.0)), final=False)
    bot = next(b for b in results.bots if b.name == "remembers")
    assert bot.decisions > 0 and (bot.illegal, bot.timeouts, bot.crashes) == (0, 0, 0)
    # The control: one child asked about every seating (as before) is caught.
    from box_gin.checker.sandbox import open_sandbox
    from box_gin.tournament.core import LocalPlayer, Player, play_games, schedule
    from box_gin.tournament.sandboxed import SandboxedPlayer, bot_sandbox

    base = open_sandbox("auto", jobs=1)
    try:
        one = SandboxedPlayer("remembers", [("bot.py", REMEMBERS)], bot_sandbox(base),
                              Settings().rules, Budget(10.0, 300.0))
        players: dict[str, Player] = {
            "remembers": one, **{name: LocalPlayer(name, *REFERENCE_BOTS[name])
                                 for name in ("random_bot", "greedy_bot")}}
        specs = schedule(["remembers", "random_bot", "greedy_bot"], 1, 12)
        games = play_games(specs, players, budget=Budget(10.0, 300.0),
                           trusted=["random_bot", "greedy_bot"])
        one.close()
    finally:
        base.close()
    assert sum(g.tallies["remembers"]["crash"] for g in games) > 0


@needs_bwrap
@pytest.mark.timeout(600)
def test_cpu_time_is_the_kernels_whatever_the_bot_does_to_its_timers() -> None:
    bots = [Entrant("timers_off", cells=(("bot.py", TIMERS_OFF),)),
            Entrant("liar", cells=(("bot.py", LIAR),)),
            Entrant("honest", cells=(("bot.py", HONEST),)), *references(["greedy_bot"])]
    results = run(bots, Settings(deals=1, seed=2, budget=Budget(0.5, 300.0)), final=False)
    by = {b.name: b for b in results.bots}
    for name in ("timers_off", "liar"):
        assert by[name].timeouts >= 1, name
    assert (by["honest"].timeouts, by["honest"].crashes) == (0, 0)


@needs_bwrap
@pytest.mark.timeout(600)
def test_a_sleeping_bot_is_benched_and_costs_the_class_little() -> None:
    bots = [Entrant("sleeper", cells=(("bot.py", SLEEPER),)),
            *references(["random_bot", "greedy_bot"]),
            Entrant("greedy_again", reference="greedy_bot")]
    results = run(bots, Settings(deals=1, seed=4, budget=Budget(1.0, 300.0)), final=False)
    sleeper = next(b for b in results.bots if b.name == "sleeper")
    assert sleeper.timeouts + sleeper.crashes > 0
    # Each game waited on it once at most: a time-out benches it for the rest of the game
    # (and once its child has been started too often, it is out: asked nothing, each
    # decision a crash).
    for game in results.games:
        tally = game.tallies.get("sleeper")
        if tally is not None:
            assert tally["decisions"] - tally["crash"] <= 1, tally
    others = [b for b in results.bots if b.name != "sleeper"]
    assert all((b.illegal, b.timeouts, b.crashes) == (0, 0, 0) for b in others)


def test_a_flat_folder_of_learners_files_is_a_bot_a_file(tmp_path: Path) -> None:
    """Files laid flat in one folder, as an LMS download gives them: each that defines
    play is a bot of its own, and the reading is said; a learner's own folder of
    several files stays one bot."""
    from box_gin.tournament.cli import read_entrants

    flat = tmp_path / "download"
    flat.mkdir()
    for name in ("alice", "bob"):
        (flat / f"{name}.py").write_text(HONEST)
    (flat / "notes.py").write_text("x = 1\n")
    found = read_entrants([flat], with_references=False)
    assert [b.name for b in found.bots] == ["alice", "bob"]
    assert len(found.notes) == 1 and "2 files define play" in found.notes[0]
    learner = tmp_path / "class" / "carol"
    learner.mkdir(parents=True)
    for name in ("bot", "bot_copy"):
        (learner / f"{name}.py").write_text(HONEST)
    found = read_entrants([tmp_path / "class"], with_references=False)
    assert [b.name for b in found.bots] == ["carol"] and not found.notes


def test_progress_is_told_game_by_game_and_the_cut_changes_no_game() -> None:
    """Progress is told as each game ends, here and from worker processes (each worker
    starts its bots' children once, never once a chunk); the same games whatever the
    number of workers."""
    bots = [*references(["random_bot", "greedy_bot"]),
            *(Entrant(f"greedy_{i}", reference="greedy_bot") for i in range(3))]
    told: list[tuple[int, int]] = []
    results = run(bots, Settings(deals=1, seed=9), final=False,
                  progress=lambda done, total: told.append((done, total)))
    games = len(results.games)
    assert told == [(n, games) for n in range(1, games + 1)]
    told_by_workers: list[tuple[int, int]] = []
    again = run(bots, Settings(deals=1, seed=9), jobs=2, final=False,
                progress=lambda done, total: told_by_workers.append((done, total)))
    assert told_by_workers == told
    assert again.records_digest == results.records_digest


# Writes down its child's answer pipe with the child's own nonce and sender (found in
# its caller's frame), inside a batch: once a line of answers for more decisions than
# the batch asked (the held ones, and forged ones for games it was not asked about),
# once a line out of order (its own next place skipped).
FORGER = """
import sys
from box_gin import greedy_bot
asked = [0]
def play(view):
    asked[0] += 1
    frame = sys._getframe(1)
    while frame is not None and "held" not in frame.f_locals:
        frame = frame.f_back
    if frame is not None and asked[0] == 2:
        ns = frame.f_locals
        forged = [{"a": "pass", "k": 1, "s": 0}] * 300
        ns["send"]({"t": "a", "id": ns["number"], "i": ns["first"], "n": ns["held"] + forged})
    if frame is not None and asked[0] == 3:
        ns = frame.f_locals
        ns["send"]({"t": "a", "id": ns["number"], "i": ns["first"] + 1,
                    "n": [{"a": "pass", "k": 1, "s": 0}]})
    return greedy_bot(view)
"""


@needs_bwrap
@pytest.mark.timeout(600)
def test_forged_lines_of_answers_inside_a_batch_are_refused_and_counted() -> None:
    """Answers past the batch's end or out of order break the protocol: the child is
    started again, the decisions it owed are its crashes, played by default; nothing it
    forged is played, and the other bots are untouched."""
    bots = [Entrant("forger", cells=(("bot.py", FORGER),)),
            Entrant("honest", cells=(("bot.py", HONEST),)), *references(["greedy_bot"])]
    results = run(bots, Settings(deals=1, seed=6, budget=Budget(2.0, 60.0), lanes=8),
                  final=False)
    by = {b.name: b for b in results.bots}
    # Refused, counted as crashes; never read as its answers (a forged "pass" taken
    # would be an illegal move).
    assert by["forger"].crashes >= 1 and by["forger"].illegal == 0
    assert all((by[n].illegal, by[n].timeouts, by[n].crashes) == (0, 0, 0)
               for n in ("honest", "greedy_bot"))
    for game in results.games:  # every record replays: nothing forged was played
        match = Match.from_json(game.record)
        last = match.history[-1].result
        assert (last.winner.value if last.winner else None) == game.winner


def test_games_collect_cycles_less_often_and_give_the_threshold_back() -> None:
    """While games are played the collector's first threshold is raised (a game's
    objects hold no cycles); the caller's comes back after, and after a player fails."""
    import gc

    from box_gin.tournament.core import GC_THRESHOLD, LocalPlayer, play_games

    seen: list[int] = []

    def watching(view):
        seen.append(gc.get_threshold()[0])
        return greedy_bot(view)

    class Broken(LocalPlayer):
        def receive(self):
            raise RuntimeError("the player broke")

    names = ["a", "b", "c"]
    specs = schedule(names, 1, 4)[:2]
    before = gc.get_threshold()
    gc.set_threshold(700, *before[1:])
    try:
        games = play_games(specs, {n: LocalPlayer(n, watching, greedy_bot) for n in names})
        assert len(games) == 2 and seen and set(seen) == {GC_THRESHOLD}
        assert gc.get_threshold()[0] == 700
        players = {n: Broken(n, watching, greedy_bot) for n in names}
        with pytest.raises(RuntimeError, match="the player broke"):
            play_games(specs, players)
        assert gc.get_threshold()[0] == 700
    finally:
        gc.set_threshold(*before)
