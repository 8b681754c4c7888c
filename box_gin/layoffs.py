"""Layoffs: the defender's best lay-out against the knocker's melds.

After a knock (not gin) the defender may add deadwood cards to the knocker's melds: the
fourth card of a three-card set, or cards extending a run at either end, chained (after
the 8 on 5-6-7, the 9 may follow).  :func:`lay_off` finds the defender's least deadwood
over every choice of layoffs and every arrangement of the cards it keeps.

>>> result = lay_off([Meld("5H 6H 7H"), Meld("KC KD KS")], "8H 9H KH 2C 2D 2S 4C")
>>> [(str(l.card), str(l.onto)) for l in result.layoffs]
[('8H', '5H 6H 7H'), ('9H', '5H 6H 7H'), ('KH', 'KC KD KS')]
>>> result.melds, result.deadwood_value
((Meld(2C 2D 2S),), 4)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product

from .cards import CARDS, Card, CardsLike, format_cards, to_cards
from .errors import InvalidCardError
from .i18n import _, ngettext
from .melds import Arrangement, Meld, best_melds


@dataclass(frozen=True, slots=True)
class Layoff:
    """One card laid off onto one of the knocker's melds (``onto_index`` in its list)."""

    card: Card
    onto: Meld
    onto_index: int

    def __str__(self) -> str:
        return f"{self.card} -> [{self.onto}]"


@dataclass(frozen=True, slots=True)
class LayoffResult:
    """The defender's lay-out: its own melds, its layoffs in playing order, its deadwood."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[Card, ...]

    @property
    def deadwood_value(self) -> int:
        """The defender's deadwood value after layoffs."""
        return sum(c.value for c in self.deadwood)

    @property
    def arrangement(self) -> Arrangement:
        """The defender's own melds and deadwood, without the laid-off cards."""
        return Arrangement(self.melds, self.deadwood)

    def __str__(self) -> str:
        melds = " ".join(f"[{m}]" for m in self.melds)
        offs = ", ".join(str(lo) for lo in self.layoffs) or "-"
        return f"{melds} | layoffs: {offs} | {format_cards(self.deadwood) or '-'} " \
               f"({self.deadwood_value})"

    def _repr_html_(self) -> str:
        from .views.html import layoff_html

        return layoff_html(self)


def _options(index: int, meld: Meld, held: frozenset[Card]) -> list[tuple[Layoff, ...]]:
    """Every way the defender could lay off onto one meld (nothing first)."""
    options: list[tuple[Layoff, ...]] = [()]
    if meld.is_set:
        for card in meld.extensions():
            if card in held:
                options.append((Layoff(card, meld, index),))
        return options
    suit, low, high = meld.cards[0].suit, meld.cards[0].rank, meld.cards[-1].rank
    below: list[Card] = []
    r = low - 1
    while r >= 1 and CARDS[(suit, r)] in held:
        below.append(CARDS[(suit, r)])
        r -= 1
    above: list[Card] = []
    r = high + 1
    while r <= 13 and CARDS[(suit, r)] in held:
        above.append(CARDS[(suit, r)])
        r += 1
    return [
        tuple(Layoff(c, meld, index) for c in above[:a] + below[:b])
        for a in range(len(above) + 1) for b in range(len(below) + 1)
    ]


def lay_off(knocker_melds: Iterable[Meld], defender_cards: CardsLike, gin: bool = False
            ) -> LayoffResult:
    """The defender's best outcome against the knocker's melds: least deadwood.

    With ``gin`` the defender lays out its melds but may not lay off.  Ties are broken by
    the fewest deadwood cards, then by the fewest cards laid off, then by the order in
    which the choices are tried (the knocker's melds in order, fewer cards first).
    """
    melds = tuple(knocker_melds)
    for meld in melds:
        if not isinstance(meld, Meld):
            raise InvalidCardError(_("not a meld: {value!r}").format(value=meld))
    cards = to_cards(defender_cards)
    shown: set[Card] = set()
    for meld in melds:
        twice = shown & set(meld.cards)
        if twice:
            raise InvalidCardError(
                _("{cards} are in two of the knocker's melds: a card belongs to at most "
                  "one meld").format(cards=format_cards(sorted(twice))))
        shown |= set(meld.cards)
    clash = set(cards) & {c for m in melds for c in m.cards}
    if clash:
        raise InvalidCardError(
            ngettext("{cards} is both in the knocker's melds and in the defender's hand",
                     "{cards} are both in the knocker's melds and in the defender's hand",
                     len(clash)).format(cards=format_cards(sorted(clash)))
        )
    if gin:
        a = best_melds(cards)
        return LayoffResult(a.melds, (), a.deadwood)
    held = frozenset(cards)
    best: tuple[tuple[int, int, int], LayoffResult] | None = None
    for combo in product(*(_options(i, m, held) for i, m in enumerate(melds))):
        laid = [lo for part in combo for lo in part]
        laid_cards = {lo.card for lo in laid}
        if len(laid_cards) != len(laid):
            continue  # one card offered to two melds
        rest = best_melds([c for c in cards if c not in laid_cards])
        key = (rest.deadwood_value, len(rest.deadwood), len(laid))
        if best is None or key < best[0]:
            best = (key, LayoffResult(rest.melds, tuple(laid), rest.deadwood))
    assert best is not None
    return best[1]
