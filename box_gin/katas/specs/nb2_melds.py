"""The katas of notebook 2, melds: is_set, is_run, all_melds, best_melds, each with its
generator, reference and judge."""

from __future__ import annotations

from typing import Any

from ...cards import CARDS, Card, Suit, full_deck
from ...i18n import _, ngettext
from ...melds import all_melds as engine_all_melds
from ...melds import best_melds as engine_best_melds
from ...melds import is_run as engine_is_run
from ...melds import is_set as engine_is_set
from ..core import Args, Kata, arrangement_text, fmt
from ..draw import Draw, dense_cards
from .common import _c, _gen_meld_hand, _is_bool, _n_cards, _shrink_cards, _want_bool, cards_in


def _gen_set(d: Draw) -> Args:
    # Corners: one to four cards of a rank (2 or 5 are not sets); a wrong card beyond
    # the third (7H 7S 7D 8C); cards of equal value but different ranks (T J Q, all 10);
    # a run (2C 3C 4C); dense cards; any order.
    mode = d.integer(0, 5)
    if mode <= 2:
        rank = d.integer(1, 13)
        cards = [CARDS[(s, rank)] for s in d.subset(list(Suit), 1, 4)]
        if mode == 2:  # a stranger after three cards that match
            cards = [CARDS[(s, rank)] for s in d.subset(list(Suit), 3, 3)]
            odd = d.choice([c for c in full_deck() if c.rank != rank])
            return ([*cards, odd] if d.boolean() else d.permutation([*cards, odd]),)
        return (d.permutation(cards),)
    if mode == 3:  # tens and faces: the same value, different ranks
        pool = [CARDS[(s, r)] for r in (10, 11, 12, 13) for s in Suit]
        return (d.subset(pool, 3, 4),)
    if mode == 4:
        suit = d.choice(list(Suit))
        low = d.integer(1, 11)
        return (d.permutation([CARDS[(suit, r)] for r in range(low, low + 3)]),)
    return (dense_cards(d, 0, 5),)


def _hands(*texts: str) -> tuple[Args, ...]:
    return tuple((_c(t) if t else [],) for t in texts)


#: The fixed hidden tests of is_set, by class: no card, one, two; three and four of one
#: rank for every rank, in any order; a stranger first, in the middle, last (the fourth
#: card: 7H 7S 7D 8C); equal values, different ranks (TH JH QH, TC TD JS); a run; five
#: cards (four of a rank and one more).
SET_CORNERS: tuple[Args, ...] = (
    *_hands("", "7H", "7H 7S", "KC KD"),
    *((_c(f"{r}C {r}D {r}H"),) for r in "A23456789TJQK"),
    *_hands("AS AH AD AC", "5S 5C 5H", "QS QD QH QC", "TD TS TH TC", "KH KS KD KC"),
    *_hands("8C 7H 7S 7D", "7H 8C 7S 7D", "7H 7S 7D 8C", "7H 7S 8D", "7H 7S 8H",
            "TH JH QH", "TC TD JS", "TC TD TH JS", "2C 3C 4C", "5C 5D 5H 5S 6C",
            "5C 5D 5H 4C", "9D 9S 9C 6H"),
)


#: The fixed hidden tests of is_run, by class: lengths 0 to 13 (a whole suit); the ace
#: low only (A23, A2345; QKA, KA2, JQKA, QKA2 are not runs); every order (high to low,
#: shuffled); a stranger of another suit first, in the middle, last (beyond the third
#: card: 4C 5C 6C 7D); a gap anywhere (4C 5C 7C, 4C 5C 6C 8C); a rank twice; a set;
#: equal values, different ranks in a row of one suit (TH JH QH KH is a run; TH JH QH KS
#: is not).
RUN_CORNERS: tuple[Args, ...] = (
    *_hands("", "5D", "5D 6D", "AH 2H 3H", "AH 2H 3H 4H 5H", "QH KH AH", "KH AH 2H",
            "JS QS KS AS", "QC KC AC 2C", "JH QH KH", "9S 8S 7S", "KD QD JD TD 9D",
            "6C 4C 5C", "4C 5C 6C 7D", "4D 5C 6C 7C", "4C 5D 6C", "4C 5C 7C",
            "4C 5C 6C 8C", "3C 5C 6C 7C", "4C 5C 5D 6C", "4C 5C 6C 6D", "7C 7D 7H",
            "TH JH QH KH", "TH JH QH KS", "TH JH QS", "2S 3S 4S 5S 6S 7S 8S",
            "8S 7S 6S 5S 4S 3S 2S", "AS 3S 4S", "2C 3C 4C 5D"),
    (list(reversed([CARDS[(Suit.SPADES, r)] for r in range(1, 14)])),),
    ([CARDS[(Suit.HEARTS, r)] for r in range(1, 14)],),
    ([CARDS[(Suit.HEARTS, r)] for r in range(2, 14)],),
    ([CARDS[(Suit.DIAMONDS, r)] for r in (*range(1, 7), *range(8, 14))],),
)


