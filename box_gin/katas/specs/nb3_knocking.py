"""The katas of notebook 3, knocking: can_knock, best_discards, is_gin, each with its
generator, reference and judge."""

from __future__ import annotations

from typing import Any

from ...cards import CARDS, Card, Suit, full_deck
from ...i18n import _
from ...melds import best_melds as engine_best_melds
from ..core import Args, Kata
from ..draw import Draw, any_cards
from .common import (
    _after_discards,
    _c,
    _gen_meld_hand,
    _is_bool,
    _n_cards,
    _shrink_cards,
    _want_bool,
    cards_in,
    meldy_cards,
)


def _gen_knock(d: Draw) -> Args:
    # Corners: hands close to gin (melds and strays), runs and sets competing for cards,
    # the best discard inside a meld (the end of a four-card run), limits below 10.
    # A few cards of tens and faces (all worth 10): the limit decides.  A four-card set
    # beside a few strays: all four cards count as melded.
    mode = d.integer(0, 4)
    if mode == 4:
        rank = d.integer(1, 13)
        strays = [c for c in any_cards(d, 1, 5) if c.rank != rank]
        return (d.permutation([*(CARDS[(s, rank)] for s in Suit), *strays]),
                d.choice((10, 10, d.integer(0, 10))))
    if mode == 3:
        pool = [CARDS[(s, r)] for r in (10, 11, 12, 13) for s in Suit]
        return (d.subset(pool, 2, 4), d.choice((10, 10, d.integer(0, 10))))
    cards = (meldy_cards(d, 2, 11) if mode == 0 else any_cards(d, 2, 11) if mode == 1
             else _gen_meld_hand(d, 11))
    limit = d.choice((10, 10, 10, d.integer(0, 10)))
    return (cards if len(cards) >= 2 else cards + d.subset(
        [c for c in full_deck() if c not in cards], 2 - len(cards), 2 - len(cards)), limit)


#: The fixed hidden tests of can_knock, by class: every limit from 0 to 10 against a hand
#: whose least deadwood is just at it (may knock) and just above it (may not); a limit of
#: 0 (gin only) with gin and with a deadwood of 1; the limit left out (10); two cards
#: (the fewest), three, eleven, fourteen; the best discard inside a meld (the end of a
#: four-card run, the fourth card of a set); every card in one meld (the discard breaks
#: it); tens and faces only; hands listed in any order.
KNOCK_CORNERS: tuple[Args, ...] = (
    *((_c(f"5H 6H 7H KS {'A23456789T'[n - 1]}C"), n) for n in range(1, 11)),
    *((_c(f"5H 6H 7H KS {'A23456789T'[n - 1]}C"), n - 1) for n in range(1, 11)),
    (_c("5H 6H 7H KS 9C"), 8), (_c("5H 6H 7H KS"), 0), (_c("5H 6H 7H KS AC"), 0),
    (_c("5H 6H 7H KS AC"), 1), (_c("5H 6H 7H 8H"), 0), (_c("7C 7D 7H 7S"), 0),
    (_c("7C 7D 7H 7S 2D"), 0), (_c("7C 7D 7H 7S 2D"), 1), (_c("7C 7D 7H 7S 2D"), 2),
    (_c("AH KS"), 0), (_c("AH KS"), 1), (_c("2H KS"), 1), (_c("AH 2C"), 0),
    (_c("AH 2C"), 1), (_c("QS KS"), 10), (_c("QS KS"), 9), (_c("TC JD QH KS"), 10),
    (_c("TC JD QH KS"), 0), (_c("5H 6H 7H 2C 9D"), 2), (_c("5H 6H 7H 2C 9D"), 1),
    (_c("KS 7H 6H 5H"),), (_c("9C 9D 7H 6H 5H 2S"),), (_c("5H 6H 7H 2C 9D"),),
    (_c("5H 6H 7H TC KS"),), (_c("TC JC QC KC AS AD AH AC"), 0),
    (_c("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD"),),
    (_c("2C 3C 4C 7D 7H 7S 8H 8S JD QH KS"),),
    (_c("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S"), 0),
    # Every card melded, so the discard must break the meld (issue 37's escapes).
    (_c("6C 6D 6H"), 10),
    # A pair is not a meld; a face's value (10) decides.
    (_c("6C 6D 6H 7C 7D 8C"), 10), (_c("9C TC JC 9D TD"), 8),
)


