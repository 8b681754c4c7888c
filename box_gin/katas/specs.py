"""The sixteen katas, in the order of the five exercise notebooks.

Each kata's answer is computed by the engine (or, for the three-player game's plain
rules, by the short reference functions here); the learner's answer is judged against it.
Where several answers are right (an arrangement of least deadwood, the order of a list
of melds), the judge accepts every right one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..cards import CARDS, Card, Suit, full_deck, mask_of
from ..i18n import _, ngettext
from ..layoffs import lay_off as engine_lay_off
from ..melds import Meld, min_deadwood_mask
from ..melds import all_melds as engine_all_melds
from ..melds import best_melds as engine_best_melds
from ..melds import is_run as engine_is_run
from ..melds import is_set as engine_is_set
from ..rules import DRAW_AT_STOCK
from ..scoring import score_hand as engine_score_hand
from .core import Args, Kata, arrangement_text, cards_of, fmt
from .draw import Draw, any_cards, dense_cards

ROLES = ("box", "captain", "sitter")
NAMES = (("Ada", "Ben", "Cy"), ("Noor", "Ivan", "Zsofi"), ("Ana", "Bo", "Chen"))


# -- helpers ----------------------------------------------------------------------


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
    rest = [c for c in full_deck() if c not in cards]
    cards += d.subset(rest, max(0, min(lo, target) - len(cards)), max(0, target - len(cards)))
    return d.permutation(cards)


# -- notebook 1: cards and dealing -------------------------------------------------


def _judge_card_value(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_int(expected, got)
    if why is None or not _is_int(got):
        return why
    return _("{card} is worth {value} in deadwood").format(card=args[0], value=expected)


RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_WORDS = ("C", "D", "H", "S")
BAD_TEXTS = ("1H", "11S", "7X", "", "7", "HH", "7HH", "0C", "AHS", "   ", "K", "10",
             "Z♥", "1 0H", "7 H", "J", "QQ", "100S")


def _parse_reference(text: str) -> Card:
    return Card.parse(text)


def _gen_parse(d: Draw) -> Args:
    if d.integer(0, 3) == 0:
        return (d.choice(BAD_TEXTS),)
    rank = d.integer(1, 13)
    rank_text = d.choice(("10", "T", "t")) if rank == 10 else RANK_WORDS[rank - 1]
    if d.boolean():
        rank_text = rank_text.lower()
    suit = d.choice(list(Suit))
    suit_text = d.choice((SUIT_WORDS[suit], SUIT_WORDS[suit].lower(), "♣♦♥♠"[suit]))
    pad = d.choice(("", "", " ", "  "))
    return (pad + rank_text + suit_text + d.choice(("", "", " ")),)


def _judge_parse(args: Args, expected: Any, got: Any) -> str | None:
    if not isinstance(got, Card):
        return _("return a Card, such as Card(7, Suit.HEARTS), not {value}").format(
            value=fmt(got))
    if got != expected:
        return _("{text!r} names the card {card}").format(text=args[0], card=expected)
    return None


def _deal_reference(deck: list[Card]) -> dict[str, Any]:
    return {"captain": list(deck[0:20:2]), "box": list(deck[1:20:2]), "upcard": deck[20],
            "stock": list(deck[21:])}


def _judge_deal(args: Args, expected: Any, got: Any) -> str | None:
    if not isinstance(got, dict):
        return _("return a dict with the keys 'captain', 'box', 'upcard' and 'stock'")
    missing = [k for k in ("captain", "box", "upcard", "stock") if k not in got]
    if missing:
        return _("the dict has no {keys}").format(keys=", ".join(repr(k) for k in missing))
    for role in ("captain", "box"):
        cards = cards_in(got[role])
        if cards is None or len(cards) != 10 or set(cards) != set(expected[role]):
            # TRANSLATORS: {role} is the dictionary key, 'captain' or 'box', kept in English.
            return _("{role!r} should hold the 10 cards at deck positions {positions}").format(
                role=role, positions="0, 2, ..., 18" if role == "captain" else "1, 3, ..., 19")
    if got["upcard"] != expected["upcard"]:
        return _("the upcard is the card at position 20 (a Card, not a list)")
    stock = got["stock"]
    if not isinstance(stock, list | tuple) or list(stock) != expected["stock"]:
        return _("the stock is positions 21 to 51, in that order, the top card (21) first")
    return None


def _gen_cut(d: Draw) -> Args:
    names = list(d.choice(NAMES))
    cuts: dict[str, list[Card]] = {n: [] for n in d.permutation(names)}

    def place(group: list[str], depth: int) -> None:
        while True:
            if depth > 2:
                pool = [CARDS[(d.choice(list(Suit)), r)] for r in range(1, 14)]
            else:
                ranks = d.subset(range(1, 14), 1, 3)
                pool = [CARDS[(s, r)] for r in sorted(ranks) for s in Suit]
            cards = d.subset(pool, len(group), len(group))
            for name, card in zip(group, cards, strict=True):
                cuts[name].append(card)
            depth += 1
            if len({c.rank for c in cards}) > 1:
                break
        for rank in sorted({c.rank for c in cards}, reverse=True):
            tied = [n for n, c in zip(group, cards, strict=True) if c.rank == rank]
            if len(tied) > 1:
                place(tied, depth)

    place(list(cuts), 0)
    return (cuts,)


def _shrink_cut(args: Args) -> Iterator[Args]:
    """The same cut with plainer suits (ranks, which decide, stay): no card twice in a
    round, since each round is cut from a fresh deck."""
    cuts = args[0]
    for name, cards in cuts.items():
        for j, c in enumerate(cards):
            in_round = {other[j] for n, other in cuts.items() if n != name and len(other) > j}
            for suit in range(c.suit):
                p = CARDS[(Suit(suit), c.rank)]
                if p not in in_round:
                    yield ({**cuts, name: [*cards[:j], p, *cards[j + 1:]]},)
                    break


def _cut_reference(cuts: dict[str, list[Card]]) -> dict[str, str]:
    order = sorted(cuts, key=lambda name: [c.rank for c in cuts[name]], reverse=True)
    return dict(zip(ROLES, order, strict=True))


def _judge_roles(args: Args, expected: Any, got: Any) -> str | None:
    if not isinstance(got, dict) or set(got) != set(ROLES):
        return _("return a dict with the keys 'box', 'captain' and 'sitter'")
    wrong = [r for r in ROLES if got[r] != expected[r]]
    if not wrong:
        return None
    role = wrong[0]
    name, other = expected[role], got[role]
    cuts = args[0] if args and isinstance(args[0], dict) else {}
    if name in cuts and other in cuts:
        mine, theirs = cuts[name], cuts[other]
        n = next((j for j, (a, b) in enumerate(zip(mine, theirs, strict=False))
                  if a.rank != b.rank), None)
        if n == 0:
            # TRANSLATORS: {role} is a dictionary key ('box', 'captain', 'sitter'), in English.
            return _("round 1 decides between {name} ({card}) and {other} ({other_card}): "
                     "{role!r} should be {name!r}").format(
                         name=name, card=mine[0], other=other, other_card=theirs[0],
                         role=role)
        if n is not None:
            return _("{name} and {other} tie until round {n} (suits never break a tie), "
                     "which decides: {card} against {other_card}, so {role!r} should be "
                     "{name!r}").format(name=name, other=other, n=n + 1, card=mine[n],
                                        other_card=theirs[n], role=role)
    return _("{role!r} should be {name!r}").format(role=role, name=name)


# -- notebook 2: melds ---------------------------------------------------------------


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
        rest = [c for c in full_deck() if c not in cards]
        cards += d.subset(rest, 0, max(0, min(3, hi - len(cards))))
        return d.permutation(cards[:hi])
    if mode == 1:  # aces to sevens: many melds overlap
        pool = [CARDS[(s, r)] for r in range(1, 8) for s in Suit]
        return d.subset(pool, 0, hi)
    if mode == 2:  # around the king and the ace
        pool = [CARDS[(s, r)] for r in (11, 12, 13, 1, 2) for s in d.subset(list(Suit), 1, 2)]
        return d.subset(pool, 0, min(hi, 7))
    return dense_cards(d, 0, hi)


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


def _cut_rounds(args: Args) -> str:
    """The cut read as rounds: who cut what, each re-cut from a fresh deck."""
    cuts = args[0]
    rounds = []
    for j in range(max((len(v) for v in cuts.values()), default=0)):
        who = ", ".join(f"{name} {cards[j]!r}" for name, cards in cuts.items() if len(cards) > j)
        rounds.append((_("round {n}: {cuts}") if j == 0 else _(
            "round {n}, from a fresh deck: {cuts}")).format(n=j + 1, cuts=who))
    return "; ".join(rounds)


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


# -- notebook 3: knocking -----------------------------------------------------------


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
    rest = [c for c in full_deck() if c not in cards]
    return (cards + d.subset(rest, max(0, 2 - len(cards)), max(0, 2 - len(cards))),)


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


def _gen_gin(d: Draw) -> Args:
    mode = d.integer(0, 4)
    cards = (any_cards(d, 2, 11) if mode == 0 else _gen_meld_hand(d, 11) if mode == 1
             else meldy_cards(d, 2, 11))
    if len(cards) < 2:
        cards += d.subset([c for c in full_deck() if c not in cards], 2 - len(cards),
                          2 - len(cards))
    return (cards,)


# -- notebook 4: scoring --------------------------------------------------------------


def _gen_lay_off(d: Draw) -> Args:
    # Corners, each its own mode: chains at both ends of a run (3H 4H on 5H 6H 7H, then
    # 8H 9H); the fourth card of a set of three; a card that fits a knocker meld and also
    # sits in the defender's own best meld (keep it or lay it off?); a knocker set and
    # run meeting at one rank (8S fits 8C 8D 8H and 5S 6S 7S); the defender's four-card
    # set that gives up a card to a knocker run and stays a set; gin (no layoffs).  The
    # caller's meld lists must come back unchanged.
    mode = d.integer(0, 6)
    if mode == 6:
        return _gen_lay_off_mixed(d)
    suit = d.choice(list(Suit))
    if mode == 0:  # a run, and cards chaining off both its ends (no ace after the king)
        low = d.choice((1, 11, d.integer(1, 11)))
        run = [CARDS[(suit, r)] for r in range(low, low + 3)]
        ends = [CARDS[(suit, r)] for r in (low - 2, low - 1, low + 3, low + 4) if 1 <= r <= 13]
        ends += [CARDS[(suit, 1)]] if low == 11 else [CARDS[(suit, 13)]] if low == 1 else []
        mine = d.subset(ends, 1, len(ends))
        knocker = [run]
    elif mode == 1:  # a set of three, its fourth card
        rank = d.integer(1, 13)
        suits = d.subset(list(Suit), 3, 3)
        knocker = [[CARDS[(s, rank)] for s in sorted(suits)]]
        fourth = CARDS[(next(s for s in Suit if s not in suits), rank)]
        mine = [fourth]
    elif mode == 2:  # a card that fits the knocker's meld and the defender's own
        rank = d.integer(3, 11)
        if d.boolean():  # the knocker's set of three; the defender's run through its fourth
            suits = d.subset(list(Suit), 3, 3)
            free = next(s for s in Suit if s not in suits)
            knocker = [[CARDS[(s, rank)] for s in sorted(suits)]]
            start = rank - d.integer(0, 2)
            mine = [CARDS[(free, r)] for r in range(start, start + d.integer(3, 4))
                    if 1 <= r <= 13]
        else:  # the knocker's run; the defender's set holding the card after it
            rank += 2
            knocker = [[CARDS[(suit, r)] for r in range(rank - 3, rank)]]
            mine = [CARDS[(s, rank)] for s in d.subset([s for s in Suit if s != suit], 2, 3)]
            mine.append(CARDS[(suit, rank)])
    elif mode == 3:  # a set and a run meeting at one rank
        rank = d.integer(4, 12)
        others = [s for s in Suit if s != suit]
        knocker = [[CARDS[(s, rank)] for s in others],
                   [CARDS[(suit, r)] for r in range(rank - 3, rank)]]
        mine = [CARDS[(suit, rank)]] + ([CARDS[(suit, rank + 1)]] if d.boolean() else [])
    elif mode == 4:  # the defender's four-card set; one of them extends the knocker's run
        rank = d.integer(4, 12)
        knocker = [[CARDS[(suit, r)] for r in range(rank - 3, rank)]]
        mine = [CARDS[(s, rank)] for s in Suit]
        if d.boolean() and rank < 13:
            mine.append(CARDS[(suit, rank + 1)])
    else:
        return _gen_lay_off_mixed(d)
    used = {c for m in knocker for c in m}
    mine = [c for c in dict.fromkeys(mine) if c not in used]
    rest = [c for c in dense_cards(d, 0, 5) if c not in used and c not in mine]
    mine = (mine + rest)[:10]
    gin = d.integer(0, 6) == 0
    return (knocker, d.permutation(mine), gin)


def _gen_lay_off_mixed(d: Draw) -> Args:
    knocker: list[list[Card]] = []
    used: set[Card] = set()
    for _attempt in range(d.integer(1, 3)):
        if d.boolean():
            rank = d.integer(1, 13)
            meld = [CARDS[(s, rank)] for s in sorted(d.subset(list(Suit), 3, 4))]
        else:
            suit = d.choice(list(Suit))
            length = d.integer(3, 5)
            low = d.integer(1, 14 - length)
            meld = [CARDS[(suit, r)] for r in range(low, low + length)]
        if not used & set(meld):
            knocker.append(meld)
            used |= set(meld)
    near: list[Card] = []
    for meld in knocker:
        for c in Meld(meld).extensions():
            near.append(c)
            if meld[0].suit == meld[-1].suit and meld[0].rank != meld[-1].rank:
                step = 1 if c.rank > meld[-1].rank else -1
                if 1 <= c.rank + step <= 13:
                    near.append(CARDS[(c.suit, c.rank + step)])
    near = [c for c in dict.fromkeys(near) if c not in used]
    rest = [c for c in full_deck() if c not in used and c not in near]
    mine = d.subset(near, 0, 4)
    mine += [c for c in dense_cards(d, 0, 7) if c not in used and c not in mine]
    if not mine:
        mine = d.subset(rest, 1, 2)
    gin = d.integer(0, 4) == 0
    return (knocker, d.permutation(mine[:10]), gin)


def _lay_off_reference(knocker_melds: list[list[Card]], cards: list[Card],
                       gin: bool = False) -> int:
    return engine_lay_off([Meld(m) for m in knocker_melds], cards, gin).deadwood_value


def _judge_lay_off(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_int(expected, got)
    if why is None or not _is_int(got):
        return why
    knocker, cards, gin = args
    best = engine_lay_off([Meld(m) for m in knocker], cards, gin)
    if gin:
        if got < expected:
            return _("after gin nothing may be laid off: the defender only melds, and its "
                     "least deadwood is {least}").format(least=expected)
        return _("your answer leaves deadwood {got}; the defender's best melds leave "
                 "{least}").format(got=got, least=expected)
    # A card the answer kept as deadwood: all the layoffs were missed, or exactly one
    # card's worth of them (the extra deadwood is that card's value).
    missed = [lo for lo in best.layoffs if lo.card.value == got - expected]
    if got > expected and best.layoffs and got == engine_best_melds(cards).deadwood_value:
        missed = [best.layoffs[0]]
    if got > expected and missed:
        lo = missed[-1]
        ranks = sorted(c.rank for c in lo.onto.cards)
        if lo.onto.is_set:
            return _("{card} can be laid off on the set {meld}, but your answer kept it as "
                     "deadwood").format(card=lo.card, meld=lo.onto)
        if lo.card.rank < ranks[0]:
            return _("{card} can be laid off below {meld}, but your answer kept it as "
                     "deadwood").format(card=lo.card, meld=lo.onto)
        return _("{card} can be laid off above {meld}, but your answer kept it as "
                 "deadwood").format(card=lo.card, meld=lo.onto)
    shown = " ".join(f"[{m}]" for m in best.melds) or "-"
    offs = ", ".join(f"{lo.card} \u2192 [{lo.onto}]" for lo in best.layoffs) or "-"
    return _("your answer leaves deadwood {got}; the least is {least}: melds {melds}, "
             "layoffs {layoffs}, deadwood {deadwood}").format(
                 got=got, least=expected, melds=shown, layoffs=offs,
                 deadwood=fmt(list(best.deadwood)) if best.deadwood else "-")


def _shrink_lay_off(args: Args) -> Iterator[Args]:
    melds, cards, gin = args
    yield from _shrink_cards(args, position=1)
    if len(melds) > 1:
        for i in range(len(melds)):
            yield (melds[:i] + melds[i + 1:], cards, gin)
    for i, meld in enumerate(melds):  # a shorter knocker meld: a set's fourth card, a run's end
        if len(meld) > 3:
            ends = (0, len(meld) - 1) if len({c.rank for c in meld}) > 1 else range(len(meld))
            for j in ends:
                yield ([*melds[:i], _without(meld, j), *melds[i + 1:]], cards, gin)


def _gen_score(d: Draw) -> Args:
    gin = d.integer(0, 3) == 0
    k = 0 if gin else d.integer(0, 10)
    dd = max(0, k + d.integer(-4, 4)) if d.boolean() else d.integer(0, 60)
    return (k, dd, gin)


def _score_reference(knocker_deadwood: int, defender_deadwood: int,
                     gin: bool) -> tuple[str, int]:
    s = engine_score_hand(knocker_deadwood, defender_deadwood, gin)
    return (s.winner.value, s.points)


def _judge_score(args: Args, expected: Any, got: Any) -> str | None:
    if not isinstance(got, list | tuple) or len(got) != 2 or not _is_int(got[1]):
        return _("return a pair: ('knocker' or 'defender', points)")
    if tuple(got) != expected:
        k, d, gin = args
        if gin:
            rule = _("gin scores 25 + D = {points} for the knocker").format(points=expected[1])
        elif k < d:
            rule = _("K < D: the knocker scores D - K = {points}").format(points=expected[1])
        else:
            rule = _("K >= D is an undercut: the defender scores 10 + K - D = {points}"
                     ).format(points=expected[1])
        return _("K = {k}, D = {d}: {rule}").format(k=k, d=d, rule=rule)
    return None


def _shrink_score(args: Args) -> Iterator[Args]:
    k, dd, gin = args
    if k > 0 and dd > 0:
        yield (k - 1, dd - 1, gin)
    for smaller in (0, dd // 2, dd - 1):
        if 0 <= smaller < dd:
            yield (k, smaller, gin)
    if not gin:
        for smaller in (0, k // 2, k - 1):
            if 0 <= smaller < k:
                yield (smaller, dd, gin)


# -- notebook 5: the three-player game -----------------------------------------------


def _gen_roles(d: Draw) -> Args:
    # Corners: the dict's keys in every order (code that unpacks ``roles.values()``
    # must meet an order other than box, captain, sitter); every scorer, None included.
    names = d.permutation(d.choice(NAMES))
    scorer = d.choice(("box", "captain", None))
    roles = dict(zip(ROLES, names, strict=True))
    return ({r: roles[r] for r in d.permutation(ROLES)}, scorer)


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
    if expected is None:
        return _("nobody reaches {target} points in these hands").format(target=args[1])
    return _("the first to reach {target} points is {name}").format(
        name=expected, target=args[1])


def _judge_equal(args: Args, expected: Any, got: Any) -> str | None:
    if got != expected or type(got) is not type(expected):
        return _("the answer is {expected}").format(expected=fmt(expected))
    return None


def _shrink_game(args: Args) -> Iterator[Args]:
    hands, target = args
    for i in range(len(hands)):
        rest = hands[:i] + hands[i + 1:]
        if _game_winner_reference(rest, target) is None or i == len(hands) - 1:
            yield (rest, target)


def _c(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split()]


def _n_cards(args: Args) -> int:
    return len(args[0])


KATAS: tuple[Kata, ...] = (
    Kata(
        name="card_value", notebook=1, points=1, params=("card",),
        summary=lambda: _("A card's deadwood value."),
        hint=lambda: _("An ace is worth 1, two to ten their number, jack, queen and king 10 "
                       "each. card.rank runs from 1 (ace) to 13 (king)."),
        public=tuple((c,) for c in _c("AH 7D TS JC QH KS 2C")),
        generate=lambda d: (d.choice(full_deck()),),
        reference=lambda card: card.value,
        judge=_judge_card_value, size=lambda args: 1,
        shrink=_shrink_one_card,
        hide=(("Card", "value"), ("cards", "card_value")),
    ),
    Kata(
        name="parse_card", notebook=1, points=2, params=("text",),
        summary=lambda: _("The card named by a text such as '7H' or '10s'."),
        hint=lambda: _("The suit is the last character, the rank all that comes before it; "
                       "ignore spaces around the text and the case of the letters; a ten is "
                       "'10' or 'T'. Anything else raises ValueError."),
        public=(("7H",), ("10s",), ("TD",), ("ac",), (" KS ",), ("Q♦",), ("1H",), ("7X",),
                ("",)),
        generate=_gen_parse, reference=_parse_reference, judge=_judge_parse,
        size=lambda args: len(args[0]),
        hide=(("Card", "parse"), ("cards", "parse_cards"), ("cards", "to_cards"),
              ("cards", "_RANK_OF"), ("cards", "_SUIT_OF"), ("cards", "_CARD_RE")),
    ),
    Kata(
        name="deal", notebook=1, points=2, params=("deck",),
        summary=lambda: _("Deal a hand from a deck in a given order."),
        hint=lambda: _("Deal one card at a time, alternately, the captain first: positions "
                       "0, 2, ... 18 to the captain, 1, 3, ... 19 to the box; 20 is the "
                       "upcard; 21 to 51 are the stock, 21 on top."),
        public=((list(full_deck()),), (list(reversed(full_deck())),)),
        generate=lambda d: (d.permutation(full_deck()),),
        reference=_deal_reference, judge=_judge_deal, size=lambda args: 52,
        show_expected=lambda args, e: fmt(e),
    ),
    Kata(
        name="roles_from_cut", notebook=1, points=3, params=("cuts",),
        summary=lambda: _("The roles from the cut: highest box, then captain, then sitter."),
        hint=lambda: _("Suits never break a tie: tied players cut again, and only their "
                       "later cards decide between them. Compare each player's list of "
                       "ranks, first card first."),
        public=(({"Ada": _c("KH"), "Ben": _c("7S"), "Cy": _c("2D")},),
                ({"Ada": _c("9C"), "Ben": _c("QD 3S"), "Cy": _c("QH 8C")},),
                ({"Ada": _c("5C 2H"), "Ben": _c("5D JS"), "Cy": _c("5H 7C")},),
                ({"Ada": _c("AS AH 4D"), "Ben": _c("KC"), "Cy": _c("AD AC 9S")},)),
        generate=_gen_cut, reference=_cut_reference, judge=_judge_roles,
        size=lambda args: sum(len(v) for v in args[0].values()), shrink=_shrink_cut,
        describe=_cut_rounds,
    ),
    Kata(
        name="is_set", notebook=2, points=1, params=("cards",),
        summary=lambda: _("Whether the cards are a set: 3 or 4 cards of one rank."),
        hint=lambda: _("A set has 3 or 4 cards, all of the same rank; suits do not matter."),
        public=tuple((_c(t),) for t in ("7H 7S 7D", "7H 7S", "QC QD QH QS", "7H 7S 8D",
                                        "2C 3C 4C")),
        generate=_gen_set, reference=lambda cards: engine_is_set(cards),
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
        generate=_gen_run, reference=lambda cards: engine_is_run(cards),
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
        generate=lambda d: (_gen_meld_hand(d, 8),), reference=_all_melds_reference,
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
        generate=lambda d: (_gen_meld_hand(d, 13),),
        reference=lambda cards: engine_best_melds(cards).deadwood_value,
        judge=_judge_best_melds, size=_n_cards, shrink=lambda args: _shrink_cards(args),
        show_expected=_show_arrangement, arrangement=_returned_arrangement,
        expected_arrangement=_best_arrangement,
    ),
    Kata(
        name="can_knock", notebook=3, points=2, params=("cards", "limit"),
        summary=lambda: _("Whether some discard leaves deadwood within the knock limit."),
        hint=lambda: _("Try each discard; after it, the least deadwood of the cards left "
                       "must be at most the limit (a deadwood equal to the limit may knock)."),
        public=((_c("AH 2H 3H 4H 7S 7D 7C 9C 9D 9S KD"), 10),
                (_c("AH 2H 3H 5S 5D 5C 9C 9D JS QS KD"), 10),
                (_c("2C 3C 4C 7D 7H 7S 8H 8S JD QH KS"), 10),
                (_c("5H 6H 7H 7C 7D"), 10), (_c("5H 6H 7H 2C 9D"), 1)),
        generate=_gen_knock, reference=_can_knock_reference,
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
        generate=_gen_discards, reference=_best_discards_reference,
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
        generate=_gen_gin, reference=_is_gin_reference,
        judge=_judge_is_gin, size=_n_cards,
        shrink=lambda args: _shrink_cards(args, least=2),
    ),
    Kata(
        name="lay_off", notebook=4, points=4, params=("knocker_melds", "cards", "gin"),
        summary=lambda: _("The defender's least deadwood after laying off."),
        hint=lambda: _("Lay off a set's fourth card or cards at either end of a run, one "
                       "after another (after the 8 on 5-6-7, the 9). A card you lay off is in "
                       "none of your own melds. After gin nothing may be laid off."),
        public=(([_c("5H 6H 7H"), _c("KC KD KS")], _c("8H 9H KH 2C 2D 2S 4C"), False),
                ([_c("5H 6H 7H")], _c("8H 9H"), False), ([_c("5H 6H 7H")], _c("8H 9H"), True),
                ([_c("5H 6H 7H")], _c("8H 8C 8D"), False),
                ([_c("4C 4D 4H 4S")], _c("3C 5C 6C"), False)),
        generate=_gen_lay_off, reference=_lay_off_reference, judge=_judge_lay_off,
        size=lambda args: sum(map(len, args[0])) + len(args[1]),
        shrink=_shrink_lay_off,
    ),
    Kata(
        name="score_hand", notebook=4, points=2,
        params=("knocker_deadwood", "defender_deadwood", "gin"),
        summary=lambda: _("Who scores a knock, and how many points."),
        hint=lambda: _("Knock: the knocker scores D - K when K < D; otherwise (K >= D, ties "
                       "included) the defender undercuts and scores 10 + K - D. Gin scores "
                       "25 + D and is never undercut."),
        public=((4, 19, False), (8, 6, False), (5, 5, False), (0, 0, True), (0, 31, True),
                (0, 7, False)),
        generate=_gen_score, reference=_score_reference, judge=_judge_score,
        size=lambda args: args[0] + args[1], shrink=_shrink_score,
    ),
    Kata(
        name="next_roles", notebook=5, points=2, params=("roles", "scorer"),
        summary=lambda: _("The roles for the next hand."),
        hint=lambda: _("The box won: it stays, captain and sitter swap. The box lost: the "
                       "captain goes into the box, the sitter becomes captain, the box sits "
                       "out. A drawn hand (scorer None) changes nothing."),
        public=(({"box": "Ada", "captain": "Ben", "sitter": "Cy"}, "box"),
                ({"box": "Ada", "captain": "Ben", "sitter": "Cy"}, "captain"),
                ({"box": "Ada", "captain": "Ben", "sitter": "Cy"}, None)),
        generate=_gen_roles, reference=_next_roles_reference, judge=_judge_next_roles,
        size=lambda args: 0, shrink=_shrink_roles,
    ),
    Kata(
        name="is_drawn", notebook=5, points=1, params=("stock_size", "knocked"),
        summary=lambda: _("Whether the hand ends as a draw after a turn."),
        hint=lambda: _("After a discard without a knock, the hand is drawn when only 2 "
                       "cards are left in the stock. A knock always ends the hand with a "
                       "score."),
        public=((2, False), (3, False), (2, True), (31, False)),
        generate=_gen_drawn, reference=_is_drawn_reference,
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
        generate=_gen_game, reference=_game_winner_reference, judge=_judge_game_winner,
        size=lambda args: len(args[0]), shrink=_shrink_game,
    ),
)

BY_NAME: dict[str, Kata] = {k.name: k for k in KATAS}


def katas_of(notebook: int) -> tuple[Kata, ...]:
    """The katas of one exercise notebook, in order."""
    return tuple(k for k in KATAS if k.notebook == notebook)


NOTEBOOKS: dict[int, str] = {
    1: "01_cards_and_dealing", 2: "02_melds", 3: "03_knocking", 4: "04_scoring",
    5: "05_the_three_player_game",
}
