#!/usr/bin/env python3
"""box-gin side by side with RLCard and OpenSpiel, in one run.

    python benchmarks/run.py            # full run, print the table
    python benchmarks/run.py --write    # ... and rewrite the table in benchmarks/README.md
    python benchmarks/run.py --quick    # small sizes, a smoke run of a few seconds

What it measures (every figure is the best of several repeats, on the same machine, in
the same process, one engine after the other):

1. 10-card hands: box-gin ``best_melds`` (the whole arrangement and its deadwood) and
   its value-only kernel ``min_deadwood_mask``; OpenSpiel's C++
   ``GinRummyUtils(13, 4, 10).min_deadwood``; RLCard's ``get_best_meld_clusters`` with
   its deadwood count.
2. 11-card best-discard analysis: box-gin ``best_discards`` (the public analysis) and its
   mask-level kernel; the exact equivalent in OpenSpiel and RLCard: the least deadwood of
   each 10-card hand left by each of the 11 possible discards.
3. Complete hands between two random players: box-gin ``Hand`` driven by
   ``legal_actions``/``apply``; OpenSpiel's ``gin_rummy`` game (chance outcomes included);
   RLCard's ``gin-rummy`` environment.  Every engine picks uniformly among its legal
   actions with its own seeded ``random.Random``.
4. box-gin's peak memory in a 100,000-hand random simulation: the peak resident set size
   (Linux ``VmHWM``; ``ru_maxrss`` elsewhere) of a fresh child process that imports only
   ``box_gin``.
5. Exactness: every hand timed in (1) and (2), plus a dense set of hands made only of
   aces to sevens, is answered by all three engines and the answers must agree; any
   mismatch makes the script exit with status 1.

box-gin's rows time its default, pure-Python path.  When the optional compiled extension
is built (``box_gin.speedups.available()``), ``best_melds``, ``best_discards`` and complete
hands are timed again in the same run with ``box_gin.speedups.use_compiled()``: rows and
ratios marked "compiled (opt-in)"; their answers join the exactness check.

Cards are converted to each library's own representation before any timing starts.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run from a checkout even when box_gin is not installed
    sys.path.insert(0, str(ROOT))

from box_gin.cards import BY_INDEX, Card  # noqa: E402
from box_gin.hand import Hand  # noqa: E402
from box_gin.knocking import best_discards  # noqa: E402
from box_gin.melds import best_melds, min_deadwood_mask  # noqa: E402

try:  # the optional compiled path (off by default)
    from box_gin import speedups as _speedups
except ImportError:  # pragma: no cover - older engines
    _speedups = None  # type: ignore[assignment]

try:  # the mask-level kernel shared by best_discards and Hand.legal_actions
    from box_gin.melds import _deadwood_after_discards as _bg_discard_kernel
except ImportError:  # pragma: no cover - older engines
    _bg_discard_kernel = None

README = HERE / "README.md"
BEGIN = "<!-- bench:begin -->"
END = "<!-- bench:end -->"
COMMAND = "make bench"

# Targets of the issues: (what, ratio needed).
TARGETS = {
    "melds_vs_openspiel": 1.0,
    "melds_vs_rlcard": 10.0,
    "discards_vs_openspiel": 3.0,
    "discards_vs_rlcard": 3.0,  # issue A's floor
    "hands_vs_openspiel": 2.0,
    "hands_vs_rlcard": 10.0,
    "memory_mb": 200.0,
}


@dataclass(frozen=True)
class Sizes:
    """How much work each part does."""

    melds_hands: int  # random 10-card hands, timed and checked
    discard_hands: int  # random 11-card hands, timed and checked
    dense_melds: int  # 10-card hands of aces to sevens, checked
    dense_discards: int  # 11-card hands of aces to sevens, checked
    play_hands: int  # complete hands per repeat for box-gin and OpenSpiel
    play_hands_rlcard: int  # complete hands per repeat for RLCard (it is slow)
    memory_hands: int  # the memory simulation
    repeats: int


FULL = Sizes(100_000, 20_000, 20_000, 5_000, 1_000, 200, 100_000, 5)
QUICK = Sizes(2_000, 500, 500, 200, 40, 10, 300, 2)


# ---------------------------------------------------------------------------
# Hands, as lists of box-gin card indices (suit * 13 + rank - 1).

def random_hands(rng: random.Random, n: int, size: int, pool: Sequence[int] = range(52)
                 ) -> list[list[int]]:
    """``n`` hands of ``size`` distinct cards drawn from ``pool``."""
    pool = list(pool)
    return [rng.sample(pool, size) for _ in range(n)]


#: The dense pool: aces to sevens of every suit (28 cards), where melds overlap most.
LOW_POOL = [s * 13 + r for s in range(4) for r in range(7)]


def best_of(repeats: int, fn: Callable[[Any], Any], arg: Any) -> tuple[float, Any]:
    """The least wall time of ``repeats`` calls of ``fn(arg)``, and the last result."""
    best = float("inf")
    out = None
    for _ in range(repeats):
        gc.collect()
        t0 = time.perf_counter()
        out = fn(arg)
        best = min(best, time.perf_counter() - t0)
    return best, out


# ---------------------------------------------------------------------------
# box-gin

COMPILED = "compiled (opt-in)"


def compiled_available() -> bool:
    """Whether box-gin's optional compiled path is built and can be switched on."""
    return _speedups is not None and _speedups.available()


