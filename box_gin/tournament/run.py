"""Running a tournament: entrants, chunks of games in workers, the results gathered.

:func:`run` plays the whole schedule (here, in ``jobs`` worker processes, or on a Dask
cluster), rates the bots and plays the final; the results never depend on how the
games were spread: each game is played from its own seed, by stateless reference bots
and by sandboxed bots that see only their views, and the results are put back in
schedule order before anything is rated.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import multiprocessing
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..rules import STANDARD, Rules
from .core import (
    FAULTS,
    REFERENCE_BOTS,
    SEATS,
    Budget,
    GameResult,
    GameSpec,
    LocalPlayer,
    commitment,
    new_secret,
    play_games,
    schedule,
    secret_deal_seeds,
)
from .ratings import Rating, places, rate


@dataclass(frozen=True)
class Entrant:
    """A bot in the tournament: a reference bot (by its name in
    :data:`~box_gin.tournament.core.REFERENCE_BOTS`) or a submission's code cells."""

    name: str
    reference: str | None = None
    cells: tuple[tuple[str, str], ...] = ()
    #: Problems found when reading the submission (shown in the report).
    problems: tuple[str, ...] = ()


def references(names: Sequence[str] = ("random_bot", "greedy_bot", "expert_bot")
               ) -> list[Entrant]:
    """The reference bots as entrants."""
    return [Entrant(name, reference=name) for name in names]


@dataclass
class Settings:
    """How a tournament is played."""

    deals: int = 2
    #: The secret the deals come from (None: a fresh one, drawn by :func:`run`); given,
    #: it replays a published tournament.
    seed: int | str | None = None
    rules: Rules = STANDARD
    budget: Budget = field(default_factory=Budget)
    #: A game ends at its first hand someone wins, or after this many (None: the whole
    #: match, as in the final).
    max_hands: int | None = 3
    #: Games played side by side (each bot asked for all of them that wait on it, in
    #: one batch): the more, the fewer and larger the batches, the less each decision
    #: costs the wire (8 greedy bots, 2,016 games: 19% less CPU with 1,024 than 256).
    lanes: int = 1024
    #: The sandbox kind for submissions ("auto", "bubblewrap", "uid", "none").
    isolation: str = "auto"


def _players(entrants: Sequence[Entrant], needed: set[str], settings: Settings,
             box: Any) -> dict[str, Any]:
    from .sandboxed import SandboxedPlayer, SidedPlayer

    players: dict[str, Any] = {}
    for e in entrants:
        if e.name not in needed:
            continue
        if e.reference is not None:
            play, advise = REFERENCE_BOTS[e.reference]
            players[e.name] = LocalPlayer(e.name, play, advise)
        else:
            cells = [(c[0], c[1]) for c in e.cells]
            players[e.name] = SidedPlayer(*(
                SandboxedPlayer(e.name, cells, box, settings.rules, settings.budget)
                for _side in range(2)))
    return players


def play_chunk(entrants: Sequence[Entrant], specs: Sequence[GameSpec], settings: Settings,
               done: Callable[[int], None] | None = None) -> list[GameResult]:
    """Play ``specs`` in this process: the submissions' bots each in a sandboxed child
    of its own (one sandbox for the chunk), the reference bots here; ``done(1)`` as each
    game ends (else, in a worker of the local runner, its progress queue is told)."""
    if done is None and _PROGRESS is not None:
        done = _PROGRESS.put
    from ..checker.sandbox import open_sandbox
    from .sandboxed import bot_sandbox, close_all, launch_all

    needed = {name for s in specs for name in s.players}
    sandboxed = [e for e in entrants if e.name in needed and e.reference is None]
    box = base = None
    if sandboxed:
        base = open_sandbox(settings.isolation, jobs=2 * len(sandboxed))  # two a bot
        box = bot_sandbox(base)  # the engine staged under base's stage, removed with it
    players = _players(entrants, needed, settings, box)
    try:
        launch_all(players.values())  # every child's start side by side
        return play_games(specs, players, rules=settings.rules, budget=settings.budget,
                          max_hands=settings.max_hands,
                          lanes=settings.lanes,
                          trusted=[e.name for e in entrants if e.reference is not None],
                          done=done)
    finally:
        close_all(players.values())
        if base is not None:
            base.close()


