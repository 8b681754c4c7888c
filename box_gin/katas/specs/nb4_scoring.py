"""The katas of notebook 4, scoring: lay_off, score_hand, each with its generator,
reference and judge."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...cards import CARDS, Card, Suit, full_deck
from ...i18n import _
from ...layoffs import lay_off as engine_lay_off
from ...melds import Meld
from ...melds import best_melds as engine_best_melds
from ...scoring import score_hand as engine_score_hand
from ..core import Args, Kata, fmt
from ..draw import Draw, dense_cards
from .common import _c, _is_int, _shrink_cards, _want_int, _without


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


def _lo(melds: str, cards: str, gin: bool = False) -> Args:
    return ([_c(m) for m in melds.split("|")], _c(cards), gin)


#: The fixed hidden tests of lay_off, by class: one card and a chain of two above a run,
#: below it, at both ends; the run given high to low, or shuffled (the kata promises no
#: order); the ace low only (4H on AH 2H 3H, AH below 2H 3H 4H, no AH above JH QH KH); a
#: set's fourth card, the set in any order; nothing onto a four-card set; the knocker's
#: melds in either order; a card that fits two of the knocker's melds where only one
#: choice lets another card follow (8S onto 8C 8D 8H or 5S 6S 7S, then 9S); a card the
#: defender may meld or lay off, and a four-card set giving a card away; gin, where
#: nothing is laid off, and gin left out (False); nothing that fits at all.
LAY_OFF_CORNERS: tuple[Args, ...] = (
    _lo("5H 6H 7H", "8H"), _lo("5H 6H 7H", "8H 9H"), _lo("5H 6H 7H", "4H 3H"),
    _lo("5H 6H 7H", "4H 8H KC"), _lo("5H 6H 7H", "9H"), _lo("5H 6H 7H", "3H 9H 2C"),
    _lo("7H 6H 5H", "8H 9H"), _lo("7H 6H 5H", "4H 3H"), _lo("7H 6H 5H", "8H 4H"),
    _lo("6H 5H 7H", "8H 9H 4H"), _lo("9C 8C 7C 6C", "TC 5C JC"), _lo("KD QD JD", "TD 9D"),
    _lo("AH 2H 3H", "4H 5H"), _lo("4H 3H 2H", "AH"), _lo("2H 3H 4H", "AH"),
    _lo("JH QH KH", "AH"), _lo("QH KH JH", "TH AH"), _lo("KC KD KS", "KH"),
    _lo("KS KC KD", "KH 2C"), _lo("4C 4D 4H 4S", "3C 5C 6C"), _lo("4C 4D 4H 4S", "5S 5D"),
    _lo("8C 8D 8H|5S 6S 7S", "8S 9S"), _lo("5S 6S 7S|8C 8D 8H", "8S 9S"),
    _lo("7S 6S 5S|8H 8D 8C", "8S 9S TS"), _lo("8C 8D 8H|5S 6S 7S", "8S 4S"),
    _lo("8C 8D 8H|9S TS JS", "8S 7S"), _lo("JS TS 9S|8H 8C 8D", "8S 7S 6S"),
    _lo("5H 6H 7H", "8H 8C 8D"), _lo("5H 6H 7H", "8H 8C 8D 9H"),
    _lo("5H 6H 7H", "8C 8D 8H 8S"), _lo("5H 6H 7H", "8C 8D 8H 8S 9H"),
    _lo("5H 6H 7H", "8H 9H", True), _lo("KC KD KS", "KH 2C", True),
    _lo("7H 6H 5H|KC KD KS", "8H 9H KH 2C 2D 2S 4C", True),
    _lo("5H 6H 7H|KC KD KS", "8H 9H KH 2C 2D 2S 4C"),
    _lo("KS KD KC|7H 5H 6H", "4C 2S 2D 2C KH 9H 8H"), _lo("5H 6H 7H", "2C 9D KS"),
    ([_c("5H 6H 7H")], _c("8H")),  # gin left out: False
)


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
    knocker, cards, gin = (*args, False)[:3]
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
    melds, cards, gin = (*args, False)[:3]
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


#: The fixed hidden tests of score_hand, by class: K < D by one and by much; K = D (a
#: tie is an undercut), at 0 and at 10; K > D by one and by much; D = 0 after a knock
#: (an undercut of 10 + K); the knock limit's edge, K = 10; gin with D = 0, small, large.
SCORE_CORNERS: tuple[Args, ...] = (
    (0, 1, False), (4, 5, False), (4, 19, False), (0, 7, False), (10, 11, False),
    (1, 98, False), (0, 0, False), (5, 5, False), (10, 10, False), (6, 5, False),
    (10, 0, False), (8, 6, False), (3, 0, False), (1, 0, False), (10, 9, False),
    (0, 0, True), (0, 1, True), (0, 31, True), (0, 99, True),
)


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


KATAS: tuple[Kata, ...] = (
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
        generate=_gen_lay_off, corners=LAY_OFF_CORNERS, reference=_lay_off_reference,
        judge=_judge_lay_off,
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
        generate=_gen_score, corners=SCORE_CORNERS, reference=_score_reference,
        judge=_judge_score,
        size=lambda args: args[0] + args[1], shrink=_shrink_score,
    ),
)
