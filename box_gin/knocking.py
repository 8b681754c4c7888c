"""Knocking: the best discard from 11 cards, and whether a knock or gin is possible.

>>> analysis = best_discards("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
>>> analysis.best, analysis.least_deadwood, analysis.can_knock, analysis.can_gin
((KD,), 5, True, False)
>>> can_knock("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
True
"""

from __future__ import annotations

from .cards import Card, CardsLike, to_cards
from .errors import InvalidCardError
from .i18n import _
from .kernels import after_each, hand_mask, least_after, mask_of, min_deadwood, sorted_cards
from .melds import Arrangement, best_melds
from .rules import STANDARD, Rules


class DiscardAnalysis:
    """The least deadwood after each possible discard of an 11-card hand.

    Read-only.  The least deadwood is known at once; the deadwood after each discard,
    and the best discards, are worked out the first time they are read.
    """

    __slots__ = ("_after", "_big_gin_allowed", "_cards", "_forbidden", "_knock_limit",
                 "_least", "_mask", "_melded")
    _after: dict[Card, int]
    _cards: tuple[Card, ...]

    def __init__(self, mask: int, forbidden: Card | None, least: int, knock_limit: int,
                 all_melded: bool, big_gin_allowed: bool) -> None:
        self._mask, self._forbidden, self._least = mask, forbidden, least
        self._knock_limit, self._melded, self._big_gin_allowed = \
            knock_limit, all_melded, big_gin_allowed

    @property
    def cards(self) -> tuple[Card, ...]:
        """The 11 cards, sorted."""
        try:
            return self._cards
        except AttributeError:
            self._cards = sorted_cards(self._mask)
            return self._cards

    @property
    def deadwood_after(self) -> dict[Card, int]:
        """For each card that may be discarded, the least deadwood of the 10 left."""
        try:
            return self._after
        except AttributeError:
            self._after = after_each(self._mask)
            if self._forbidden is not None:
                del self._after[self._forbidden]
            return self._after

    @property
    def best(self) -> tuple[Card, ...]:
        """The discards that reach the least deadwood, in card order."""
        least = self._least
        return tuple(c for c, d in self.deadwood_after.items() if d == least)

    @property
    def least_deadwood(self) -> int:
        """The least deadwood any allowed discard leaves."""
        return self._least

    @property
    def knock_limit(self) -> int:
        """The knock limit the analysis judges knocks by."""
        return self._knock_limit

    @property
    def all_melded(self) -> bool:
        """Whether all 11 cards meld (big gin, where the rules allow it)."""
        return self._melded

    @property
    def big_gin_allowed(self) -> bool:
        """Whether the rules allow big gin."""
        return self._big_gin_allowed

    @property
    def can_knock(self) -> bool:
        """Whether some discard leaves deadwood within the knock limit."""
        return self._least <= self._knock_limit

    @property
    def can_gin(self) -> bool:
        """Whether some discard leaves no deadwood at all."""
        return self._least == 0

    @property
    def can_big_gin(self) -> bool:
        """Whether the rules allow big gin and all 11 cards meld."""
        return self._big_gin_allowed and self._melded

    @property
    def knock_discards(self) -> tuple[Card, ...]:
        """Every discard after which a knock is legal."""
        return tuple(c for c, d in self.deadwood_after.items() if d <= self._knock_limit)

    def arrangement_after(self, discard: Card) -> Arrangement:
        """The best arrangement of the 10 cards left after ``discard``."""
        return best_melds([c for c in self.cards if c != discard])

    def _key(self) -> tuple[object, ...]:
        return (self.cards, self.deadwood_after, self._least, self._knock_limit, self._melded,
                self._big_gin_allowed)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DiscardAnalysis):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._mask, self._forbidden, self._knock_limit, self._big_gin_allowed))

    def __repr__(self) -> str:
        return (f"DiscardAnalysis(cards={self.cards!r}, deadwood_after={self.deadwood_after!r}, "
                f"best={self.best!r}, least_deadwood={self._least!r}, "
                f"knock_limit={self._knock_limit!r}, all_melded={self._melded!r}, "
                f"big_gin_allowed={self._big_gin_allowed!r})")

    def _repr_html_(self) -> str:
        from .views.html import discard_analysis_html

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
    mask = mask_of(cards)
    if mask < 0:
        mask = hand_mask(cards)  # raises the error that fits
    if mask.bit_count() != 11:
        raise InvalidCardError(
            _("best_discards takes 11 cards (10 plus the one just taken), not {n}").format(
                n=mask.bit_count())
        )
    limit = rules.knock_limit if knock_limit is None else knock_limit
    if forbidden is not None and not mask & forbidden.bit:
        forbidden = None
    least = least_after(mask, -1 if forbidden is None else forbidden.index)
    melded = least == 0 and min_deadwood(mask) == 0  # all 11 meld: big gin's condition
    return DiscardAnalysis(mask, forbidden, least, limit, melded, rules.big_gin)


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
