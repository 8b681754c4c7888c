"""The benchmark script must keep running and keep agreeing with its peers.

No timing is asserted here: speed targets are ratios measured by ``make bench``.  The
peer comparison runs only when RLCard and OpenSpiel are installed (the ``bench`` extra,
which ``make test`` does not install); the box-gin parts of the script always run.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from itertools import combinations
from pathlib import Path
from types import ModuleType

import pytest

RUN_PY = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("box_gin_benchmarks_run", RUN_PY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


bench = _load()


def _reference_deadwood(cards: list[int]) -> int:
    """An independent, slow reference: try every collection of disjoint melds."""
    value = {c: min(c % 13 + 1, 10) for c in cards}
    held = set(cards)
    melds: list[frozenset[int]] = []
    for rank in range(13):
        same = [s * 13 + rank for s in range(4) if s * 13 + rank in held]
        for size in (3, 4):
            melds += [frozenset(m) for m in combinations(same, size)]
    for suit in range(4):
        for low in range(13):
            for high in range(low + 2, 13):
                run = frozenset(suit * 13 + r for r in range(low, high + 1))
                if run <= held:
                    melds.append(run)
    best = sum(value.values())

    def search(start: int, used: frozenset[int], melded: int) -> None:
        nonlocal best
        best = min(best, sum(value.values()) - melded)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i], melded + sum(value[c] for c in melds[i]))

    search(0, frozenset(), 0)
    return best


def _hands() -> tuple[list[list[int]], list[list[int]]]:
    rng = random.Random(5)
    h10 = bench.random_hands(rng, 100, 10) + bench.random_hands(rng, 60, 10, bench.LOW_POOL)
    h11 = bench.random_hands(rng, 25, 11) + bench.random_hands(rng, 15, 11, bench.LOW_POOL)
    return h10, h11


def test_box_gin_parts_of_the_script_run_and_agree_with_a_reference() -> None:
    h10, h11 = _hands()
    ex = bench.cross_check(h10, h11, with_peers=False)
    assert ex.mismatches == []
    assert (ex.compared_10, ex.compared_11) == (len(h10), len(h11))
    assert bench.bg_best_melds(bench.bg_cards(h10)) == [_reference_deadwood(h) for h in h10]
    after = bench.bg_discard_values(bench.bg_best_discards(bench.bg_cards(h11)))
    for hand, values in zip(h11, after, strict=True):
        assert values == {c: _reference_deadwood([x for x in hand if x != c]) for c in hand}
    decisions, drawn = bench.bg_play(3, seed=2)
    assert decisions > 0 and 0 <= drawn <= 3


def test_memory_child_reports_its_peak() -> None:
    result = bench.measure_memory(2)
    assert result["hands"] == 2 and result["peak_kib"] >= result["start_kib"] > 0


def test_table_renders_and_is_written_between_markers(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    res = bench.Results(bench.QUICK, quick=True)
    res.rows.append(bench.Row("w", "e", 1234.5, "hands/s", "n"))
    res.ratios.append(("a / b", 2.5, 2.0))
    res.ratios.append(("c / d", 0.5, 1.0))
    res.exactness = bench.Exactness(compared_10=3, compared_11=4)
    text = bench.table(res)
    assert "| w | e | 1,234 hands/s | n |" in text or "| w | e | 1,235 hands/s | n |" in text
    assert "| a / b | 2.50x | >= 2x | met |" in text
    assert "**not met**" in text and "0 mismatches" in text
    readme = tmp_path / "README.md"
    readme.write_text(f"head\n{bench.BEGIN}\nold\n{bench.END}\ntail\n")
    monkeypatch.setattr(bench, "README", readme)
    bench.write_readme(text)
    doc = readme.read_text()
    assert doc.startswith("head\n") and doc.endswith(f"{bench.END}\ntail\n")
    assert "old" not in doc and "2.50x" in doc


def test_the_readme_keeps_its_markers() -> None:
    doc = (RUN_PY.parent / "README.md").read_text()
    assert doc.index(bench.BEGIN) < doc.index(bench.END)


def test_exactness_against_rlcard_and_openspiel() -> None:
    ok, why = bench.peers_available()
    if not ok:
        pytest.skip(f"peer comparison needs the bench extra: {why}")
    h10, h11 = _hands()
    ex = bench.cross_check(h10, h11, with_peers=True)
    assert ex.mismatches == []
    assert ex.compared_10 + ex.compared_11 == 200
