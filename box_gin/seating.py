"""Who sits where: the cut for roles before the first hand, the rotation of roles after
each hand, and the three players' names (docs/rules.md, "Players and roles").

>>> import random
>>> roles, rounds = cut_for_roles(["Ada", "Ben", "Cy"], random.Random(1))
>>> sorted(roles.values())
['Ada', 'Ben', 'Cy']
>>> check_players([" Ada", "Ben", "Cy "])
('Ada', 'Ben', 'Cy')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card, full_deck
from .errors import IllegalActionError
from .hand import HandResult, Role
from .i18n import _


@dataclass(frozen=True, slots=True)
class CutRound:
    """One round of cutting: the card each player in it cut."""

    cards: tuple[tuple[str, Card], ...]


def cut_for_roles(players: Sequence[str], rng: random.Random
                  ) -> tuple[dict[Role, str], list[CutRound]]:
    """Each player cuts a card: highest rank is box, middle captain, lowest sitter.

    Suits do not break ties: tied players cut again among themselves, only for the
    places still in doubt.  Returns the roles and every round of cutting.
    """
    rounds: list[CutRound] = []
    order: list[str] = []

    def place(group: list[str]) -> None:
        while True:
            deck = list(full_deck())
            rng.shuffle(deck)
            cut = {name: deck[i] for i, name in enumerate(group)}
            rounds.append(CutRound(tuple(cut.items())))
            ranks = sorted({c.rank for c in cut.values()}, reverse=True)
            if len(ranks) > 1 or len(group) == 1:
                break
        for rank in ranks:
            tied = [n for n in group if cut[n].rank == rank]
            if len(tied) == 1:
                order.append(tied[0])
            else:
                place(tied)

    place(list(players))
    return {Role.BOX: order[0], Role.CAPTAIN: order[1], Role.SITTER: order[2]}, rounds


def next_roles(roles: Mapping[Role, str], result: HandResult) -> dict[Role, str]:
    """The roles for the next hand.

    The box won: it stays, captain and sitter swap.  The box lost: the captain goes into
    the box, the box becomes the sitter, the sitter becomes captain.  Drawn: unchanged.
    """
    box, captain, sitter = roles[Role.BOX], roles[Role.CAPTAIN], roles[Role.SITTER]
    if result.box_won is None:
        return dict(roles)
    if result.box_won:
        return {Role.BOX: box, Role.CAPTAIN: sitter, Role.SITTER: captain}
    return {Role.BOX: captain, Role.CAPTAIN: sitter, Role.SITTER: box}


def check_players(players: Any) -> tuple[str, str, str]:
    """Three names, each a non-empty string; names equal after stripping spaces and
    ignoring case are the same name."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise IllegalActionError(
            _("the players are a list of three names, not {value!r}").format(value=players))
    names = list(players)
    for name in names:
        if not isinstance(name, str):
            raise IllegalActionError(
                _("a player's name is text, not {value!r}").format(value=name))
    stripped = [n.strip() for n in names]
    if len(stripped) != 3 or not all(stripped):
        raise IllegalActionError(
            _("a match has three players with different names, not {players!r}").format(
                players=names))
    keys = [n.casefold() for n in stripped]
    for i, key in enumerate(keys):
        if key in keys[:i]:
            raise IllegalActionError(
                _("two players have the same name, {first!r} and {second!r}: names that "
                  "differ only in spaces or capitals are one name").format(
                    first=names[keys.index(key)], second=names[i]))
    return stripped[0], stripped[1], stripped[2]
