"""What the katas' generators, shrinkers and judges share: card helpers, the
shrinking of a list of cards, the answers a judge expects as a bool or an int, and
hands drawn rich in melds.  Its underscored names are private to this package."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...cards import CARDS, Card, Suit, full_deck, mask_of
from ...i18n import _
from ...melds import min_deadwood_mask
from ..core import Args, cards_of, fmt
from ..draw import Draw, dense_cards

ROLES = ("box", "captain", "sitter")


NAMES = (("Ada", "Ben", "Cy"), ("Noor", "Ivan", "Zsofi"), ("Ana", "Bo", "Chen"))


def cards_in(value: Any) -> list[Card] | None:
    """The cards of a list, tuple or set of cards; None if it is not one."""
    if isinstance(value, list | tuple | set | frozenset) and all(
            isinstance(c, Card) for c in value):
        return list(value)
    return None


def _is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _want_bool(expected: bool, got: Any) -> str | None:
    if not _is_bool(got):
        return _("return True or False, not {value}").format(value=fmt(got))
    if got != expected:
        return _("the answer is {expected}").format(expected=expected)
    return None


def _want_int(expected: int, got: Any) -> str | None:
    if not _is_int(got):
        return _("return a whole number (int), not {value}").format(value=fmt(got))
    if got != expected:
        return _("the answer is {expected}").format(expected=expected)
    return None


def _without(cards: list[Card], i: int) -> list[Card]:
    return cards[:i] + cards[i + 1:]


def _shrink_cards(args: Args, *, position: int = 0, least: int = 0) -> Iterator[Args]:
    """Simpler inputs near ``args``, varying the cards of argument ``position``: one card
    fewer, one card plainer (an ace or one rank lower, or an earlier suit), two
    neighbours swapped into order, or the cards sorted."""
    cards = list(args[position])

    def with_cards(new: list[Card]) -> Args:
        return (*args[:position], new, *args[position + 1:])

    if len(cards) > least:
        for i in range(len(cards)):
            yield with_cards(_without(cards, i))
    for rank in sorted({c.rank for c in cards}):  # a whole rank fewer (a set gone)
        rest = [c for c in cards if c.rank != rank]
        if least <= len(rest) < len(cards) - 2:
            yield with_cards(rest)
    for suit in sorted({c.suit for c in cards}):  # a whole suit fewer (a run gone)
        rest = [c for c in cards if c.suit != suit]
        if least <= len(rest) < len(cards) - 2:
            yield with_cards(rest)
    if least + 2 <= len(cards) <= 12:  # two cards fewer: a step no single removal makes
        for i in range(len(cards)):
            for j in range(i + 1, len(cards)):
                yield with_cards(_without(_without(cards, j), i))
    taken = set(cards_of(args))
    for i, c in enumerate(cards):
        plainer = {CARDS[(c.suit, 1)], CARDS[(c.suit, max(1, c.rank - 1))],
                   CARDS[(Suit.CLUBS, c.rank)], CARDS[(Suit(max(0, c.suit - 1)), c.rank)]}
        for p in sorted(plainer - taken):
            yield with_cards([*cards[:i], p, *cards[i + 1:]])
    yield from _relabelled(args)
    for i in range(len(cards) - 1):
        if cards[i + 1] < cards[i]:
            yield with_cards([*cards[:i], cards[i + 1], cards[i], *cards[i + 2:]])
    if cards != sorted(cards):
        yield with_cards(sorted(cards))


def _map_cards(value: Any, f: Any) -> Any:
    if isinstance(value, Card):
        return f(value)
    if isinstance(value, list):
        return [_map_cards(v, f) for v in value]
    if isinstance(value, tuple):
        return tuple(_map_cards(v, f) for v in value)
    if isinstance(value, dict):
        return {k: _map_cards(v, f) for k, v in value.items()}
    return value


def _relabelled(args: Args) -> Iterator[Args]:
    """The same input with every card one rank lower, or two suits swapped throughout:
    what makes it a meld or not stays, the cards get plainer."""
    cards = list(cards_of(args))
    if cards and min(c.rank for c in cards) > 1:
        yield _map_cards(args, lambda c: CARDS[(c.suit, c.rank - 1)])
    suits = sorted({c.suit for c in cards})
    for high in suits:
        for low in range(high):
            swap = {high: Suit(low), low: Suit(high)}
            yield _map_cards(args, lambda c, swap=swap: CARDS[(swap.get(c.suit, c.suit), c.rank)])


def _shrink_one_card(args: Args) -> Iterator[Args]:
    """Plainer cards in place of a lone card argument."""
    for (cards,) in _shrink_cards(([args[0]],)):
        if len(cards) == 1:
            yield (cards[0], *args[1:])


def _least(cards: list[Card]) -> int:
    return min_deadwood_mask(mask_of(cards))


def _after_discards(cards: list[Card]) -> dict[Card, int]:
    mask = mask_of(cards)
    return {c: min_deadwood_mask(mask ^ c.bit) for c in cards}


def meldy_cards(d: Draw, lo: int, hi: int) -> list[Card]:
    """Cards made mostly of melds, with a few strays: hands close to gin.  Now and then a
    meld is a trap, Q K A or K A 2 of one suit (not a run), or a stray is an ace (a
    deadwood of 1 is not gin)."""
    cards: list[Card] = []
    target = d.integer(lo, hi)
    for _attempt in range(6):
        if len(cards) >= target - 1:
            break
        kind = d.integer(0, 5)
        if kind == 0:
            suit = d.choice(list(Suit))
            meld = [CARDS[(suit, r)] for r in d.choice(((12, 13, 1), (13, 1, 2)))]
        elif kind == 1 and len(cards) + 1 < target:
            meld = [CARDS[(d.choice(list(Suit)), 1)]]
        elif kind <= 3:
            rank = d.integer(1, 13)
            suits = d.subset(list(Suit), 3, 4)
            meld = [CARDS[(s, rank)] for s in suits]
        else:
            suit = d.choice(list(Suit))
            length = d.integer(3, 5)
            low = d.integer(1, 14 - length)
            meld = [CARDS[(suit, r)] for r in range(low, low + length)]
        if not set(meld) & set(cards) and len(cards) + len(meld) <= target:
            cards += meld
    taken = set(cards)
    rest = [c for c in full_deck() if c not in taken]
    cards += d.subset(rest, max(0, min(lo, target) - len(cards)), max(0, target - len(cards)))
    return d.permutation(cards)


def _gen_meld_hand(d: Draw, hi: int) -> list[Card]:
    """Hands for the meld katas.  Corners: runs and sets competing for the same cards
    (3H 4H 5H with 5C 5D); four-card sets; dense hands of aces to sevens; 0 to ``hi``
    cards; the ace next to the king (Q K A is not a run); any order."""
    mode = d.integer(0, 5)
    if mode == 5:  # a four-card set among other cards
        rank = d.integer(1, 13)
        four = [CARDS[(s, rank)] for s in Suit]
        rest = [c for c in dense_cards(d, 0, max(0, hi - 4)) if c.rank != rank]
        return d.permutation(four + rest[:hi - 4])
    if mode == 0:  # a run and a set sharing a card, and some more
        suit = d.choice(list(Suit))
        length = d.integer(3, 4)
        low = d.integer(1, 14 - length)
        run = [CARDS[(suit, r)] for r in range(low, low + length)]
        shared = d.choice(run)
        others = [CARDS[(s, shared.rank)] for s in Suit if s != suit]
        cards = run + d.subset(others, 2, 3)
        taken = set(cards)
        rest = [c for c in full_deck() if c not in taken]
        cards += d.subset(rest, 0, max(0, min(3, hi - len(cards))))
        return d.permutation(cards[:hi])
    if mode == 1:  # aces to sevens: many melds overlap
        pool = [CARDS[(s, r)] for r in range(1, 8) for s in Suit]
        return d.subset(pool, 0, hi)
    if mode == 2:  # around the king and the ace
        pool = [CARDS[(s, r)] for r in (11, 12, 13, 1, 2) for s in d.subset(list(Suit), 1, 2)]
        return d.subset(pool, 0, min(hi, 7))
    return dense_cards(d, 0, hi)


def _c(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split()]


def _n_cards(args: Args) -> int:
    return len(args[0])
