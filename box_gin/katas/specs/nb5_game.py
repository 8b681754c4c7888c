"""The katas of notebook 5, the three-player game: next_roles, is_drawn, game_winner,
each with its generator, reference and judge (the plain rules, written here)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import permutations
from typing import Any

from ...i18n import _, ngettext
from ...rules import DRAW_AT_STOCK
from ..core import Args, Kata, fmt
from ..draw import Draw
from .common import NAMES, ROLES, _is_bool, _want_bool


def _gen_roles(d: Draw) -> Args:
    # Corners: the dict's keys in every order (code that unpacks ``roles.values()``
    # must meet an order other than box, captain, sitter); every scorer, None included.
    names = d.permutation(d.choice(NAMES))
    scorer = d.choice(("box", "captain", None))
    roles = dict(zip(ROLES, names, strict=True))
    return ({r: roles[r] for r in d.permutation(ROLES)}, scorer)


#: The fixed hidden tests of next_roles, by class: each scorer (box, captain, None) with
#: the dict's keys in each of their six orders; other names.
ROLES_CORNERS: tuple[Args, ...] = (
    *(({r: dict(zip(ROLES, NAMES[0], strict=True))[r] for r in order}, scorer)
      for order in permutations(ROLES) for scorer in ("box", "captain", None)),
    *((dict(zip(ROLES, names, strict=True)), scorer)
      for names in (NAMES[1], NAMES[2][::-1]) for scorer in ("box", "captain", None)),
)


def _next_roles_reference(roles: dict[str, str], scorer: str | None) -> dict[str, str]:
    box, captain, sitter = roles["box"], roles["captain"], roles["sitter"]
    if scorer is None:
        return dict(roles)
    if scorer == "box":
        return {"box": box, "captain": sitter, "sitter": captain}
    if scorer == "captain":
        return {"box": captain, "captain": sitter, "sitter": box}
    raise ValueError(f"scorer is 'box', 'captain' or None, not {scorer!r}")


def _shrink_roles(args: Args) -> Iterator[Args]:
    roles, scorer = args
    yield ({r: roles[r] for r in ROLES}, scorer)


def _judge_next_roles(args: Args, expected: Any, got: Any) -> str | None:
    if not isinstance(got, dict) or set(got) != set(ROLES):
        return _("return a dict with the keys 'box', 'captain' and 'sitter'")
    if got != expected:
        return _("next hand: {roles}").format(roles=fmt(expected))
    return None


def _gen_drawn(d: Draw) -> Args:
    return (d.choice((2, 2, 3, d.integer(2, 31))), d.integer(0, 3) == 0)


def _judge_is_drawn(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_bool(expected, got)
    if why is None or not _is_bool(got):
        return why
    stock, knocked = args
    if knocked:
        return _("a knock always ends the hand with a score, never a draw")
    if expected:
        return ngettext("no knock, and only {n} card is left in the stock: the hand is drawn",
                        "no knock, and only {n} cards are left in the stock: the hand is drawn",
                        stock).format(n=stock)
    return ngettext("{n} card is left in the stock: play goes on until only 2 are left",
                    "{n} cards are left in the stock: play goes on until only 2 are left",
                    stock).format(n=stock)


#: The fixed hidden tests of is_drawn: every stock size the text allows, 2 to 31, with
#: and without a knock.
DRAWN_CORNERS: tuple[Args, ...] = tuple((n, k) for n in range(2, 32) for k in (False, True))


def _is_drawn_reference(stock_size: int, knocked: bool) -> bool:
    return not knocked and stock_size <= DRAW_AT_STOCK


def _gen_game(d: Draw) -> Args:
    names = d.choice(NAMES)
    target = d.choice((100, 100, d.integer(10, 150)))
    totals = dict.fromkeys(names, 0)
    hands: list[tuple[str | None, int]] = []
    for _hand in range(d.integer(0, 12)):
        scorer = d.choice((*names, None))
        if scorer is None:
            hands.append((None, 0))
            continue
        points = d.choice((d.integer(1, 40), target - totals[scorer]))
        points = max(1, points)
        hands.append((scorer, points))
        totals[scorer] += points
        if totals[scorer] >= target:
            break
    return (hands, target)


def _hands(text: str) -> list[tuple[str | None, int]]:
    out: list[tuple[str | None, int]] = []
    for word in text.split():
        name, points = word.split(":")
        out.append((None if name == "-" else name, int(points)))
    return out


#: The fixed hidden tests of game_winner, by class: no hands; nobody there yet, one
#: point short; the target reached exactly, and passed; on the first hand; drawn hands
#: (None, 0) before, between, after; the target left out (100), low (1, 10), high;
#: hands that go on after someone reached the target, as the text allows though no game
#: does: another player then passes a higher total, or the winner scores again; two
#: players over the target, the first to get there listed second in the totals' order.
GAME_CORNERS: tuple[Args, ...] = (
    ([], 100), ([], 1), (_hands("Ada:99"), 100), (_hands("Ada:100"), 100),
    (_hands("Ada:101"), 100), (_hands("Ada:60 Ben:25 Ada:39"), 100),
    (_hands("Ada:60 Ben:25 Ada:40"), 100), (_hands("Ada:60 -:0 Ada:45"), 100),
    (_hands("-:0 -:0 Cy:10"), 10), (_hands("-:0 Cy:9 -:0"), 10), (_hands("Ben:1"), 1),
    (_hands("Ada:60 Ben:30"),), (_hands("Ada:60 Ben:40 Ada:40"),), (_hands("Cy:99 Cy:1"),),
    (_hands("Ada:100 Ben:150"), 100), (_hands("Ada:100 Ben:150 Ben:10"), 100),
    (_hands("Ben:90 Ada:95 Ada:10 Ben:50"), 100), (_hands("Ada:120 Ada:5"), 100),
    (_hands("Zsofi:40 Noor:50 Zsofi:20 Noor:30"), 70), (_hands("Bo:30 Ana:29 Ana:1"), 30),
    (_hands("Chen:75 Ana:80 Chen:30 Ana:30 -:0"), 150),
    (_hands("Chen:75 Ana:80 Chen:30 Ana:30 -:0 Ana:40"), 150),
    (_hands("Ivan:10 Noor:10 Zsofi:10 Ivan:10"), 20), (_hands("Ada:99"),),
)


def _game_winner_reference(hands: list[tuple[str | None, int]], target: int = 100
                           ) -> str | None:
    totals: dict[str, int] = {}
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
            if totals[scorer] >= target:
                return scorer
    return None


def _judge_game_winner(args: Args, expected: Any, got: Any) -> str | None:
    why = _judge_equal(args, expected, got)
    if why is None:
        return None
    target = args[1] if len(args) > 1 else 100
    if expected is None:
        return _("nobody reaches {target} points in these hands").format(target=target)
    return _("the first to reach {target} points is {name}").format(
        name=expected, target=target)


def _judge_equal(args: Args, expected: Any, got: Any) -> str | None:
    if got != expected or type(got) is not type(expected):
        return _("the answer is {expected}").format(expected=fmt(expected))
    return None


def _shrink_game(args: Args) -> Iterator[Args]:
    hands, target = args[0], (args[1] if len(args) > 1 else 100)
    for i in range(len(hands)):
        rest = hands[:i] + hands[i + 1:]
        if _game_winner_reference(rest, target) is None or i == len(hands) - 1:
            yield (rest, *args[1:])


KATAS: tuple[Kata, ...] = (
    Kata(
        name="next_roles", notebook=5, points=2, params=("roles", "scorer"),
        summary=lambda: _("The roles for the next hand."),
        hint=lambda: _("The box won: it stays, captain and sitter swap. The box lost: the "
                       "captain goes into the box, the sitter becomes captain, the box sits "
                       "out. A drawn hand (scorer None) changes nothing."),
        public=(({"box": "Ada", "captain": "Ben", "sitter": "Cy"}, "box"),
                ({"box": "Ada", "captain": "Ben", "sitter": "Cy"}, "captain"),
                ({"box": "Ada", "captain": "Ben", "sitter": "Cy"}, None)),
        generate=_gen_roles, corners=ROLES_CORNERS, reference=_next_roles_reference,
        judge=_judge_next_roles,
        size=lambda args: 0, shrink=_shrink_roles,
    ),
    Kata(
        name="is_drawn", notebook=5, points=1, params=("stock_size", "knocked"),
        summary=lambda: _("Whether the hand ends as a draw after a turn."),
        hint=lambda: _("After a discard without a knock, the hand is drawn when only 2 "
                       "cards are left in the stock. A knock always ends the hand with a "
                       "score."),
        public=((2, False), (3, False), (2, True), (31, False)),
        generate=_gen_drawn, corners=DRAWN_CORNERS, reference=_is_drawn_reference,
        judge=_judge_is_drawn, size=lambda args: args[0],
    ),
    Kata(
        name="game_winner", notebook=5, points=2, params=("hands", "target"),
        summary=lambda: _("The game's winner: the first to reach the target, if anyone."),
        hint=lambda: _("Add up each player's points hand by hand; a drawn hand (None) scores "
                       "nothing. Reaching the target exactly is enough to win."),
        public=(([("Ada", 60), ("Ben", 25), ("Ada", 40)], 100),
                ([("Ada", 60), (None, 0), ("Ben", 30)], 100),
                ([], 100), ([("Cy", 99), ("Cy", 1)], 100)),
        generate=_gen_game, corners=GAME_CORNERS, reference=_game_winner_reference,
        judge=_judge_game_winner,
        size=lambda args: len(args[0]), shrink=_shrink_game,
    ),
)
