"""Shared test set-up: the hypothesis profile and a dealer that stacks the deck.

Helpers that test modules import live in bruteforce.py, never here: more than one
conftest.py shares the module name ``conftest``.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import pytest
from bruteforce import Dealer, stacked_deck
from graded_class import GradedClass, shared_grading
from hypothesis import HealthCheck, settings
from longest import longest_first

from box_gin import STANDARD, Hand, Rules

# `--doctest-modules` would import this file as a plain module named "conftest", which
# clashes with tests/browser/conftest.py; it has no doctests, so leave it out.
collect_ignore = ["conftest.py"]

# No deadline (CI machines are shared and slow); BOX_GIN_HYPOTHESIS=thorough for a long run.
settings.register_profile(
    "box-gin", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("box-gin"), max_examples=3000)
settings.load_profile(os.environ.get("BOX_GIN_HYPOTHESIS", "box-gin"))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest test files first (tests/longest.py), so that none runs alone at the
    end of a pass."""
    items[:] = longest_first(items)


@pytest.fixture
def deal() -> Dealer:
    """``deal(captain, box, upcard, stock="", rules=STANDARD)``: a hand from a stacked deck."""

    def dealer(captain: str, box: str, upcard: str, stock: str = "",
               rules: Rules = STANDARD) -> Hand:
        return Hand.deal(rules, deck=stacked_deck(captain, box, upcard, stock))

    return dealer


# -- a graded class, once for the whole test run ------------------------------------------

@pytest.fixture(scope="session")
def graded_class(tmp_path_factory: pytest.TempPathFactory) -> GradedClass:
    """``box-gin check`` of the kit's own class, graded once for the whole test run and
    shared by pytest-xdist's workers (the first to ask grades it, under a file lock; the
    others read what it wrote): solutions/ and exercises/ (each language a submission of
    its own) and one wrong .py (``tests/submissions/run_ace_high.py``), with the JSON
    gradebook, its rerun cache (signed with the key in ``key/``) and Gradescope's
    results.  Tests that need a graded class read it; tests that grade something else
    grade it themselves."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return shared_grading(root / "graded-class")


# -- reviews: each decision evaluated once ---------------------------------------------------

#: Evaluations by view and options: the review's evaluation of a decision is numbers and
#: actions (the same in every language), a function of the view and the seed.
_EVALUATIONS: dict[tuple[Any, ...], Any] = {}


def _evaluate_once(view: Any, **options: Any) -> Any:
    from box_gin.review.evaluate import evaluate

    key = (view, tuple(sorted(options.items())))
    if key not in _EVALUATIONS:
        _EVALUATIONS[key] = evaluate(view, **options)
    return _EVALUATIONS[key]


@pytest.fixture
def each_decision_evaluated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The review's Monte Carlo evaluation of a decision takes a second or more: a test
    that reviews the same hand several times (the leaderboard, which reviews the final's
    decisive hands, written in several languages; a classroom review page and the test's
    own review of the same hand) has each decision evaluated once, by the review's own
    ``evaluate``, for the whole test run.  ``review_hand`` itself still runs at every
    call, in the language in use (its sentences, ratings, summaries); only the playouts
    behind the same numbers are not played again."""
    from box_gin.classroom import reviews
    from box_gin.review.core import review_hand
    from box_gin.tournament import report

    once = functools.partial(review_hand, evaluator=_evaluate_once)
    monkeypatch.setattr(report, "review_hand", once)
    monkeypatch.setattr(reviews, "review_hand", once)
