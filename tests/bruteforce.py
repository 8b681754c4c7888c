"""Independent reference solvers for the tests, written straight from docs/rules.md.

Nothing here uses ``box_gin.melds``, ``box_gin.knocking`` or ``box_gin.layoffs``: a card
is only read for its ``rank`` (1 = ace .. 13 = king) and ``suit`` (0..3).  The solvers
are deliberately plain and slow: list every valid meld, then try every collection of
disjoint melds by recursion; for layoffs, try every sequence of single-card layoffs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import combinations, pairwise

from box_gin.cards import Card, full_deck, parse_cards
from box_gin.hand import Hand, Role
from box_gin.match import Match

Key = tuple[int, int]  # (rank, suit)


def key(card: Card) -> Key:
    """A card as a plain (rank, suit) pair."""
    return (int(card.rank), int(card.suit))


def value(card: Card | Key) -> int:
    """docs/rules.md: ace 1, 2..10 their pips, J Q K 10."""
    rank = card[0] if isinstance(card, tuple) else card.rank
    return rank if rank <= 10 else 10


def is_valid_set(cards: Iterable[Card | Key]) -> bool:
    """3 or 4 different cards of the same rank."""
    ks = {c if isinstance(c, tuple) else key(c) for c in cards}
    return 3 <= len(ks) <= 4 and len({r for r, _s in ks}) == 1


def is_valid_run(cards: Iterable[Card | Key]) -> bool:
    """3 or more cards of one suit in consecutive rank, ace low (no wrapping)."""
    ks = {c if isinstance(c, tuple) else key(c) for c in cards}
    if len(ks) < 3 or len({s for _r, s in ks}) != 1:
        return False
    ranks = sorted(r for r, _s in ks)
    return all(b == a + 1 for a, b in pairwise(ranks))


def is_valid_meld(cards: Iterable[Card | Key]) -> bool:
    """A set or a run."""
    cs = list(cards)
    return is_valid_set(cs) or is_valid_run(cs)


def all_valid_melds(cards: Iterable[Card | Key]) -> list[frozenset[Key]]:
    """Every valid meld that can be made from these cards, by trying every subset of 3+
    cards of one rank or one suit (a plain generate-and-test)."""
    ks = sorted({c if isinstance(c, tuple) else key(c) for c in cards})
    out: list[frozenset[Key]] = []
    by_rank: dict[int, list[Key]] = {}
    by_suit: dict[int, list[Key]] = {}
    for k in ks:
        by_rank.setdefault(k[0], []).append(k)
        by_suit.setdefault(k[1], []).append(k)
    for group in by_rank.values():
        for n in (3, 4):
            for combo in combinations(group, n):
                out.append(frozenset(combo))
    for group in by_suit.values():
        for n in range(3, len(group) + 1):
            for combo in combinations(group, n):
                if is_valid_run(combo):
                    out.append(frozenset(combo))
    return out


def arrangements(cards: Iterable[Card | Key]) -> list[tuple[frozenset[Key], ...]]:
    """Every collection of pairwise disjoint valid melds (the empty one included)."""
    melds = all_valid_melds(cards)
    out: list[tuple[frozenset[Key], ...]] = []

    def grow(start: int, used: frozenset[Key], chosen: tuple[frozenset[Key], ...]) -> None:
        out.append(chosen)
        for i in range(start, len(melds)):
            if not (melds[i] & used):
                grow(i + 1, used | melds[i], (*chosen, melds[i]))

    grow(0, frozenset(), ())
    return out


def min_deadwood(cards: Iterable[Card | Key]) -> int:
    """The least deadwood value over every arrangement of the cards into melds."""
    ks = frozenset(c if isinstance(c, tuple) else key(c) for c in cards)
    return _min_deadwood(ks)


@lru_cache(maxsize=200_000)
def _min_deadwood(ks: frozenset[Key]) -> int:
    total = sum(value(k) for k in ks)
    return min(total - sum(value(k) for m in arr for k in m) for arr in arrangements(ks))


def best_arrangements(cards: Iterable[Card | Key]) -> list[tuple[frozenset[Key], ...]]:
    """Every arrangement reaching the least deadwood."""
    ks = frozenset(c if isinstance(c, tuple) else key(c) for c in cards)
    best = _min_deadwood(ks)
    total = sum(value(k) for k in ks)
    return [arr for arr in arrangements(ks)
            if total - sum(value(k) for m in arr for k in m) == best]


def deadwood_after_each_discard(cards: Sequence[Card]) -> dict[Key, int]:
    """For an 11-card hand: the least deadwood of the 10 cards left after each discard."""
    ks = [key(c) for c in cards]
    return {k: min_deadwood([o for o in ks if o != k]) for k in ks}


def can_lay_off(card: Key, meld: frozenset[Key]) -> bool:
    """Whether ``card`` added to ``meld`` still makes a valid meld of the same kind."""
    if card in meld:
        return False
    if is_valid_set(meld):
        return is_valid_set(meld | {card})
    return is_valid_run(meld | {card})


def min_deadwood_after_layoffs(knocker_melds: Iterable[Iterable[Card | Key]],
                               defender: Iterable[Card | Key]) -> int:
    """The defender's least deadwood: any sequence of single-card layoffs onto the
    knocker's (growing) melds, then the best arrangement of the cards still held."""
    start_melds = tuple(
        frozenset(c if isinstance(c, tuple) else key(c) for c in m) for m in knocker_melds)
    start_hand = frozenset(c if isinstance(c, tuple) else key(c) for c in defender)
    seen: dict[tuple[frozenset[Key], tuple[frozenset[Key], ...]], int] = {}

    def search(hand: frozenset[Key], melds: tuple[frozenset[Key], ...]) -> int:
        state = (hand, melds)
        if state in seen:
            return seen[state]
        best = _min_deadwood(hand)
        for card in hand:
            for i, meld in enumerate(melds):
                if can_lay_off(card, meld):
                    grown = (*melds[:i], meld | {card}, *melds[i + 1:])
                    best = min(best, search(hand - {card}, grown))
        seen[state] = best
        return best

    return search(start_hand, start_melds)