def _can_knock_reference(cards: list[Card], limit: int = 10) -> bool:
    if len(cards) < 2:
        raise ValueError("at least 2 cards")
    return min(_after_discards(cards).values()) <= limit


def _knock_reason(cards: list[Card], limit: int, *, gin: bool) -> str:
    """The best discard and the deadwood it leaves, against the limit (0 for gin)."""
    after = _after_discards(cards)
    least = min(after.values())
    best = min((c for c in cards if after[c] == least), key=lambda c: -c.value)
    if gin:
        if least == 0:
            melds = " ".join(f"[{m}]" for m in engine_best_melds(
                [c for c in cards if c != best]).melds)
            return _("discarding {card} leaves every other card in a meld: {melds}").format(
                card=best, melds=melds)
        return _("whatever is discarded, some deadwood is left: at least {least} (after "
                 "discarding {card})").format(least=least, card=best)
    if least <= limit:
        return _("discarding {card} leaves deadwood {least}, within the limit {limit}").format(
            card=best, least=least, limit=limit)
    return _("whatever is discarded, the deadwood left is at least {least} (after "
             "discarding {card}), above the limit {limit}").format(
                 least=least, card=best, limit=limit)


def _judge_can_knock(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_bool(expected, got)
    if why is None or not _is_bool(got):
        return why
    return _knock_reason(list(args[0]), args[1] if len(args) > 1 else 10, gin=False)


def _judge_is_gin(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_bool(expected, got)
    return why if why is None or not _is_bool(got) else _knock_reason(
        list(args[0]), 0, gin=True)


def _gen_discards(d: Draw) -> Args:
    # The knocking hands, and as often hands where runs and sets compete for cards.
    if d.boolean():
        return (_gen_knock(d)[0],)
    cards = _gen_meld_hand(d, 11)
    taken = set(cards)
    rest = [c for c in full_deck() if c not in taken]
    return (cards + d.subset(rest, max(0, 2 - len(cards)), max(0, 2 - len(cards))),)


#: The fixed hidden tests of best_discards, by class: one best discard; several tied
#: (equal values of different ranks: TS JS; a meld's two ends); every card tied (two
#: cards); the best discard inside a meld (the end of a four-card run, the fourth card of
#: a set, a card shared by a run and a set); gin after the discard; an ace as the only
#: stray; hands listed in any order.
DISCARD_CORNERS: tuple[Args, ...] = tuple((_c(t),) for t in (
    "AH KS", "KS AH", "TS JS", "5H 6H 7H 8H", "8H 7H 6H 5H", "5H 6H 7H 8H 9C",
    "7C 7D 7H 7S", "7C 7D 7H 7S 2D", "5H 6H 7H KC KD", "5H 6H 7H TS JS QD",
    "3H 4H 5H 5C 5D", "3H 4H 5H 6H 6C 6D", "2C 2D 2H 9S", "AH 2H 3H AS", "AS AH 2H 3H",
    "4C 5C 6C 7C 8C AD", "9C 9D 9H 9S 8S TS", "QS KS AS 2S", "7H 7S 8H 8S 9H 9S",
    "AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD", "KD 9S 9D 9C 7C 7D 7S 4H 3H 2H AH",
    "8C 9C TC JC",
))


def _best_discards_reference(cards: list[Card]) -> list[Card]:
    after = _after_discards(cards)
    least = min(after.values())
    return [c for c in cards if after[c] == least]


def _judge_best_discards(args: Args, expected: Any, got: Any) -> str | None:
    cards = cards_in(got)
    if cards is None:
        return _("return a list of cards")
    if len(set(cards)) != len(cards):
        return _("list each card once")
    after = _after_discards(args[0])
    least = min(after.values())
    wrong = [c for c in cards if c not in after or after[c] != least]
    if wrong:
        c = wrong[0]
        if c not in after:
            return _("{card} is not in the hand").format(card=c)
        return _("discarding {card} leaves deadwood {value}, but {best} leaves {least}"
                 ).format(card=c, value=after[c], best=expected[0], least=least)
    missing = [c for c in expected if c not in cards]
    if missing:
        return _("discarding {card} also leaves the least deadwood, {least}").format(
            card=missing[0], least=least)
    return None


def _is_gin_reference(cards: list[Card]) -> bool:
    if len(cards) < 2:
        raise ValueError("at least 2 cards")
    return min(_after_discards(cards).values()) == 0


#: The fixed hidden tests of is_gin, by class: two cards (never gin), three; gin with the
#: discard a stray, the end of a four-card run, the fourth card of a set; a deadwood of
#: 1 (an ace) left, which is not gin; gin only when the run, not the set, takes a shared
#: card; eleven cards, fourteen; QKA (not a run) left; hands listed in any order.
GIN_CORNERS: tuple[Args, ...] = tuple((_c(t),) for t in (
    "AH KS", "AH 2H", "AH 2H 3H", "5H 6H 7H KS", "KS 7H 6H 5H", "5H 6H 7H 8H", "7C 7D 7H 7S",
    "5H 6H 7H AC KS", "5H 6H 7H AC", "QH KH AH 2C", "QH KH AH 5C 5D 5S",
    "3H 4H 5H 5C 5D KS", "3H 4H 5H 6H 5C 5D 5S", "AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD",
    "AH 2H 3H 4H 7S 7D 7C 9C 9D 9S AD", "2C 3C 4C 7D 7H 7S 8H 8S JD QH KS",
    "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 5D",
))


def _gen_gin(d: Draw) -> Args:
    mode = d.integer(0, 4)
    cards = (any_cards(d, 2, 11) if mode == 0 else _gen_meld_hand(d, 11) if mode == 1
             else meldy_cards(d, 2, 11))
    if len(cards) < 2:
        cards += d.subset([c for c in full_deck() if c not in cards], 2 - len(cards),
                          2 - len(cards))
    return (cards,)


KATAS: tuple[Kata, ...] = (
    Kata(
        name="can_knock", notebook=3, points=2, params=("cards", "limit"),
        summary=lambda: _("Whether some discard leaves deadwood within the knock limit."),
        hint=lambda: _("Try each discard; after it, the least deadwood of the cards left "
                       "must be at most the limit (a deadwood equal to the limit may knock)."),
        public=((_c("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD"), 10),
                (_c("AH 2H 3H 5S 5D 5C 9C 9D JS QS KD"), 10),
                (_c("2C 3C 4C 7D 7H 7S 8H 8S JD QH KS"), 10),
                (_c("5H 6H 7H 7C 7D"), 10), (_c("5H 6H 7H 2C 9D"), 1)),
        generate=_gen_knock, corners=KNOCK_CORNERS, reference=_can_knock_reference,
        judge=_judge_can_knock, size=_n_cards,
        shrink=lambda args: _shrink_cards(args, least=2),
    ),
    Kata(
        name="best_discards", notebook=3, points=3, params=("cards",),
        summary=lambda: _("Every discard that leaves the least deadwood."),
        hint=lambda: _("Try every card as the discard and keep all those that tie for the "
                       "least deadwood: there may be several."),
        public=((_c("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD"),), (_c("5H 6H 7H KC KD"),),
                (_c("5H 6H 7H 8H 9C"),), (_c("2C 2D 2H 9S"),)),
        generate=_gen_discards, corners=DISCARD_CORNERS,
        reference=_best_discards_reference,
        judge=_judge_best_discards, size=_n_cards,
        shrink=lambda args: _shrink_cards(args, least=2),
    ),
    Kata(
        name="is_gin", notebook=3, points=2, params=("cards",),
        summary=lambda: _("Whether some discard leaves no deadwood at all."),
        hint=lambda: _("Gin is knocking with no deadwood: one card is discarded first, and "
                       "all the cards left must be in melds."),
        public=((_c("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD"),), (_c("5H 6H 7H KS"),),
                (_c("5H 6H 7H 8H"),), (_c("5H 6H 7H KS QD"),)),
        generate=_gen_gin, corners=GIN_CORNERS, reference=_is_gin_reference,
        judge=_judge_is_gin, size=_n_cards,
        shrink=lambda args: _shrink_cards(args, least=2),
    ),
)