@contextmanager
def on_path(compiled: bool) -> Iterator[None]:
    """Run the block on box-gin's pure-Python path or its compiled one, then restore."""
    if _speedups is None or not _speedups.available():
        if compiled:
            raise RuntimeError("box-gin's compiled path is not available")
        yield
        return
    before = _speedups.enabled()
    _speedups.use_compiled(compiled)
    try:
        yield
    finally:
        _speedups.use_compiled(before)


def best_on(compiled: bool, repeats: int, fn: Callable[[Any], Any], arg: Any
            ) -> tuple[float, Any]:
    """:func:`best_of` on one of box-gin's paths."""
    with on_path(compiled):
        return best_of(repeats, fn, arg)


def bg_cards(hands: list[list[int]]) -> list[tuple[Card, ...]]:
    """Hands as tuples of box-gin cards."""
    return [tuple(BY_INDEX[i] for i in h) for h in hands]


def bg_masks(hands: list[list[int]]) -> list[int]:
    """Hands as 52-bit masks."""
    return [sum(1 << i for i in h) for h in hands]


def bg_best_melds(hands: list[tuple[Card, ...]]) -> list[int]:
    """``best_melds`` on each hand; its deadwood values."""
    return [best_melds(h).deadwood_value for h in hands]


def bg_min_deadwood(masks: list[int]) -> list[int]:
    """The value-only kernel on each hand mask."""
    return [min_deadwood_mask(m) for m in masks]


def bg_best_discards(hands: list[tuple[Card, ...]]) -> list[Any]:
    """``best_discards`` (the public analysis) on each 11-card hand, with the deadwood after
    every discard read inside the timing: the analysis works that out lazily, and the
    peers' equivalent computes all eleven values."""
    out = []
    for h in hands:
        analysis = best_discards(h)
        analysis.deadwood_after  # noqa: B018 - read to make the lazy analysis do its work
        out.append(analysis)
    return out


def bg_discard_kernel(masks: list[int]) -> list[Any]:
    """The mask-level discard kernel on each 11-card mask: (bit, deadwood) pairs."""
    if _bg_discard_kernel is not None:
        kernel = _bg_discard_kernel
        return [kernel(m) for m in masks]
    return [_kernel_fallback(m) for m in masks]


def _kernel_fallback(mask: int) -> list[tuple[int, int]]:
    out = []
    rest = mask
    while rest:
        low = rest & -rest
        out.append((low, min_deadwood_mask(mask ^ low)))
        rest ^= low
    return out


def bg_discard_values(analyses: list[Any]) -> list[dict[int, int]]:
    """``{card index: deadwood after discarding it}`` from box-gin analyses."""
    return [{c.index: d for c, d in a.deadwood_after.items()} for a in analyses]


def bg_kernel_values(results: list[Any]) -> list[dict[int, int]]:
    """The same from the kernel's (bit, deadwood) pairs."""
    return [{bit.bit_length() - 1: d for bit, d in pairs} for pairs in results]


def bg_play(n: int, seed: int = 1) -> tuple[int, int]:
    """``n`` complete hands between random players: (decisions made, hands drawn)."""
    rng = random.Random(seed)
    choice = rng.choice
    decisions = drawn = 0
    for i in range(n):
        hand = Hand.deal(seed=seed * 1_000_003 + i)
        while not hand.is_over:
            hand.apply(choice(hand.legal_actions()))
            decisions += 1
        assert hand.result is not None
        drawn += hand.result.winner is None
    return decisions, drawn


