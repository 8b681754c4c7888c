"""Scoring a hand: docs/rules.md "Scoring a hand" and the scoring variants."""

from __future__ import annotations

import pytest

from box_gin import STANDARD, BoxGinError, Rules, Side, score_hand

K, D = Side.KNOCKER, Side.DEFENDER


@pytest.mark.parametrize(("k", "d", "gin", "winner", "points", "undercut"), [
    # Knock, K < D: the knocker scores D - K.
    (4, 19, False, K, 15, False),
    (0, 1, False, K, 1, False),
    (9, 10, False, K, 1, False),
    (10, 50, False, K, 40, False),
    # Undercut, K >= D: the defender scores 10 + (K - D).
    (8, 6, False, D, 12, True),
    (10, 0, False, D, 20, True),
    # Undercut on equal deadwood.
    (7, 7, False, D, 10, True),
    (5, 5, False, D, 10, True),
    # Gin: 25 + D.
    (0, 19, True, K, 44, False),
    (0, 90, True, K, 115, False),
    # Gin against a defender with no deadwood: never undercut.
    (0, 0, True, K, 25, False),
])
def test_score_table(k: int, d: int, gin: bool, winner: Side, points: int, undercut: bool
                     ) -> None:
    score = score_hand(k, d, gin)
    assert (score.winner, score.points, score.undercut, score.gin) == (
        winner, points, undercut, gin)
    assert score == score_hand(k, d, gin, STANDARD)


def test_a_knock_with_no_deadwood_that_is_called_a_knock_can_be_undercut() -> None:
    # Only gin is protected; the engine always calls a 0-deadwood knock gin, but
    # score_hand itself follows its arguments.
    assert score_hand(0, 0, gin=False).winner is D


@pytest.mark.parametrize(("rules", "k", "d", "gin", "points"), [
    (Rules(gin_bonus=20), 0, 7, True, 27),
    (Rules(gin_bonus=20), 0, 0, True, 20),
    (Rules(undercut_bonus=25), 6, 4, False, 27),
    (Rules(undercut_bonus=0), 6, 6, False, 0),
    (Rules(gin_bonus=20, undercut_bonus=20), 3, 13, False, 10),
])
def test_score_options(rules: Rules, k: int, d: int, gin: bool, points: int) -> None:
    assert score_hand(k, d, gin, rules).points == points


@pytest.mark.parametrize(("rules", "d", "points"), [
    (Rules(big_gin=True), 0, 31),
    (Rules(big_gin=True), 12, 43),
    (Rules(big_gin=True, big_gin_bonus=50), 12, 62),
])
def test_big_gin(rules: Rules, d: int, points: int) -> None:
    score = score_hand(0, d, gin=True, rules=rules, big_gin=True)
    assert (score.winner, score.points, score.gin, score.big_gin) == (K, points, True, True)


@pytest.mark.parametrize(("k", "d", "gin", "winner", "points"), [
    (4, 19, False, K, 30),
    (8, 6, False, D, 24),
    (0, 10, True, K, 70),
])
def test_oklahoma_spades_double_every_score(k: int, d: int, gin: bool, winner: Side,
                                            points: int) -> None:
    score = score_hand(k, d, gin, doubled=True)
    assert (score.winner, score.points) == (winner, points)


def test_doubled_big_gin() -> None:
    assert score_hand(0, 5, True, Rules(big_gin=True), big_gin=True, doubled=True).points == 72


@pytest.mark.parametrize(("k", "d", "gin", "big"), [
    (3, 5, True, False),      # gin with deadwood
    (1, 5, False, True),      # big gin with deadwood
    (-1, 5, False, False),
    (2, -5, False, False),
    (2.5, 5, False, False),
])
def test_impossible_scores_are_rejected(k: int, d: int, gin: bool, big: bool) -> None:
    with pytest.raises(BoxGinError):
        score_hand(k, d, gin, big_gin=big)  # type: ignore[arg-type]


def test_scores_match_the_rule_formula_everywhere() -> None:
    for rules in (STANDARD, Rules(gin_bonus=20, undercut_bonus=15)):
        for k in range(0, 11):
            for d in range(0, 60):
                score = score_hand(k, d, False, rules)
                if k < d:
                    assert (score.winner, score.points) == (K, d - k)
                else:
                    assert (score.winner, score.points) == (D, rules.undercut_bonus + k - d)
            for d in range(0, 60):
                assert score_hand(0, d, True, rules).points == rules.gin_bonus + d
