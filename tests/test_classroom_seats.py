"""A learner's place freed by the teacher (box_gin/classroom/seats.py): a new secret
token, kept in the store across a restart; the old token opens nothing; a bot's place
or an empty one cannot be freed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from classroom_helpers import greedy_action, shadow

from box_gin.classroom.seats import reissue
from box_gin.classroom.store import Store
from box_gin.classroom.tables import Room, SeatError, load_table

NAMES = ("Zoe", "Yan", "Xia")


def test_a_freed_place_has_a_new_token_that_outlives_a_restart(tmp_path: Path) -> None:
    store = Store(tmp_path / "class.db")
    table = Room(store).create("standard", 100, seed=5)
    tokens = [table.sit(i, n) for i, n in enumerate(NAMES)]
    name, action = greedy_action(shadow(NAMES, 5))
    place = NAMES.index(name)  # the place to play first: freed
    new = reissue(table, place)
    assert new not in tokens and table.tokens[new] == place
    assert tokens[place] not in table.tokens
    again = load_table(Store(tmp_path / "class.db"), table.id)
    assert again.tokens == table.tokens and again.names == table.names
    # The old token acts for no one; the new one plays the place's moves.
    with pytest.raises(SeatError):
        again.act(tokens[place], action, 0)
    again.act(new, action, 0)
    assert again.seq == 1


def test_only_a_learners_place_can_be_freed() -> None:
    table = Room(Store(":memory:")).create("standard", 100, seed=1, bots=1)
    table.sit(0, "Zoe")
    bot_place = next(iter(table.bot_places))
    for place in (bot_place, 1 if bot_place != 1 else 2, 3, -1):
        with pytest.raises(SeatError):
            reissue(table, place)
