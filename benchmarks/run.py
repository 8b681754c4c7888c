#!/usr/bin/env python3
"""box-gin side by side with RLCard and OpenSpiel, in one run.

    python benchmarks/run.py            # full run, print the table
    python benchmarks/run.py --write    # ... and rewrite the table in benchmarks/README.md
    python benchmarks/run.py --quick    # small sizes, a smoke run of a few seconds

What it measures (every figure is the best of several repeats of the process's CPU
time, on the same machine, one engine after the other):

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

box-gin's rows time its default path: the compiled kernels when the extension is built,
pure Python otherwise (``box_gin.kernels.IMPLEMENTATION`` says which; the table too).
When the default is compiled, the same box-gin workloads are timed again on the pure
path, in a child process started with ``BOX_GIN_PURE=1``, on the same hands; the rows
say "pure Python", and the child's answers must be the default path's, to the last card.

Each peer engine has its adapter module in ``benchmarks/peers/``.

Cards are converted to each library's own representation before any timing starts.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as _dt
import gc
import hashlib
import json
import os
import platform
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:  # run from a checkout even when box_gin is not installed
    sys.path.insert(0, str(ROOT))

if str(HERE) not in sys.path:  # the peer adapters, benchmarks/peers/
    sys.path.insert(0, str(HERE))

from peers import openspiel, rlcard  # noqa: E402

from box_gin import kernels  # noqa: E402
from box_gin.cards import BY_INDEX, Card  # noqa: E402
from box_gin.hand import Hand  # noqa: E402
from box_gin.knocking import best_discards  # noqa: E402
from box_gin.melds import best_melds, min_deadwood_mask  # noqa: E402

PEERS = (openspiel, rlcard)

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
    """The least CPU time of ``repeats`` calls of ``fn(arg)``, and the last result.

    CPU time (``time.process_time``), not wall time: on a shared machine, time spent
    waiting for a core while other work runs is not counted against the engine timed.
    """
    best = float("inf")
    out = None
    for _ in range(repeats):
        gc.collect()
        t0 = time.process_time()
        out = fn(arg)
        best = min(best, time.process_time() - t0)
    return best, out


# ---------------------------------------------------------------------------
# box-gin

PURE = "pure Python"


def path_label() -> str:
    """The default path in use: "compiled" or "pure Python"."""
    return "compiled" if kernels.IMPLEMENTATION == "compiled" else PURE


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
    """The mask-level discard kernel on each 11-card mask: {card: deadwood}."""
    kernel = kernels.after_each
    return [kernel(m) for m in masks]


def bg_discard_values(analyses: list[Any]) -> list[dict[int, int]]:
    """``{card index: deadwood after discarding it}`` from box-gin analyses."""
    return [{c.index: d for c, d in a.deadwood_after.items()} for a in analyses]


def bg_kernel_values(results: list[Any]) -> list[dict[int, int]]:
    """The same from the kernel's {card: deadwood} dicts."""
    return [{c.index: d for c, d in after.items()} for after in results]


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


def peers_available() -> tuple[bool, str]:
    """Whether RLCard and OpenSpiel can be imported, and if not why."""
    missing = []
    for peer in PEERS:
        try:
            __import__(peer.MODULE)
        except ImportError:
            missing.append(peer.MODULE)
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
    answers10: dict[str, list[int]] = {
        "box-gin best_melds": bg_best_melds(bg_cards(hands10)),
        "box-gin min_deadwood_mask": bg_min_deadwood(bg_masks(hands10)),
    }
    answers11: dict[str, list[dict[int, int]]] = {
        "box-gin best_discards": bg_discard_values(bg_best_discards(bg_cards(hands11))),
        "box-gin kernel": bg_kernel_values(bg_discard_kernel(bg_masks(hands11))),
    }
    if with_peers:
        for peer in PEERS:
            answers10[peer.NAME] = peer.best_melds(peer.prepare_10(hands10))
            answers11[peer.NAME] = by_discard(hands11,
                                              peer.best_discards(peer.prepare_11(hands11)))
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
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--memory-child",
                          str(n)], capture_output=True, text=True, check=True)
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


W1, W2, W3 = "10-card best melds", "11-card best discard", "complete random hands"


def make_hands(sizes: Sizes) -> tuple[list[list[int]], ...]:
    """The seeded hands of a run: random 10 and 11 cards, then the dense ones."""
    rng = random.Random(20240601)
    return (random_hands(rng, sizes.melds_hands, 10), random_hands(rng, sizes.discard_hands, 11),
            random_hands(rng, sizes.dense_melds, 10, LOW_POOL),
            random_hands(rng, sizes.dense_discards, 11, LOW_POOL))


