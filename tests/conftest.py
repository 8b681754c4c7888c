"""Shared test set-up: the hypothesis profile and a dealer that stacks the deck.

Helpers that test modules import live in bruteforce.py, never here: more than one
conftest.py shares the module name ``conftest``.
"""

from __future__ import annotations

import os

import pytest
from bruteforce import Dealer, stacked_deck
from graded_class import GradedClass, shared_grading
from hypothesis import HealthCheck, settings

from box_gin import STANDARD, Hand, Rules

# `--doctest-modules` would import this file as a plain module named "conftest", which
# clashes with tests/browser/conftest.py; it has no doctests, so leave it out.
collect_ignore = ["conftest.py"]

# No deadline (CI machines are shared and slow); BOX_GIN_HYPOTHESIS=thorough for a long run.
settings.register_profile(
    "box-gin", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", parent=settings.get_profile("box-gin"), max_examples=3000)
settings.load_profile(os.environ.get("BOX_GIN_HYPOTHESIS", "box-gin"))


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