def _gen_run(d: Draw) -> Args:
    # Corners: around the king and the ace (the ace is low only); runs of 2 to 7 in any
    # order, some spoiled by another suit or a gap, the spoiler beyond the third card
    # too (4C 5C 6C 8C); a set (7C 7D 7H); equal values, different ranks (TH JH QH KS);
    # a card twice in another suit's place; dense cards.
    mode = d.integer(0, 7)
    suit = d.choice(list(Suit))
    if mode == 0:
        ranks = d.choice(((12, 13, 1), (13, 1, 2), (11, 12, 13, 1), (1, 2, 3), (11, 12, 13),
                          (12, 13, 1, 2)))
        return (d.permutation([CARDS[(suit, r)] for r in ranks]),)
    if mode <= 3:
        length = d.integer(2, 7)
        low = d.integer(1, 14 - length)
        cards = [CARDS[(suit, r)] for r in range(low, low + length)]
        if d.integer(0, 2) == 0:  # spoil it: another suit, or a gap
            i = d.integer(0, len(cards) - 1)
            old = cards[i]
            if d.boolean():
                cards[i] = CARDS[(Suit((old.suit + d.integer(1, 3)) % 4), old.rank)]
            elif old.rank < 13 and CARDS[(old.suit, old.rank + 1)] not in cards:
                cards[i] = CARDS[(old.suit, old.rank + 1)]
        return (d.permutation(cards) if d.integer(0, 3) else cards,)
    if mode == 4:  # a run of three, then a card that spoils it, in that order
        low = d.integer(1, 11)
        cards = [CARDS[(suit, r)] for r in range(low, low + 3)]
        if d.boolean():
            cards = d.permutation(cards)
        spoilers = [c for c in full_deck() if c not in cards and not engine_is_run(
            [*cards, c])]
        return ([*cards, *d.subset(spoilers, 1, 2)],)
    if mode == 5:  # a set, or tens and faces of mixed suits
        if d.boolean():
            rank = d.integer(1, 13)
            return (d.permutation([CARDS[(s, rank)] for s in d.subset(list(Suit), 3, 4)]),)
        faces = d.subset([10, 11, 12, 13], 3, 4)
        return (d.permutation([CARDS[(d.choice(list(Suit)), r)] for r in sorted(faces)]),)
    return (dense_cards(d, 0, 5),)


#: The fixed hidden hands of all_melds and best_melds, by class: no card, one, two; no
#: meld; every card in melds (gin) and the ace low (A23 yes, QKA no); a run and a set
#: sharing a card (either may take it); a four-card set whose cards can feed runs; a
#: long run cut in two, or giving its end to a set; two sets and a run competing for
#: three cards; runs and sets listed high to low or shuffled; a whole suit (13 cards);
#: ties between arrangements of equal deadwood; many overlapping melds (aces to sevens);
#: nines, tens and faces, where a face's value decides between a set and a run.
MELD_CORNERS: tuple[Args, ...] = _hands(
    "", "KS", "7H 7S", "2C 9D KH", "QH KH AH", "KH AH 2H 3H", "AH 2H 3H", "7H 8H 9H 9S 9D",
    "9D 9S 9H 8H 7H", "5H 6H 7H 7C 7D", "7D 7C 7H 6H 5H", "3H 4H 5H 5C 5D 5S",
    "5C 5D 5H 5S 4S 6S", "5C 5D 5H 5S 4S 6S 4H 6H", "9C 9D 9H 9S 8S TS",
    "2S 3S 4S 5S 6S 7S", "7S 6S 5S 4S 3S 2S", "4H 5H 6H 7H 7C 7D", "AC AD AH 2C 3C 2D 3D",
    "2C 3C 4C 2D 3D 4D 2H 3H 4H", "TC TD TH JH QH", "QH JH TH TD TC", "AH 2H 3H 3S 3D",
    "8C 8D 8H 8S 9C TC 9D TD", "2H 3H 4H 7S 7D 7C KD", "KD 7C 7D 7S 4H 3H 2H",
    "AS 2S 3S 4S", "5C 5D 5H 5S", "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
    "AD 2D 3D AC 2C 3C AH 2H 3H AS 2S 3S", "6C 6D 6H 7C 7D 7H 8C 8D 8H 5C 9C",
    "2C 2D 2H 2S 3C 3D 3H 3S 4C 4D 4H 4S KD", "JS QS KS AS 2S 3S",
    # Nines, tens and faces meld either way: a face counted as 9 or 11 picks wrongly.
    "9C 9D 9H TC JC", "9C 9D 9H TC TD JC JD JH",
)


