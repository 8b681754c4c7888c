"""The mutation run's record stays true (box_gin/tools/mutate.py, issue 37): the
alternatives are right, every mutant listed as equivalent still passes the fixed cases,
every mutant that needed a new fixed case fails them in ``check`` and in the grader, and
a sample of each kata's mutants is killed.  The whole run is ``make mutants``."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from box_gin.cards import Card
from box_gin.checker.caps import Limits
from box_gin.checker.grader import grade_all, start_run
from box_gin.checker.submissions import find_submissions
from box_gin.katas import BY_NAME, CASE_KATAS
from box_gin.katas.feedback import run_check
from box_gin.katas.wire import encode
from box_gin.tools.mutate import (
    EQUIVALENTS,
    ROOT,
    Mutant,
    alternative_units,
    first_failure,
    grade,
    mutants,
    units,
)

RECORD = json.loads((ROOT / EQUIVALENTS).read_text())


@cache
def by_key() -> dict[str, Mutant]:
    """Every mutant of every unit by its key: made the first time a test asks (some
    seconds), never at collection, where each of pytest-xdist's workers would make them
    all, whichever runs this file."""
    return {m.key: m for u in units() for m in mutants(u)}


def _function(source: str, kata: str) -> Any:
    ns: dict[str, Any] = {"__name__": "__mutant__"}
    exec(compile(source, "<mutant>", "exec"), ns)
    return ns[kata]


def test_two_alternatives_per_kata_each_right_on_the_fixed_and_fresh_cases():
    alts = alternative_units()
    for kata in CASE_KATAS:
        mine = [u for u in alts if u.kata == kata.name]
        assert len(mine) >= 2, kata.name
        for unit in mine:
            result = run_check(_function(unit.source, kata.name), kata, seed=37,
                               search_more=False)
            assert result.passed, (unit.name, result.feedback())


def test_the_mutator_writes_each_kind_of_mutant():
    reference = next(u for u in units() if u.kata == "game_winner" and u.name == "reference")
    changes = {m.key.split(": ", 1)[1] for m in mutants(reference)}
    assert "if totals[scorer] >= target: => if totals[scorer] > target:" in changes
    assert "totals[scorer] = totals.get(scorer, 0) + points => " \
        "totals[scorer] = totals.get(scorer, 0) - points" in changes
    assert "return scorer => pass" in changes
    assert "if scorer is not None: => if scorer is None:" in changes


@pytest.mark.parametrize("entry", RECORD["equivalent"], ids=lambda e: e["mutant"][:60])
def test_each_mutant_listed_equivalent_exists_and_passes_the_fixed_cases(entry):
    assert entry["why"].strip()
    mutant = by_key()[entry["mutant"]]
    assert first_failure(BY_NAME[mutant.unit.kata], mutant.source) is None


def test_the_mutants_that_needed_a_new_case_fail_in_check_and_in_the_grader(tmp_path):
    keys = RECORD["killed_by_new_cases"]
    assert keys
    for i, key in enumerate(keys):
        mutant = by_key()[key]
        kata = BY_NAME[mutant.unit.kata]
        result = run_check(_function(mutant.source, kata.name), kata, fresh=False,
                           search_more=False)
        assert not result.passed, key
        (tmp_path / f"m{i:03d}.py").write_text(mutant.source)
    graded = _grade_fixed(sorted(tmp_path.glob("*.py")))
    for i, key in enumerate(keys):
        name = by_key()[key].unit.kata
        assert not graded[f"m{i:03d}"][name]["passed"], key


def _grade_fixed(paths: list[Path]) -> dict[str, dict[str, Any]]:
    """The grader's verdicts on the public and fixed hidden cases only."""
    run_ = start_run(seed=0, jobs=2, katas=CASE_KATAS,
                     limits=Limits(kata_seconds=120, budget_seconds=600, cpu_seconds=600))
    try:
        for kata in CASE_KATAS:
            cases = [*kata.public, *kata.hidden_cases()]
            run_.cases[kata.name] = (cases, [*map(kata.expected, kata.public),
                                             *kata.hidden_expected()])
            run_.encoded[kata.name] = [encode(list(a), card_type=Card, card_text=repr)
                                       for a in cases]
        results = grade_all(find_submissions(paths), jobs=2, run=run_)
    finally:
        run_.sandbox.close()
    return {r["student"]: r["katas"] for r in results}


def test_a_sample_of_every_katas_mutants_is_killed():
    """One mutant of each unit (the first not listed equivalent), each graded in a
    forked child with its deadline, as make mutants grades them all."""
    known = {e["mutant"] for e in RECORD["equivalent"]}
    for kata in CASE_KATAS:
        sample: dict[str, Mutant] = {}
        for key, mutant in by_key().items():
            if mutant.unit.kata == kata.name and key not in known:
                sample.setdefault(mutant.unit.name, mutant)
        assert len(sample) >= 3, kata.name
        verdicts = grade(kata, list(sample.values()), jobs=2)
        assert all(v.killed for v in verdicts), [v.mutant.key for v in verdicts]