# ---------------------------------------------------------------------------------------
# State helpers for the hand tests (plain data, so a comparison sees every change).

def hand_state(hand: Hand) -> tuple[object, ...]:
    """A deep, immutable snapshot of everything a hand holds."""
    def by_role(piles: dict[Role, set[Card]]) -> tuple[object, ...]:
        return tuple(sorted((str(r), tuple(sorted(cs))) for r, cs in piles.items()))

    return (
        hand.rules, hand.deck, hand.seed, by_role(hand.hands), tuple(hand.stock),
        tuple(hand.discard_pile), hand.phase, hand.to_play, hand.taken_card,
        hand.must_draw_stock, by_role(hand.seen), tuple(hand.history), hand.result,
    )


_DECK = frozenset((r, s) for r in range(1, 14) for s in range(4))


def conservation_problem(hand: Hand) -> str | None:
    """Why the hand's cards are not exactly the 52 (box + captain + stock + discard
    pile), or ``None`` when they are."""
    piles = [hand.hands[Role.BOX], hand.hands[Role.CAPTAIN], hand.stock, hand.discard_pile]
    if sum(len(p) for p in piles) != 52:
        return f"{sum(len(p) for p in piles)} cards in play, not 52"
    if {(c.rank, int(c.suit)) for p in piles for c in p} != _DECK:
        return "a card is in two places, or missing"
    if set(hand.hands) != {Role.BOX, Role.CAPTAIN}:
        return "the sitter holds cards"
    return None


def match_state(match: Match) -> tuple[object, ...]:
    """A snapshot of everything a match holds, its random generator included."""
    return (
        match.players, match.rules, match.seed, match.roles, match.cuts,
        [(g.scores, g.hands_won, g.winner) for g in match.games],
        match.history, match.hand_seed, hand_state(match.hand), match._rng.getstate(),
        match.is_over, match.winner, match.to_play,
    )


# ---------------------------------------------------------------------------------------
# Stacking the deck (the ``deal`` fixture of conftest.py uses this).

#: The ``deal`` fixture: ``deal(captain, box, upcard, stock="", rules=STANDARD)``.
Dealer = Callable[..., Hand]


def stacked_deck(captain: str, box: str, upcard: str, stock: str = "") -> tuple[Card, ...]:
    """A 52-card deck in the order the engine deals it (docs/rules.md, "The deal"): the
    captain's 10 cards at positions 0, 2, .. 18, the box's at 1, 3, .. 19, the upcard at
    20, then the stock from the top (``stock`` first, the unused cards after it)."""
    c, b = parse_cards(captain), parse_cards(box)
    up = parse_cards(upcard)
    top = [Card.parse(word) for word in stock.split()]   # in the order given, not sorted
    assert len(c) == 10 and len(b) == 10 and len(up) == 1, "10 + 10 cards and one upcard"
    named = [*c, *b, *up, *top]
    assert len(set(named)) == len(named), "a card named twice"
    rest = [card for card in full_deck() if card not in set(named)]
    dealt: list[Card] = []
    for cap_card, box_card in zip(c, b, strict=True):
        dealt += [cap_card, box_card]
    return (*dealt, *up, *top, *rest)


