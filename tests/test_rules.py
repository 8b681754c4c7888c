"""The rules configuration: docs/rules.md options and variants, with their defaults."""

from __future__ import annotations

import json

import pytest

from box_gin import PRESETS, STANDARD, Rules


def test_defaults_are_the_standard_game() -> None:
    r = STANDARD
    assert (r.knock_limit, r.gin_bonus, r.undercut_bonus, r.target) == (10, 25, 10, 100)
    assert r.may_discard_taken_card is False
    # Every variant is off by default.
    assert not (r.big_gin or r.oklahoma or r.oklahoma_spades_double or r.classic_bonuses
                or r.hollywood)
    assert Rules() == STANDARD


@pytest.mark.parametrize(("name", "field", "value"), [
    ("gin-20", "gin_bonus", 20),
    ("big-gin", "big_gin", True),
    ("oklahoma", "oklahoma", True),
    ("oklahoma-spades", "oklahoma_spades_double", True),
    ("classic", "classic_bonuses", True),
    ("hollywood", "hollywood", True),
    ("discard-taken", "may_discard_taken_card", True),
])
def test_presets(name: str, field: str, value: object) -> None:
    assert getattr(PRESETS[name], field) == value
    assert getattr(STANDARD, field) != value
    assert PRESETS["standard"] == STANDARD


@pytest.mark.parametrize(("upcard_value", "limit"), [
    (1, 0),          # an ace: gin only
    (2, 2), (5, 5), (9, 9),
    (10, 10),        # ten and face cards
])
def test_oklahoma_knock_limit_is_the_upcard_value(upcard_value: int, limit: int) -> None:
    assert Rules(oklahoma=True).knock_limit_for(upcard_value) == limit
    assert STANDARD.knock_limit_for(upcard_value) == 10
    assert Rules(knock_limit=7).knock_limit_for(upcard_value) == 7


def test_rules_round_trip_through_plain_data() -> None:
    for rules in [*PRESETS.values(), Rules(gin_bonus=20, target=150, knock_limit=7)]:
        assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_unknown_options_are_an_error() -> None:
    with pytest.raises(ValueError, match="no_such_rule"):
        Rules.from_dict({"no_such_rule": 1})


@pytest.mark.parametrize("changes", [
    {"knock_limit": -1}, {"gin_bonus": "25"}, {"undercut_bonus": 2.5}, {"target": 0},
    {"game_bonus": -5}, {"knock_limit": True},
])
def test_bad_option_values_are_rejected(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Rules(**changes)  # type: ignore[arg-type]


def test_replace_changes_one_option_and_keeps_the_rest() -> None:
    r = Rules(gin_bonus=20).replace(target=150)
    assert (r.gin_bonus, r.target, r.knock_limit) == (20, 150, 10)


@pytest.mark.parametrize("change", [{"target": True}, {"hollywood": 1}, {"big_gin": "yes"},
                                    {"knock_limit": False}])
def test_options_of_the_wrong_type_are_refused(change: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(change))):
        Rules(**change)  # type: ignore[arg-type]