def _set_reason(cards: list[Card]) -> str:
    """Why the cards are, or are not, a set, naming them."""
    shown = fmt(sorted(cards))
    ranks = sorted({c.rank for c in cards})
    if len(ranks) > 1:
        a, b = (next(c for c in sorted(cards) if c.rank == r) for r in ranks[:2])
        if a.value == b.value:
            return _("{cards} is not a set: {a} and {b} have the same value but not the same "
                     "rank").format(cards=shown, a=a, b=b)
        return _("{cards} is not a set: {a} and {b} are not of the same rank").format(
            cards=shown, a=a, b=b)
    if not 3 <= len(cards) <= 4:
        return _("{cards} is not a set: a set has 3 or 4 cards").format(cards=shown or "[]")
    return ngettext("{cards} is a set: {n} card of the same rank",
                    "{cards} is a set: {n} cards of the same rank", len(cards)).format(
                        cards=shown, n=len(cards))


def _run_reason(cards: list[Card]) -> str:
    """Why the cards are, or are not, a run, naming them."""
    shown = fmt(sorted(cards, key=lambda c: (c.suit, c.rank)))
    if len(cards) < 3:
        return _("{cards} is not a run: a run has at least 3 cards").format(cards=shown or "[]")
    suits = sorted({c.suit for c in cards})
    if len(suits) > 1:
        a, b = (next(c for c in cards if c.suit == s) for s in suits[:2])
        return _("{cards} is not a run: {a} and {b} are not of the same suit").format(
            cards=shown, a=a, b=b)
    ranks = sorted(c.rank for c in cards)
    if engine_is_run(cards):
        return ngettext("{cards} is a run: {n} card of one suit in a row",
                        "{cards} is a run: {n} cards of one suit in a row", len(cards)).format(
                            cards=shown, n=len(cards))
    if 1 in ranks and 13 in ranks:
        return _("{cards} is not a run: the ace is always low (A 2 3), it never follows the "
                 "king").format(cards=shown)
    return _("{cards} is not a run: the ranks must follow one another, with no gap and no "
             "rank twice").format(cards=shown)