def chunks(specs: Sequence[GameSpec], n: int) -> list[list[GameSpec]]:
    """The games cut into ``n`` runs of whole groups (a group's bots start once)."""
    by_group: dict[int, list[GameSpec]] = {}
    for s in specs:
        by_group.setdefault(s.group, []).append(s)
    groups = list(by_group.values())
    n = max(1, min(n, len(groups)))
    out: list[list[GameSpec]] = [[] for _ in range(n)]
    size = -(-len(groups) // n)
    for i, g in enumerate(groups):
        out[i // size].extend(g)
    return [c for c in out if c]


@dataclass
class BotSummary:
    """One bot's line of the leaderboard."""

    name: str
    reference: bool
    rating: float
    sigma: float
    low: float
    high: float
    place: int
    games: int
    wins: int
    games_per_seat: dict[str, int]
    wins_per_seat: dict[str, int]
    decisions: int
    illegal: int
    timeouts: int
    crashes: int
    problems: list[str]
    #: The first crash (in schedule order): its game, hand and role, and what the bot
    #: raised and where when its child said (:attr:`.core.Tally.first_crash`).
    first_crash: dict[str, Any] | None = None


@dataclass
class Results:
    """A tournament's results: the leaderboard, every game, the final."""

    settings: dict[str, Any]
    bots: list[BotSummary]
    games: list[GameResult]
    final: GameResult | None
    #: The sha256 of every match record in order, chained: changing one changes it.
    records_digest: str

    def to_dict(self, records: bool = False) -> dict[str, Any]:
        """Plain data for JSON (``records``: with every match record in it)."""
        games = []
        for g in self.games:
            entry: dict[str, Any] = {"index": g.index, "seats": g.seats, "winner": g.winner,
                                     "points": g.points, "outcome": g.outcome,
                                     "faults": {n: {k: t[k] for k in FAULTS}
                                                for n, t in g.tallies.items()},
                                     "record_sha256": g.digest}
            if records:
                entry["record"] = json.loads(g.record)
            games.append(entry)
        final = None
        if self.final is not None:
            final = {"seats": self.final.seats, "record": json.loads(self.final.record),
                     "record_sha256": self.final.digest}
        return {"settings": self.settings, "bots": [asdict(b) for b in self.bots],
                "games": games, "final": final, "records_sha256": self.records_digest}


def summarise(entrants: Sequence[Entrant], games: Sequence[GameResult]) -> list[BotSummary]:
    """Each bot's rating, interval, place, games, wins per seat and faults."""
    names = [e.name for e in entrants]
    ratings: dict[str, Rating] = rate(names, games)
    place = places(ratings)
    out = []
    for e in entrants:
        per_seat = dict.fromkeys((s.value for s in SEATS), 0)
        wins = dict.fromkeys((s.value for s in SEATS), 0)
        faults = dict.fromkeys(FAULTS, 0)
        decisions = 0
        first: dict[str, Any] | None = None
        for g in games:
            seat = next((s for s, n in g.seats.items() if n == e.name), None)
            if seat is None:
                continue
            per_seat[seat] += 1
            side = "box" if seat == "box" else "captain"
            if g.winner == side:
                wins[seat] += 1
            tally = g.tallies[e.name]
            crash = tally.get("first_crash")
            if crash and (first is None or ("type" not in first and "type" in crash)):
                first = crash if first is None else {**crash, **{
                    k: first[k] for k in ("game", "hand", "role")}}
            decisions += tally["decisions"]
            for k in FAULTS:
                faults[k] += tally[k]
        r = ratings[e.name]
        out.append(BotSummary(
            name=e.name, reference=e.reference is not None, rating=round(r.mu, 4),
            sigma=round(r.sigma, 4), low=round(r.low, 4), high=round(r.high, 4),
            place=place[e.name], games=sum(per_seat.values()), wins=sum(wins.values()),
            games_per_seat=per_seat, wins_per_seat=wins, decisions=decisions,
            illegal=faults["illegal"], timeouts=faults["timeout"], crashes=faults["crash"],
            problems=list(e.problems), first_crash=first))
    out.sort(key=lambda b: (-b.rating, b.name))
    return out


#: What plays chunks of games: ``runner(entrants, parts, settings, done=None)``, the
#: results of each part in the parts' order; ``done(n)``, when given, is called as
#: each part of ``n`` games is played.
Runner = Callable[..., list[list[GameResult]]]
#: In a worker process of the local runner: where it tells the games it has played.
_PROGRESS: Any = None


def _worker(queue: Any) -> None:
    global _PROGRESS
    _PROGRESS = queue


def _local_runner(jobs: int) -> Runner:
    """Play the parts here (one after the other, each starting its bots' children once),
    or ``jobs`` at a time in worker processes; ``done(n)`` is told as games end, in
    either case (the workers put each game on a queue that a thread here reads)."""
    def runner(entrants: list[Entrant], parts: list[list[GameSpec]], settings: Settings,
               done: Callable[[int], None] | None = None) -> list[list[GameResult]]:
        if jobs <= 1 or len(parts) <= 1:
            return [play_chunk(entrants, part, settings, done=done) for part in parts]
        context = multiprocessing.get_context("spawn")
        queue = context.Queue()
        total = sum(len(p) for p in parts)

        def tell() -> None:
            for _ in range(total):
                n = queue.get()
                if n is None:
                    return
                if done is not None:
                    done(n)

        teller = threading.Thread(target=tell, daemon=True)
        teller.start()
        try:
            with concurrent.futures.ProcessPoolExecutor(
                    jobs, mp_context=context, initializer=_worker,
                    initargs=(queue,)) as pool:
                futures = [pool.submit(play_chunk, entrants, part, settings)
                           for part in parts]
                return [f.result() for f in futures]
        finally:
            queue.put(None)
            teller.join(timeout=5)

    return runner


def run(entrants: Sequence[Entrant], settings: Settings | None = None, *, jobs: int = 1,
        runner: Runner | None = None, final: bool = True,
        progress: Callable[[int, int], None] | None = None) -> Results:
    """Play the tournament of ``entrants`` (see the module's docstring); ``progress(done,
    total)`` is told the games played so far as chunks of them end."""
    settings = settings or Settings()
    if settings.seed is None:
        settings = replace(settings, seed=new_secret())
    assert settings.seed is not None
    entrants = list(entrants)
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise ValueError(f"two bots have the same name: {names}")
    specs = schedule(names, settings.deals, settings.seed)
    # A part a worker (each starts its bots' children once); progress is told game by
    # game whatever the cut.
    parts = chunks(specs, max(1, jobs) if runner is None else 4)
    runner = runner or _local_runner(jobs)
    played = 0

    def done(n: int) -> None:
        nonlocal played
        played += n
        if progress is not None:
            progress(played, len(specs))

    games = sorted((g for part in runner(entrants, parts, settings, done=done) for g in part),
                   key=lambda g: g.index)
    bots = summarise(entrants, games)
    chain = hashlib.sha256()
    for g in games:
        chain.update(bytes.fromhex(g.digest))
    last = None
    if final and len(bots) >= 3:
        top = tuple(b.name for b in bots[:3])
        final_seed = secret_deal_seeds(settings.seed, 1, "final")[0]
        spec = GameSpec(-1, (top[0], top[1], top[2]), final_seed, -1, -1)
        last = runner(entrants, [[spec]], _final_settings(settings))[0][0]
    info = {"deals": settings.deals, "seed": str(settings.seed),
            "seed_sha256": commitment(settings.seed), "rules": settings.rules.to_dict(),
            "decision_seconds": settings.budget.decision, "game_seconds": settings.budget.game,
            "max_hands": settings.max_hands, "games": len(games), "bots": len(entrants)}
    return Results(info, bots, games, last, chain.hexdigest())


def _final_settings(settings: Settings) -> Settings:
    """The final: a whole match to the target (at most 60 hands)."""
    return replace(settings, max_hands=None,
                   budget=Budget(settings.budget.decision, settings.budget.game * 30))
