"""One verdict: the notebook's ``check`` and the grader agree on every submission of the
project, wrong and right, kata by kata, whatever the seed; every wrong answer is shown a
small counterexample by both.

A verdict under a seed is "passed" exactly when no case fails among the public tests,
the fixed hidden tests (the same every run) and that seed's fresh ones.  So the verdict
is the same under every seed when the public and fixed tests alone fail the answer, or
when nothing fails under any of the seeds.  The tests below establish one or the other,
for every file and kata, in the grader (a real grading run, in its sandboxed children)
and in ``check`` (its own call path, in this process), without running the grader's
shrinking once per seed: the fixed part is graded once, and the fresh cases of all
:data:`SEEDS` together, for the answers the fixed part passes.

The katas judged on cases, that is; the bot kata's functions, judged by playing, have
the same proof in tests/test_bot_kata_graded.py (``check`` and the grader, one seed).
"""

from __future__ import annotations

import ast
import re
import warnings
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from box_gin.cards import Card
from box_gin.checker.caps import Limits
from box_gin.checker.grader import grade_all, start_run
from box_gin.checker.submissions import find_submissions
from box_gin.katas import BY_NAME, CASE_KATAS
from box_gin.katas.core import Args, Kata, judge_cases
from box_gin.katas.feedback import local_oracle, run_check
from box_gin.katas.wire import encode

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = ROOT / "tests" / "submissions"
#: The wrong submissions: at the top level those with a counterexample of at most 6
#: cards; in big/ those whose smallest counterexample needs more.
BIG = sorted((SUBMISSIONS / "big").glob("*.py"))
WRONG = sorted(p for p in SUBMISSIONS.glob("*.py") if p.name != "conftest.py") + BIG
RIGHT = sorted((SUBMISSIONS / "right").glob("*.py"))
CARD = re.compile(r"\b(?:[A2-9TJQK])[CDHS]\b")
#: Bugs whose smallest counterexample has more than 6 cards, and the most shown: two
#: knocker melds and a card; a knocker run, the defender's four-card set and a card
#: chained after it; a set and a run meeting at one rank, and a card chained after it;
#: a run-first greedy search, wrong only when a run and two sets compete; a card that
#: fits a set and a run, where only the run lets the next card follow; a run of 11.
NEEDS_MORE = {"lay_off_first_meld_only": 7, "lay_off_melds_first": 8,
              "lay_off_set_before_run": 8, "best_discards_greedy_runs": 8,
              "lay_off_first_fitting_meld": 8, "lay_off_sets_before_runs_listed": 8,
              "run_at_most_ten": 13}
#: The seeds under which every verdict must be the same.
SEEDS = tuple(range(1, 21))