def time_box_gin(sizes: Sizes, h10: list[list[int]], h11: list[list[int]], suffix: str = ""
                 ) -> tuple[list[Row], dict[str, Any]]:
    """box-gin's rows on the path in use (engines named with ``suffix``), and its answers:
    the 10-card values, the 11-card values, the complete hands played."""
    R, n = sizes.repeats, sizes.play_hands
    rows: list[Row] = []
    answers: dict[str, Any] = {}
    log(f"box-gin ({kernels.IMPLEMENTATION}): {len(h10)} + {len(h11)} hands, {n} complete "
        f"hands, best of {R}")
    t, answers["best_melds"] = best_of(R, bg_best_melds, bg_cards(h10))
    rows.append(Row(W1, "box-gin best_melds" + suffix, len(h10) / t, "hands/s",
                    "whole arrangement (melds + deadwood) from Card tuples"))
    t, answers["min_deadwood_mask"] = best_of(R, bg_min_deadwood, bg_masks(h10))
    rows.append(Row(W1, "box-gin min_deadwood_mask" + suffix, len(h10) / t, "hands/s",
                    "value only, from a 52-bit mask"))
    t, out = best_of(R, bg_best_discards, bg_cards(h11))
    answers["best_discards"] = bg_discard_values(out)
    rows.append(Row(W2, "box-gin best_discards" + suffix, len(h11) / t, "hands/s",
                    "public DiscardAnalysis from Card tuples"))
    t, out = best_of(R, bg_discard_kernel, bg_masks(h11))
    answers["kernel"] = bg_kernel_values(out)
    rows.append(Row(W2, "box-gin kernels.after_each" + suffix, len(h11) / t, "hands/s",
                    "mask-level kernel behind best_discards"))
    t, played = best_of(R, bg_play, n)
    answers["played"] = list(played)
    dec, drawn = played
    rows.append(Row(W3, "box-gin Hand" + suffix, n / t, "hands/s",
                    f"{dec / n:.0f} decisions/hand, {100 * drawn / n:.0f}% drawn"))
    return rows, answers


def digest(answers: dict[str, Any]) -> str:
    """A fingerprint of box-gin's answers, to compare the two paths across processes."""
    return hashlib.sha256(json.dumps(answers, sort_keys=True).encode()).hexdigest()


def pure_child(quick: bool) -> None:
    """Run in the child (``BOX_GIN_PURE=1``): time box-gin, print JSON rows and digest."""
    sizes = QUICK if quick else FULL
    h10, h11, _d10, _d11 = make_hands(sizes)
    rows, answers = time_box_gin(sizes, h10, h11, f", {PURE}")
    print(json.dumps({"implementation": kernels.IMPLEMENTATION, "digest": digest(answers),
                      "rows": [dataclasses.asdict(r) for r in rows]}))