# ---------------------------------------------------------------------------
# OpenSpiel (cards are ints: suit * 13 + rank - 1, the same layout as box-gin's
# index; suits are named differently, which cannot change a deadwood count)

def os_utils() -> Any:
    import pyspiel

    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def os_min_deadwood(hands: list[list[int]]) -> list[int]:
    fn = os_utils().min_deadwood
    return [fn(h) for h in hands]


def os_discard_lists(hands: list[list[int]]) -> list[list[tuple[int, list[int]]]]:
    """Prepared before timing: for each hand, (discard, the 10 cards left) for each card."""
    return [[(c, [x for x in h if x != c]) for c in h] for h in hands]


def os_best_discards(prepared: list[list[tuple[int, list[int]]]]) -> list[list[int]]:
    fn = os_utils().min_deadwood
    return [[fn(rest) for _c, rest in options] for options in prepared]


def os_play(n: int, seed: int = 1) -> tuple[int, int]:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    choice = rng.choice
    decisions = drawn = 0
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])  # uniform
            else:
                state.apply_action(choice(state.legal_actions()))
                decisions += 1
    return decisions, drawn


# ---------------------------------------------------------------------------
# RLCard (card_id = suit * 13 + rank - 1 with suits S H D C)

def rl_cards(hands: list[list[int]]) -> list[list[Any]]:
    from rlcard.games.gin_rummy.utils import utils

    deck = utils.get_deck()
    return [[deck[i] for i in h] for h in hands]


def _rl_deadwood() -> Callable[[list[Any]], int]:
    from rlcard.games.gin_rummy.utils import melding, utils

    clusters_of = melding.get_best_meld_clusters
    count = utils.get_deadwood_count
    value = utils.get_deadwood_value

    def deadwood(hand: list[Any]) -> int:
        clusters = clusters_of(hand)
        if clusters:
            return int(count(hand, clusters[0]))
        return sum(value(c) for c in hand)  # no meld at all

    return deadwood


def rl_best_melds(hands: list[list[Any]]) -> list[int]:
    deadwood = _rl_deadwood()
    return [deadwood(h) for h in hands]


def rl_discard_lists(hands: list[list[Any]]) -> list[list[list[Any]]]:
    """Prepared before timing: for each hand, the 10 cards left by each discard."""
    return [[[x for x in h if x is not c] for c in h] for h in hands]


def rl_best_discards(prepared: list[list[list[Any]]]) -> list[list[int]]:
    deadwood = _rl_deadwood()
    return [[deadwood(rest) for rest in options] for options in prepared]


def rl_play(n: int, seed: int = 1) -> tuple[int, int]:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rng = random.Random(seed)
    choice = rng.choice
    decisions = drawn = 0
    for _ in range(n):
        state, _player = env.reset()
        while not env.is_over():
            state, _player = env.step(choice(list(state["legal_actions"])))
            decisions += 1
    return decisions, drawn