def listed(path: Path, name: str) -> list[str]:
    """A submission's BREAKS (wrong) or PASSES (right) list."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == name:
            return list(ast.literal_eval(node.value))
    raise AssertionError(f"{path.name} has no {name} list")


def functions(path: Path) -> dict[str, Any]:
    ns: dict[str, Any] = {}
    with warnings.catch_warnings():  # `scorer is "box"`: the learner's slip, on purpose
        warnings.simplefilter("ignore", SyntaxWarning)
        code = compile(path.read_text(), str(path), "exec")
    exec(code, ns)
    return {k.name: ns[k.name] for k in CASE_KATAS if callable(ns.get(k.name))}


def should_pass(path: Path, name: str) -> bool:
    """The verdict a file must get on a kata it defines."""
    return path in RIGHT or name not in listed(path, "BREAKS")


def fixed(kata: Kata) -> tuple[list[Args], list[Any]]:
    """The part of every run that no seed changes: the public and fixed hidden tests."""
    return ([*kata.public, *kata.hidden_cases()],
            [*map(kata.expected, kata.public), *kata.hidden_expected()])


@cache
def fresh(kata: Kata) -> tuple[list[Args], list[Any]]:
    """The fresh cases of every seed of :data:`SEEDS`, one after another."""
    cases = [a for seed in SEEDS for a in kata.fresh_cases(seed)]
    return cases, [kata.expected(a) for a in cases]


def grade(paths: list[Path], part: Any) -> dict[str, dict[str, Any]]:
    """The grader's verdicts on ``paths``, each kata judged on ``part(kata)`` only: one
    run, its children reused for every kata of a file, two at a time."""
    run = start_run(seed=0, jobs=2, katas=CASE_KATAS,
                    limits=Limits(kata_seconds=120, budget_seconds=600, cpu_seconds=600))
    try:
        for kata in CASE_KATAS:
            cases, expected = part(kata)
            run.cases[kata.name] = (cases, expected)
            run.encoded[kata.name] = [encode(list(a), card_type=Card, card_text=repr)
                                      for a in cases]
        results = grade_all(find_submissions(paths), jobs=2, run=run)
    finally:
        run.sandbox.close()
    return {r["student"]: r["katas"] for r in results}


@pytest.fixture(scope="module")
def graded_fixed() -> dict[str, dict[str, Any]]:
    return grade(WRONG + RIGHT, fixed)


def test_the_collection_is_large_and_covers_every_kata():
    per_kata = {k.name: 0 for k in CASE_KATAS}
    for path in WRONG:
        for name in listed(path, "BREAKS"):
            per_kata[name] += 1
    assert len(WRONG) >= 130
    assert {p.stem for p in BIG} == set(NEEDS_MORE)
    assert min(per_kata.values()) >= 4, per_kata
    assert all(per_kata[k] >= 10 for k in ("best_melds", "best_discards", "lay_off"))
    assert len(RIGHT) >= 12
    assert {n for p in RIGHT for n in listed(p, "PASSES")} == {k.name for k in CASE_KATAS}
    assert len({p.stem for p in WRONG + RIGHT}) == len(WRONG + RIGHT)  # one student each


@pytest.mark.parametrize("path", WRONG + RIGHT, ids=lambda p: p.stem)
def test_the_fixed_tests_decide_the_verdict_in_both_checks(path, graded_fixed):
    """The public and fixed tests alone give each file the verdict it must get, in the
    grader and in ``check``; a wrong answer is shown a small counterexample by both."""
    entries = graded_fixed[path.stem]
    fns = functions(path)
    if path in RIGHT:
        assert set(fns) == set(listed(path, "PASSES"))
    else:
        assert set(listed(path, "BREAKS")) <= set(fns)
    for name, fn in fns.items():
        kata = BY_NAME[name]
        grade = entries[name]
        result = run_check(fn, kata, fresh=False, search_more=False)
        assert result.passed == should_pass(path, name), (name, result.feedback())
        assert grade["passed"] == result.passed, (name, grade["feedback"])
        assert grade["points"] == result.points
        if result.passed:
            continue
        failure = result.failure
        assert failure is not None, result.feedback()
        bound = NEEDS_MORE.get(path.stem, 6)
        if name == "deal":  # a deal takes a whole deck
            assert kata.size(failure.args) == 52
            continue
        assert len(CARD.findall(repr(failure.args))) <= bound, result.feedback()
        size = (grade.get("failure") or {}).get("size")
        if CARD.search(repr(failure.args)) and size is not None:
            assert size <= bound, grade["feedback"]


#: The files and katas the fixed tests pass: only these can meet a fresh case that
#: changes their verdict.
PASSING = [(p, n) for p in WRONG + RIGHT for n in functions(p) if should_pass(p, n)]


def test_no_fresh_case_of_any_seed_fails_a_passing_answer_in_the_grader():
    """The fresh cases of all the seeds, graded in one run: an answer the fixed tests
    pass passes them all, so its verdict is the same under every seed."""
    graded = grade(sorted({p for p, _n in PASSING}), fresh)
    failed = [(p.stem, n, graded[p.stem][n]["feedback"]) for p, n in PASSING
              if not graded[p.stem][n]["passed"]]
    assert not failed


@pytest.mark.parametrize("path", sorted({p for p, _n in PASSING}), ids=lambda p: p.stem)
def test_no_fresh_case_of_any_seed_fails_a_passing_answer_in_check(path):
    """The same in ``check``'s own call path: every seed's fresh cases, judged."""
    fns = functions(path)
    for name in (n for p, n in PASSING if p == path):
        kata = BY_NAME[name]
        cases, expected = fresh(kata)
        failures = judge_cases(kata, cases, local_oracle(fns[name], kata)(cases), expected)
        assert not failures, (name, failures[0])


@pytest.mark.parametrize("path", RIGHT[:3], ids=lambda p: p.stem)
def test_a_whole_check_passes_a_right_answer(path):
    """The notebook's whole ``check``, search included, on a few right answers."""
    for name, fn in functions(path).items():
        result = run_check(fn, BY_NAME[name], seed=SEEDS[0])
        assert result.passed, result.feedback()
