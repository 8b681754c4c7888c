"""The katas of notebook 1, cards and dealing: card_value, parse_card, deal,
roles_from_cut, each with its generator, reference and judge."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...cards import CARDS, Card, Suit, full_deck
from ...i18n import _
from ..core import Args, Kata, fmt
from ..draw import Draw
from .common import NAMES, ROLES, _c, _is_int, _shrink_one_card, _want_int, cards_in


def _judge_card_value(args: Args, expected: Any, got: Any) -> str | None:
    why = _want_int(expected, got)
    if why is None or not _is_int(got):
        return why
    return _("{card} is worth {value} in deadwood").format(card=args[0], value=expected)


RANK_WORDS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


SUIT_WORDS = ("C", "D", "H", "S")


BAD_TEXTS = ("1H", "11S", "7X", "", "7", "HH", "7HH", "0C", "AHS", "   ", "K", "10",
             "Z♥", "1 0H", "7 H", "J", "QQ", "100S")


#: The fixed hidden tests of parse_card, by class of text: every rank in each of its
#: forms (A 2-9, 10, T, either case) with each suit in each form (letter in either case,
#: symbol); spaces around (before, after, both, several); and rejected, as the text
#: says: a digit rank with anything more (010H, 07H, +7H, 1_0H, 10.H), ranks that are not
#: ranks (0, 1, 11, 14), a space inside, the rank or the suit missing, a suit that is
#: not one, a character too many, nothing at all.
PARSE_CORNERS: tuple[Args, ...] = (
    *((f"{rank}{'CDHS'[i % 4]}",) for i, rank in enumerate(RANK_WORDS)),
    *((f"{rank.lower()}{'cdhs'[i % 4]}",) for i, rank in enumerate(RANK_WORDS)),
    *((f"{rank}{'♣♦♥♠'[i % 4]}",) for i, rank in enumerate(RANK_WORDS)),
    ("TH",), ("tc",), ("10D",), ("10s",), ("Ts",), ("tS",), ("aS",), ("Kh",),
    (" 10h",), ("10h ",), ("  10S  ",), (" 7H",), ("7H ",), ("  qd",), (" A♠ ",),
    ("010H",), ("07H",), ("007S",), ("+7H",), ("+10H",), ("-7H",), ("1_0H",), ("10.H",),
    ("7.0H",), ("0H",), ("00S",), ("1H",), ("11S",), ("14C",), ("13D",), ("1 0H",),
    ("7 H",), ("10 S",), ("7",), ("10",), ("H",), ("♥",), ("",), ("   ",), ("7X",),
    ("7HH",), ("AHS",), ("KK",), ("10HS",), ("XH",), ("7H7",),
)


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


#: The fixed hidden decks of deal, besides the new deck and its reverse (public): ranks
#: together (AC AD AH AS 2C ...), suits together from the king down, and the halves of
#: a new deck interleaved; any other order comes from the generator.
DEAL_CORNERS: tuple[Args, ...] = (
    (sorted(full_deck(), key=lambda c: (c.rank, c.suit)),),
    (sorted(full_deck(), key=lambda c: (c.suit, -c.rank)),),
    ([c for pair in zip(full_deck()[:26], full_deck()[26:], strict=True) for c in pair],),
)


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


def _cuts(*rows: str, names: tuple[str, ...] = NAMES[0]) -> Args:
    return ({n: _c(r) for n, r in zip(names, rows, strict=True)},)


#: The fixed hidden cuts of roles_from_cut, by class: no tie, in every order of the
#: three ranks among the players (and the names in another order, and other names); a
#: tie for the top, for the bottom, of all three; a tie settled in the third round; a
#: three-way tie that leaves two tied; the tied player with the lower suit winning the
#: re-cut (suits never decide); an ace, which is low; a king against a queen in round
#: two after a tie of aces.
CUT_CORNERS: tuple[Args, ...] = (
    _cuts("KH", "7S", "2D"), _cuts("KH", "2D", "7S"), _cuts("7S", "KH", "2D"),
    _cuts("7S", "2D", "KH"), _cuts("2D", "KH", "7S"), _cuts("2D", "7S", "KH"),
    _cuts("2D", "7S", "KH", names=("Cy", "Ben", "Ada")),
    _cuts("9C", "TD", "JH", names=NAMES[1]), _cuts("QS", "3C", "8H", names=NAMES[2]),
    _cuts("AS", "KC", "2H"), _cuts("KS", "AC", "2H"),
    _cuts("QS 3C", "QD 8H", "5C"), _cuts("5C", "QD 8H", "QS 3C"),
    _cuts("9C", "4D 2S", "4H JC"), _cuts("4D JC", "9C", "4H 2S"),
    _cuts("5C 2H", "5D JS", "5H 7C"), _cuts("5S 9D 7C", "5D 9C 3H", "5H 9H KS"),
    _cuts("8C 6H 4S", "8D 6S 2C", "8H 6D QC"), _cuts("AS AH 4D", "KC", "AD AC 9S"),
    _cuts("7C KS", "7D 2C", "7S 5H"), _cuts("JC 2S", "JS 9C", "3D"),
    _cuts("3D", "JS 9C", "JC 2S"), _cuts("AC QD", "AD KC", "AH 2S"),
)


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


def _cut_rounds(args: Args) -> str:
    """The cut read as rounds: who cut what, each re-cut from a fresh deck."""
    cuts = args[0]
    rounds = []
    for j in range(max((len(v) for v in cuts.values()), default=0)):
        who = ", ".join(f"{name} {cards[j]!r}" for name, cards in cuts.items() if len(cards) > j)
        rounds.append((_("round {n}: {cuts}") if j == 0 else _(
            "round {n}, from a fresh deck: {cuts}")).format(n=j + 1, cuts=who))
    return "; ".join(rounds)


KATAS: tuple[Kata, ...] = (
    Kata(
        name="card_value", notebook=1, points=1, params=("card",),
        summary=lambda: _("A card's deadwood value."),
        hint=lambda: _("An ace is worth 1, two to ten their number, jack, queen and king 10 "
                       "each. card.rank runs from 1 (ace) to 13 (king)."),
        public=tuple((c,) for c in _c("AH 7D TS JC QH KS 2C")),
        generate=lambda d: (d.choice(full_deck()),),
        # Every rank, the suits in turn (not every card: a table of the fixed answers
        # must still miss some, for the fresh cases to find).
        corners=tuple((CARDS[(Suit(r % 4), r)],) for r in range(1, 14)),
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
        generate=_gen_parse, corners=PARSE_CORNERS, reference=_parse_reference,
        judge=_judge_parse,
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
        generate=lambda d: (d.permutation(full_deck()),), corners=DEAL_CORNERS,
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
        generate=_gen_cut, corners=CUT_CORNERS, reference=_cut_reference,
        judge=_judge_roles,
        size=lambda args: sum(len(v) for v in args[0].values()), shrink=_shrink_cut,
        describe=_cut_rounds,
    ),
)