def peers_available() -> tuple[bool, str]:
    """Whether RLCard and OpenSpiel can be imported, and if not why."""
    missing = []
    for module in ("rlcard", "pyspiel"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        return False, (f"{' and '.join(missing)} not installed "
                       "(pip install -e '.[bench]')")
    return True, ""


# ---------------------------------------------------------------------------
# Exactness

@dataclass
class Exactness:
    compared_10: int = 0
    compared_11: int = 0
    mismatches: list[str] = field(default_factory=list)

    def check_10(self, hands: list[list[int]], answers: dict[str, list[int]]) -> None:
        """Every engine's least deadwood of each 10-card hand agrees."""
        names = list(answers)
        for i, h in enumerate(hands):
            values = {name: answers[name][i] for name in names}
            if len(set(values.values())) != 1 and len(self.mismatches) < 20:
                self.mismatches.append(f"10 cards {sorted(h)}: {values}")
            self.compared_10 += 1

    def check_11(self, hands: list[list[int]], answers: dict[str, list[dict[int, int]]]
                 ) -> None:
        """Every engine's deadwood after each discard of each 11-card hand agrees."""
        names = list(answers)
        for i, h in enumerate(hands):
            for name in names:
                if answers[name][i] != answers[names[0]][i] and len(self.mismatches) < 20:
                    self.mismatches.append(
                        f"11 cards {sorted(h)}: {names[0]} {answers[names[0]][i]} "
                        f"vs {name} {answers[name][i]}")
            self.compared_11 += 1


def by_discard(hands: list[list[int]], values: list[list[int]]) -> list[dict[int, int]]:
    """Per-discard lists (in hand order) as ``{card index: deadwood}``."""
    return [dict(zip(h, v, strict=True)) for h, v in zip(hands, values, strict=True)]


def cross_check(hands10: list[list[int]], hands11: list[list[int]],
                with_peers: bool = True) -> Exactness:
    """Untimed: answer every hand with every engine and compare.  Without peers, box-gin's
    public functions are compared with its own kernels only."""
    ex = Exactness()
    with on_path(False):
        answers10: dict[str, list[int]] = {
            "box-gin best_melds": bg_best_melds(bg_cards(hands10)),
            "box-gin min_deadwood_mask": bg_min_deadwood(bg_masks(hands10)),
        }
        answers11: dict[str, list[dict[int, int]]] = {
            "box-gin best_discards": bg_discard_values(bg_best_discards(bg_cards(hands11))),
            "box-gin kernel": bg_kernel_values(bg_discard_kernel(bg_masks(hands11))),
        }
    if compiled_available():
        with on_path(True):
            answers10[f"box-gin best_melds, {COMPILED}"] = bg_best_melds(bg_cards(hands10))
            answers10[f"box-gin min_deadwood_mask, {COMPILED}"] = \
                bg_min_deadwood(bg_masks(hands10))
            answers11[f"box-gin best_discards, {COMPILED}"] = \
                bg_discard_values(bg_best_discards(bg_cards(hands11)))
    if with_peers:
        answers10["OpenSpiel"] = os_min_deadwood(hands10)
        answers10["RLCard"] = rl_best_melds(rl_cards(hands10))
        answers11["OpenSpiel"] = by_discard(hands11, os_best_discards(os_discard_lists(hands11)))
        answers11["RLCard"] = by_discard(
            hands11, rl_best_discards(rl_discard_lists(rl_cards(hands11))))
    ex.check_10(hands10, answers10)
    ex.check_11(hands11, answers11)
    return ex


# ---------------------------------------------------------------------------
# Memory: a fresh child process that imports only box_gin

def peak_rss_kib() -> tuple[int, str]:
    """This process's peak resident set size in KiB, and where it was read.

    Linux's ``VmHWM`` (``/proc/self/status``) is the high-water mark of this process's own
    memory.  ``ru_maxrss`` is the fallback elsewhere: on Linux a child started with
    vfork/posix_spawn (as ``subprocess`` does) inherits its parent's peak in ``ru_maxrss``
    until it grows past it, so it would report the benchmark process's memory instead.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]), "VmHWM"
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "ru_maxrss"


def memory_child(n: int) -> None:
    """Run in the child: import box_gin, simulate, print JSON with the peak RSS (KiB)."""
    start, _source = peak_rss_kib()
    t0 = time.perf_counter()
    decisions, drawn = bg_play(n, seed=7)
    seconds = time.perf_counter() - t0
    peak, source = peak_rss_kib()
    print(json.dumps({"hands": n, "decisions": decisions, "drawn": drawn,
                      "seconds": seconds, "start_kib": start, "peak_kib": peak,
                      "source": source}))


def measure_memory(n: int) -> dict[str, Any]:
    env = {**os.environ, "BOX_GIN_COMPILED": "0"}  # the default, pure-Python path
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--memory-child",
                          str(n)], capture_output=True, text=True, check=True, env=env)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


# ---------------------------------------------------------------------------
# The run

@dataclass
class Row:
    workload: str
    engine: str
    rate: float  # per second
    unit: str
    note: str = ""


@dataclass
class Results:
    sizes: Sizes
    quick: bool
    rows: list[Row] = field(default_factory=list)
    ratios: list[tuple[str, float, float | None]] = field(default_factory=list)
    memory: dict[str, Any] = field(default_factory=dict)
    exactness: Exactness | None = None
    extra: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def rate(self, workload: str, engine: str) -> float:
        return next(r.rate for r in self.rows if r.workload == workload and r.engine == engine)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def run(sizes: Sizes, quick: bool, with_peers: bool = True) -> Results:
    t_start = time.perf_counter()
    res = Results(sizes, quick)
    # 4. memory, first, while this process is still small --------------------------------
    log(f"memory: {sizes.memory_hands} hands in a child process")
    res.memory = measure_memory(sizes.memory_hands)

    rng = random.Random(20240601)
    R = sizes.repeats
    compiled = compiled_available()
    h10 = random_hands(rng, sizes.melds_hands, 10)
    h11 = random_hands(rng, sizes.discard_hands, 11)
    d10 = random_hands(rng, sizes.dense_melds, 10, LOW_POOL)
    d11 = random_hands(rng, sizes.dense_discards, 11, LOW_POOL)
    ex = Exactness()

    # 1. 10-card hands ---------------------------------------------------------
    W1 = "10-card best melds"
    log(f"{W1}: {len(h10)} random hands, best of {R}")
    a10: dict[str, list[int]] = {}
    t, a10["box-gin best_melds"] = best_on(False, R, bg_best_melds, bg_cards(h10))
    res.rows.append(Row(W1, "box-gin best_melds", len(h10) / t, "hands/s",
                        "whole arrangement (melds + deadwood) from Card tuples"))
    t, a10["box-gin min_deadwood_mask"] = best_on(False, R, bg_min_deadwood, bg_masks(h10))
    res.rows.append(Row(W1, "box-gin min_deadwood_mask", len(h10) / t, "hands/s",
                        "value only, from a 52-bit mask"))
    if compiled:
        t, a10["compiled best_melds"] = best_on(True, R, bg_best_melds, bg_cards(h10))
        res.rows.append(Row(W1, f"box-gin best_melds, {COMPILED}", len(h10) / t, "hands/s",
                            "the same call after box_gin.speedups.use_compiled()"))
    if with_peers:
        t, a10["OpenSpiel"] = best_of(R, os_min_deadwood, h10)
        res.rows.append(Row(W1, "OpenSpiel min_deadwood (C++)", len(h10) / t, "hands/s",
                            "value only, from a list of ints"))
        t, a10["RLCard"] = best_of(R, rl_best_melds, rl_cards(h10))
        res.rows.append(Row(W1, "RLCard get_best_meld_clusters", len(h10) / t, "hands/s",
                            "meld clusters + deadwood count"))
    ex.check_10(h10, a10)

    # 2. 11-card best-discard analysis -------------------------------------------
    W2 = "11-card best discard"
    log(f"{W2}: {len(h11)} random hands, best of {R}")
    a11: dict[str, list[dict[int, int]]] = {}
    t, out = best_on(False, R, bg_best_discards, bg_cards(h11))
    a11["box-gin best_discards"] = bg_discard_values(out)
    res.rows.append(Row(W2, "box-gin best_discards", len(h11) / t, "hands/s",
                        "public DiscardAnalysis from Card tuples"))
    if compiled:
        t, out = best_on(True, R, bg_best_discards, bg_cards(h11))
        a11["compiled best_discards"] = bg_discard_values(out)
        res.rows.append(Row(W2, f"box-gin best_discards, {COMPILED}", len(h11) / t,
                            "hands/s", "the same call after box_gin.speedups.use_compiled()"))
    t, out = best_on(False, R, bg_discard_kernel, bg_masks(h11))
    a11["box-gin kernel"] = bg_kernel_values(out)
    res.rows.append(Row(W2, "box-gin _deadwood_after_discards", len(h11) / t, "hands/s",
                        "mask-level kernel behind best_discards"))
    if with_peers:
        t, out = best_of(R, os_best_discards, os_discard_lists(h11))
        a11["OpenSpiel"] = by_discard(h11, out)
        res.rows.append(Row(W2, "OpenSpiel 11 x min_deadwood (C++)", len(h11) / t, "hands/s",
                            "the 11 ten-card lists built before timing"))
        t, out = best_of(R, rl_best_discards, rl_discard_lists(rl_cards(h11)))
        a11["RLCard"] = by_discard(h11, out)
        res.rows.append(Row(W2, "RLCard 11 x get_best_meld_clusters", len(h11) / t, "hands/s",
                            "the 11 ten-card lists built before timing"))
    ex.check_11(h11, a11)

    # 5. the dense hands, untimed -------------------------------------------------
    log(f"exactness: dense hands, {len(d10)} of 10 cards and {len(d11)} of 11, aces to sevens")
    dense = cross_check(d10, d11, with_peers)
    ex.compared_10 += dense.compared_10
    ex.compared_11 += dense.compared_11
    ex.mismatches += dense.mismatches
    res.exactness = ex
    del a10, a11, out

    # 3. complete hands --------------------------------------------------------------
    W3 = "complete random hands"
    n, nr = sizes.play_hands, sizes.play_hands_rlcard
    log(f"{W3}: {n} hands (RLCard {nr}), best of {R}")
    t, (dec, drawn) = best_on(False, R, bg_play, n)
    res.rows.append(Row(W3, "box-gin Hand", n / t, "hands/s",
                        f"{dec / n:.0f} decisions/hand, {100 * drawn / n:.0f}% drawn"))
    if compiled:
        t, played = best_on(True, R, bg_play, n)
        assert played == (dec, drawn), "the compiled path played different hands"
        res.rows.append(Row(W3, f"box-gin Hand, {COMPILED}", n / t, "hands/s",
                            "the same hands after box_gin.speedups.use_compiled()"))
    if with_peers:
        t, (dec, drawn) = best_of(R, os_play, n)
        res.rows.append(Row(W3, "OpenSpiel gin_rummy", n / t, "hands/s",
                            f"{dec / n:.0f} decisions/hand"))
        t, (dec, drawn) = best_of(R, rl_play, nr)
        res.rows.append(Row(W3, "RLCard gin-rummy env", nr / t, "hands/s",
                            f"{dec / nr:.0f} decisions/hand"))

    # ratios ------------------------------------------------------------------------------
    if with_peers:
        def ratio(label: str, w: str, mine: str, theirs: str, target: float | None) -> None:
            res.ratios.append((label, res.rate(w, mine) / res.rate(w, theirs), target))

        ratio("best_melds / OpenSpiel min_deadwood", W1, "box-gin best_melds",
              "OpenSpiel min_deadwood (C++)", TARGETS["melds_vs_openspiel"])
        ratio("min_deadwood_mask / OpenSpiel min_deadwood (value only, like for like)", W1,
              "box-gin min_deadwood_mask", "OpenSpiel min_deadwood (C++)", None)
        ratio("best_melds / RLCard", W1, "box-gin best_melds",
              "RLCard get_best_meld_clusters", TARGETS["melds_vs_rlcard"])
        ratio("best_discards / OpenSpiel", W2, "box-gin best_discards",
              "OpenSpiel 11 x min_deadwood (C++)", TARGETS["discards_vs_openspiel"])
        ratio("discard kernel / OpenSpiel (mask level, like for like)", W2,
              "box-gin _deadwood_after_discards", "OpenSpiel 11 x min_deadwood (C++)", None)
        ratio("best_discards / RLCard", W2, "box-gin best_discards",
              "RLCard 11 x get_best_meld_clusters", TARGETS["discards_vs_rlcard"])
        ratio("hands / OpenSpiel", W3, "box-gin Hand", "OpenSpiel gin_rummy",
              TARGETS["hands_vs_openspiel"])
        ratio("hands / RLCard", W3, "box-gin Hand", "RLCard gin-rummy env",
              TARGETS["hands_vs_rlcard"])
        if compiled:
            c = f", {COMPILED}"
            ratio(f"{COMPILED}: best_melds / OpenSpiel min_deadwood", W1,
                  "box-gin best_melds" + c, "OpenSpiel min_deadwood (C++)",
                  TARGETS["melds_vs_openspiel"])
            ratio(f"{COMPILED}: best_melds / RLCard", W1, "box-gin best_melds" + c,
                  "RLCard get_best_meld_clusters", TARGETS["melds_vs_rlcard"])
            ratio(f"{COMPILED}: best_discards / OpenSpiel", W2, "box-gin best_discards" + c,
                  "OpenSpiel 11 x min_deadwood (C++)", TARGETS["discards_vs_openspiel"])
            ratio(f"{COMPILED}: best_discards / RLCard", W2, "box-gin best_discards" + c,
                  "RLCard 11 x get_best_meld_clusters", TARGETS["discards_vs_rlcard"])
            ratio(f"{COMPILED}: hands / OpenSpiel", W3, "box-gin Hand" + c,
                  "OpenSpiel gin_rummy", TARGETS["hands_vs_openspiel"])
            ratio(f"{COMPILED}: hands / RLCard", W3, "box-gin Hand" + c,
                  "RLCard gin-rummy env", TARGETS["hands_vs_rlcard"])
    res.seconds = time.perf_counter() - t_start
    return res


# ---------------------------------------------------------------------------
# Reporting

def machine() -> dict[str, str]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for name, module in (("rlcard", "rlcard"), ("open-spiel", "pyspiel")):
        try:
            from importlib.metadata import version

            __import__(module)
            versions[name] = version(name)
        except Exception:
            versions[name] = "not installed"
    return {
        "cpu": cpu,
        "nproc": str(os.cpu_count()),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "os": platform.platform(),
        "rlcard": versions["rlcard"],
        "open-spiel": versions["open-spiel"],
    }


def _fmt(rate: float) -> str:
    return f"{rate:,.0f}"


def table(res: Results) -> str:
    m = machine()
    date = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    s = res.sizes
    lines = [
        f"- **Date**: {date}" + (" (QUICK smoke run: small sizes, not for quoting)"
                                 if res.quick else ""),
        f"- **Command**: `{COMMAND}` (`.venv/bin/python benchmarks/run.py --write`); "
        f"the run took {res.seconds:.0f} s",
        f"- **Machine**: {m['cpu']}, `nproc` = {m['nproc']}; {m['python']}; {m['os']}",
        f"- **Peers**: rlcard {m['rlcard']}, open-spiel {m['open-spiel']}",
        f"- **Sizes**: {s.melds_hands:,} random 10-card hands, {s.discard_hands:,} random "
        f"11-card hands, complete hands {s.play_hands:,} per repeat (RLCard "
        f"{s.play_hands_rlcard:,}); every figure is the best of {s.repeats} repeats",
        "",
        "| Workload | Engine | Rate | Note |",
        "|---|---|---:|---|",
    ]
    for r in res.rows:
        lines.append(f"| {r.workload} | {r.engine} | {_fmt(r.rate)} {r.unit} | {r.note} |")
    lines += ["", "| Ratio (box-gin / peer) | Measured | Target | Met? |", "|---|---:|---:|---|"]
    for label, value, target in res.ratios:
        if target is None:
            lines.append(f"| {label} | {value:.2f}x | (context) | - |")
        else:
            lines.append(f"| {label} | {value:.2f}x | >= {target:g}x | "
                         f"{'met' if value >= target else '**not met**'} |")
    mem = res.memory
    if mem:
        peak_mb = mem["peak_kib"] / 1024
        start_mb = mem["start_kib"] / 1024
        ok = peak_mb < TARGETS["memory_mb"]
        note = "" if mem["hands"] >= 100_000 else " (fewer hands than the target's 100,000)"
        lines += ["", f"- **Peak memory**: {mem['hands']:,}-hand random simulation{note}: "
                  f"peak RSS {peak_mb:.1f} MB (the child's `{mem['source']}`; {start_mb:.1f} MB "
                  f"after importing box_gin), target < 200 MB: {'met' if ok else '**not met**'}; "
                  f"it ran at {mem['hands'] / mem['seconds']:,.0f} hands/s"]
    ex = res.exactness
    if ex is not None:
        verdict = "0 mismatches" if not ex.mismatches else f"**{len(ex.mismatches)}+ mismatches**"
        lines.append(f"- **Exactness**: {ex.compared_10:,} ten-card hands and "
                     f"{ex.compared_11:,} eleven-card hands (each of the 11 discards) "
                     f"compared across every engine: {verdict}")
    return "\n".join(lines)


def write_readme(text: str) -> None:
    doc = README.read_text()
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    README.write_text(doc[:start] + "\n" + text + "\n" + doc[end:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--write", action="store_true",
                        help="rewrite the table between the markers in benchmarks/README.md")
    parser.add_argument("--memory-child", type=int, metavar="N", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child is not None:
        memory_child(args.memory_child)
        return 0
    ok, why = peers_available()
    if not ok:
        log(f"cannot compare: {why}")
        return 2
    res = run(QUICK if args.quick else FULL, args.quick)
    text = table(res)
    print(text)
    assert res.exactness is not None
    if res.exactness.mismatches:
        log("MISMATCHES:\n" + "\n".join(res.exactness.mismatches))
        return 1
    if args.write:
        write_readme(text)
        log(f"wrote {README.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