def time_pure_path(quick: bool) -> dict[str, Any]:
    env = {**os.environ, "BOX_GIN_PURE": "1"}
    command = [sys.executable, str(Path(__file__).resolve()), "--pure-child"]
    out = subprocess.run(command + (["--quick"] if quick else []), capture_output=True,
                         text=True, check=True, env=env)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def run(sizes: Sizes, quick: bool, with_peers: bool = True) -> Results:
    t_start = time.perf_counter()
    res = Results(sizes, quick)
    # 4. memory, first, while this process is still small --------------------------------
    log(f"memory: {sizes.memory_hands} hands in a child process")
    res.memory = measure_memory(sizes.memory_hands)

    R = sizes.repeats
    h10, h11, d10, d11 = make_hands(sizes)
    ex = Exactness()

    # 1-3 box-gin, on its default path, then on the pure path in a child process ----------
    rows, answers = time_box_gin(sizes, h10, h11)
    res.rows += rows
    pure_rows: list[Row] = []
    if kernels.IMPLEMENTATION == "compiled":
        child = time_pure_path(quick)
        assert child["implementation"] == "pure", child["implementation"]
        pure_rows = [Row(**r) for r in child["rows"]]
        if child["digest"] != digest(answers):
            ex.mismatches.append("box-gin's pure path answered differently from its "
                                 "compiled path (run tests/test_kernels.py)")
    a10: dict[str, list[int]] = {"box-gin best_melds": answers["best_melds"],
                                 "box-gin min_deadwood_mask": answers["min_deadwood_mask"]}
    a11: dict[str, list[dict[int, int]]] = {"box-gin best_discards": answers["best_discards"],
                                            "box-gin kernel": answers["kernel"]}
    # the peers ----------------------------------------------------------------------------
    n, nr = sizes.play_hands, sizes.play_hands_rlcard
    if with_peers:
        log(f"{W1}, {W2}: OpenSpiel and RLCard, best of {R}")
        t, a10["OpenSpiel"] = best_of(R, openspiel.best_melds, openspiel.prepare_10(h10))
        res.rows.append(Row(W1, "OpenSpiel min_deadwood (C++)", len(h10) / t, "hands/s",
                            "value only, from a list of ints"))
        t, a10["RLCard"] = best_of(R, rlcard.best_melds, rlcard.prepare_10(h10))
        res.rows.append(Row(W1, "RLCard get_best_meld_clusters", len(h10) / t, "hands/s",
                            "meld clusters + deadwood count"))
        t, out = best_of(R, openspiel.best_discards, openspiel.prepare_11(h11))
        a11["OpenSpiel"] = by_discard(h11, out)
        res.rows.append(Row(W2, "OpenSpiel 11 x min_deadwood (C++)", len(h11) / t, "hands/s",
                            "the 11 ten-card lists built before timing"))
        t, out = best_of(R, rlcard.best_discards, rlcard.prepare_11(h11))
        a11["RLCard"] = by_discard(h11, out)
        res.rows.append(Row(W2, "RLCard 11 x get_best_meld_clusters", len(h11) / t, "hands/s",
                            "the 11 ten-card lists built before timing"))
        log(f"{W3}: OpenSpiel {n}, RLCard {nr}, best of {R}")
        t, (dec, _drawn) = best_of(R, openspiel.play, n)
        res.rows.append(Row(W3, "OpenSpiel gin_rummy", n / t, "hands/s",
                            f"{dec / n:.0f} decisions/hand"))
        t, (dec, _drawn) = best_of(R, rlcard.play, nr)
        res.rows.append(Row(W3, "RLCard gin-rummy env", nr / t, "hands/s",
                            f"{dec / nr:.0f} decisions/hand"))
    ex.check_10(h10, a10)
    ex.check_11(h11, a11)
    res.rows += pure_rows

    # 5. the dense hands, untimed -------------------------------------------------
    log(f"exactness: dense hands, {len(d10)} of 10 cards and {len(d11)} of 11, aces to sevens")
    dense = cross_check(d10, d11, with_peers)
    ex.compared_10 += dense.compared_10
    ex.compared_11 += dense.compared_11
    ex.mismatches += dense.mismatches
    res.exactness = ex

    # ratios ------------------------------------------------------------------------------
    if with_peers:
        def ratio(label: str, w: str, mine: str, theirs: str, target: float | None) -> None:
            res.ratios.append((label, res.rate(w, mine) / res.rate(w, theirs), target))

        blocks = [("", "")] + ([(f"{PURE}: ", f", {PURE}")] if pure_rows else [])
        for prefix, c in blocks:
            ratio(prefix + "best_melds / OpenSpiel min_deadwood", W1, "box-gin best_melds" + c,
                  "OpenSpiel min_deadwood (C++)", TARGETS["melds_vs_openspiel"])
            ratio(prefix + "min_deadwood_mask / OpenSpiel min_deadwood (value only, like "
                  "for like)", W1, "box-gin min_deadwood_mask" + c,
                  "OpenSpiel min_deadwood (C++)", None)
            ratio(prefix + "best_melds / RLCard", W1, "box-gin best_melds" + c,
                  "RLCard get_best_meld_clusters", TARGETS["melds_vs_rlcard"])
            ratio(prefix + "best_discards / OpenSpiel", W2, "box-gin best_discards" + c,
                  "OpenSpiel 11 x min_deadwood (C++)", TARGETS["discards_vs_openspiel"])
            ratio(prefix + "discard kernel / OpenSpiel (mask level, like for like)", W2,
                  "box-gin kernels.after_each" + c, "OpenSpiel 11 x min_deadwood (C++)", None)
            ratio(prefix + "best_discards / RLCard", W2, "box-gin best_discards" + c,
                  "RLCard 11 x get_best_meld_clusters", TARGETS["discards_vs_rlcard"])
            ratio(prefix + "hands / OpenSpiel", W3, "box-gin Hand" + c, "OpenSpiel gin_rummy",
                  TARGETS["hands_vs_openspiel"])
            ratio(prefix + "hands / RLCard", W3, "box-gin Hand" + c, "RLCard gin-rummy env",
                  TARGETS["hands_vs_rlcard"])
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
    for peer in PEERS:
        name = peer.DISTRIBUTION
        try:
            from importlib.metadata import version

            __import__(peer.MODULE)
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
        f"- **box-gin's default path**: {path_label()} kernels (`box_gin.kernels.IMPLEMENTATION`"
        f" = `{kernels.IMPLEMENTATION!r}`); rows marked \"{PURE}\" ran with `BOX_GIN_PURE=1`",
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
    parser.add_argument("--pure-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.memory_child is not None:
        memory_child(args.memory_child)
        return 0
    if args.pure_child:
        pure_child(args.quick)
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