def _judge_is_set(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_bool(expected, got)
    return why if why is None or not _is_bool(got) else _set_reason(list(args[0]))


def _judge_is_run(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_bool(expected, got)
    return why if why is None or not _is_bool(got) else _run_reason(list(args[0]))


def _melds_in(value: Any) -> list[list[Card]] | None:
    if not isinstance(value, list | tuple | set | frozenset):
        return None
    out = []
    for item in value:
        cards = cards_in(item)
        if cards is None:
            return None
        out.append(cards)
    return out


def _all_melds_reference(cards: list[Card]) -> list[list[Card]]:
    return [list(m.cards) for m in engine_all_melds(cards)]


def _judge_all_melds(args: Args, expected: Any, got: Any) -> str | None:
    melds = _melds_in(got)
    if melds is None:
        return _("return a list of melds, each a list of cards")
    want = {frozenset(m) for m in expected}
    have = [frozenset(m) for m in melds]
    if len(set(have)) != len(have):
        twice = next(m for m in have if have.count(m) > 1)
        return _("the meld {meld} is listed twice").format(meld=fmt(sorted(twice)))
    extra = [m for m in have if m not in want]
    if extra:
        return _("{meld} is not a meld of these cards").format(meld=fmt(sorted(extra[0])))
    missing = [m for m in want if m not in set(have)]
    if missing:
        return _("the meld {meld} is missing").format(meld=fmt(sorted(missing[0])))
    return None


def _returned_arrangement(value: Any) -> tuple[list[list[Card]], list[Card]] | None:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    melds, dead = _melds_in(value[0]), cards_in(value[1])
    return None if melds is None or dead is None else (melds, dead)


def _best_arrangement(args: Args) -> tuple[list[list[Card]], list[Card]]:
    a = engine_best_melds(args[0])
    return [list(m.cards) for m in a.melds], list(a.deadwood)


def _show_arrangement(args: Args, expected: Any) -> str:
    return _("deadwood {value}, for example: {arrangement}").format(
        value=expected, arrangement=arrangement_text(*_best_arrangement(args)))


def _judge_best_melds(args: Args, expected: Any, got: Any) -> str | None:
    if not isinstance(got, list | tuple) or len(got) != 2:
        return _("return a pair: (a list of melds, a list of deadwood cards)")
    melds, dead = _melds_in(got[0]), cards_in(got[1])
    if melds is None or dead is None:
        return _("return a pair: (a list of melds, a list of deadwood cards)")
    hand = set(args[0])
    used: list[Card] = [c for m in melds for c in m]
    for m in melds:
        if len(set(m)) != len(m) or not (
                engine_is_set(m) if len({c.rank for c in m}) == 1 else engine_is_run(m)):
            return _("{meld} is not a meld").format(meld=fmt(m))
    strangers = [c for c in used + dead if c not in hand]
    if strangers:
        return _("{card} is not in the hand").format(card=strangers[0])
    if len(set(used)) != len(used):
        twice = next(c for c in used if used.count(c) > 1)
        return _("{card} is in two melds: a card belongs to at most one meld").format(
            card=twice)
    if set(dead) != hand - set(used) or len(dead) != len(set(dead)):
        return _("the deadwood must be exactly the cards that are in no meld")
    value = sum(c.value for c in dead)
    if value != expected:
        return _("your arrangement leaves deadwood {got}; the least possible is {least}"
                 ).format(got=value, least=expected)
    return None


KATAS: tuple[Kata, ...] = (
    Kata(
        name="is_set", notebook=2, points=1, params=("cards",),
        summary=lambda: _("Whether the cards are a set: 3 or 4 cards of one rank."),
        hint=lambda: _("A set has 3 or 4 cards, all of the same rank; suits do not matter."),
        public=tuple((_c(t),) for t in ("7H 7S 7D", "7H 7S", "QC QD QH QS", "7H 7S 8D",
                                        "2C 3C 4C")),
        generate=_gen_set, corners=SET_CORNERS, reference=lambda cards: engine_is_set(cards),
        judge=_judge_is_set, size=_n_cards,
        shrink=lambda args: _shrink_cards(args),
    ),
    Kata(
        name="is_run", notebook=2, points=2, params=("cards",),
        summary=lambda: _("Whether the cards are a run: 3 or more of one suit in a row."),
        hint=lambda: _("A run has 3 or more cards of one suit with consecutive ranks. The "
                       "ace is low only: Q-K-A and K-A-2 are not runs. The cards may come "
                       "in any order."),
        public=tuple((_c(t),) for t in ("AH 2H 3H", "9S 7S 8S", "QH KH AH", "5D 6D",
                                        "5D 6D 7C", "4C 5C 7C", "TC JC QC KC")),
        generate=_gen_run, corners=RUN_CORNERS, reference=lambda cards: engine_is_run(cards),
        judge=_judge_is_run, size=_n_cards,
        shrink=lambda args: _shrink_cards(args),
    ),
    Kata(
        name="all_melds", notebook=2, points=3, params=("cards",),
        summary=lambda: _("Every set and run that can be made from the cards."),
        hint=lambda: _("Melds may share cards here. A 4-card set holds four 3-card sets "
                       "too, and a run of 5 holds runs of 3 and 4 inside it."),
        public=tuple((_c(t),) for t in ("7H 8H 9H 9S 9D", "5C 5D 5H 5S", "AS 2S 3S 4S",
                                        "2C 9D KH")),
        generate=lambda d: (_gen_meld_hand(d, 8),),
        corners=tuple(c for c in MELD_CORNERS if len(c[0]) <= 9),
        reference=_all_melds_reference,
        judge=_judge_all_melds, size=_n_cards, shrink=lambda args: _shrink_cards(args),
        show_expected=lambda args, e: fmt(e) if e else "[]",
    ),
    Kata(
        name="best_melds", notebook=2, points=4, params=("cards",),
        summary=lambda: _("An arrangement of the cards into melds with the least deadwood."),
        hint=lambda: _("Try the alternatives: a card in a run could be in a set instead. "
                       "Deadwood counts card values, and each card is in one meld at most."),
        public=tuple((_c(t),) for t in ("2H 3H 4H 7S 7D 7C KD", "5H 6H 7H 7C 7D",
                                        "AH 2H 3H 3S 3D", "TC TD TH JH QH",
                                        "9C 9D 9H 9S 8S TS")),
        generate=lambda d: (_gen_meld_hand(d, 13),), corners=MELD_CORNERS,
        reference=lambda cards: engine_best_melds(cards).deadwood_value,
        judge=_judge_best_melds, size=_n_cards, shrink=lambda args: _shrink_cards(args),
        show_expected=_show_arrangement, arrangement=_returned_arrangement,
        expected_arrangement=_best_arrangement,
    ),
)
