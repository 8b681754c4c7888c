"""Knocking: the best discard from 11 cards, and whether a knock or gin is possible.

>>> analysis = best_discards("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
>>> analysis.best, analysis.least_deadwood, analysis.can_knock, analysis.can_gin
((KD,), 5, True, False)
>>> can_knock("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, CardsLike, to_cards
from .errors import InvalidCardError
from .i18n import _
from .melds import (
    Arrangement,
    _deadwood_after_discards,
    _mask_of,
    _sorted_cards,
    best_melds,
    min_deadwood_mask,
)
from .rules import STANDARD, Rules


@dataclass(frozen=True, slots=True)
class DiscardAnalysis:
    """The least deadwood after each possible discard of an 11-card hand."""

    cards: tuple[Card, ...]
    #: For each card that may be discarded, the least deadwood of the 10 left.
    deadwood_after: dict[Card, int]
    #: The discards that reach the least deadwood, in card order.
    best: tuple[Card, ...]
    least_deadwood: int
    knock_limit: int
    #: Whether all 11 cards meld (big gin, where the rules allow it).
    all_melded: bool
    big_gin_allowed: bool = False

    @property
    def can_knock(self) -> bool:
        """Whether some discard leaves deadwood within the knock limit."""
        return self.least_deadwood <= self.knock_limit

    @property
    def can_gin(self) -> bool:
        """Whether some discard leaves no deadwood at all."""
        return self.least_deadwood == 0

    @property
    def can_big_gin(self) -> bool:
        """Whether the rules allow big gin and all 11 cards meld."""
        return self.big_gin_allowed and self.all_melded

    @property
    def knock_discards(self) -> tuple[Card, ...]:
        """Every discard after which a knock is legal."""
        return tuple(c for c, d in self.deadwood_after.items() if d <= self.knock_limit)

    def arrangement_after(self, discard: Card) -> Arrangement:
        """The best arrangement of the 10 cards left after ``discard``."""
        return best_melds([c for c in self.cards if c != discard])

    def _repr_html_(self) -> str:
        from .display import discard_analysis_html

        return discard_analysis_html(self)


def best_discards(
    cards: CardsLike,
    rules: Rules = STANDARD,
    *,
    knock_limit: int | None = None,
    forbidden: Card | None = None,
) -> DiscardAnalysis:
    """Analyse every discard of an 11-card hand, exactly.

    ``knock_limit`` overrides the rules' limit (an Oklahoma hand); ``forbidden`` is a
    card that may not be discarded (the one just taken from the discard pile).
    """
    mask = _mask_of(cards)
    cs = _sorted_cards(mask)  # the cards sorted, as to_cards gives them
    if len(cs) != 11:
        raise InvalidCardError(
            _("best_discards takes 11 cards (10 plus the one just taken), not {n}").format(
                n=len(cs))
        )
    by_bit = dict(_deadwood_after_discards(mask))
    if forbidden is None:
        after = {c: by_bit[c.bit] for c in cs}
    else:
        after = {c: by_bit[c.bit] for c in cs if c != forbidden}
    least = min(after.values())
    limit = rules.knock_limit if knock_limit is None else knock_limit
    return DiscardAnalysis(
        cards=cs,
        deadwood_after=after,
        best=tuple(c for c, d in after.items() if d == least),
        least_deadwood=least,
        knock_limit=limit,
        all_melded=least == 0 and min_deadwood_mask(mask) == 0,
        big_gin_allowed=rules.big_gin,
    )


def can_knock(cards: CardsLike, rules: Rules = STANDARD, *, knock_limit: int | None = None
              ) -> bool:
    """Whether these cards allow a knock: 10 cards as they are, or 11 after a discard."""
    cs = to_cards(cards)
    limit = rules.knock_limit if knock_limit is None else knock_limit
    if len(cs) == 10:
        return best_melds(cs).deadwood_value <= limit
    if len(cs) == 11:
        return best_discards(cs, rules, knock_limit=limit).can_knock
    raise InvalidCardError(
        _("a knock is made with 10 cards laid out, or 11 before the discard, not {n}").format(
            n=len(cs))
    )
