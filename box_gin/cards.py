"""Cards: a rank and a suit, their values, their text forms, and the deck.

A card's text is its rank then its suit: ``"7H"``, ``"TS"`` (``"10S"`` is read too),
``"AC"``.  Suits may also be written as symbols: ``"7♥"``.

>>> parse_cards("AS 2s 10D Th 7♥")
(AS, 2S, 7H, TD, TH)
>>> format_cards(parse_cards("KC, qd"))
'QD KC'
>>> card_value(Card.parse("KH")), card_value(Card.parse("AS"))
(10, 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from operator import attrgetter
from typing import TypeAlias

from .errors import InvalidCardError
from .i18n import _


class Suit(IntEnum):
    """The four suits, in a stable display order (they have no rank in play)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """One letter: C, D, H or S."""
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def label(self) -> str:
        """The suit's name in the language in use."""
        return (_("clubs"), _("diamonds"), _("hearts"), _("spades"))[self]


RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
_RANK_OF = {text: rank for rank, text in enumerate(RANK_TEXT, start=1)} | {"10": 10}
_SUIT_OF = {
    "C": Suit.CLUBS, "D": Suit.DIAMONDS, "H": Suit.HEARTS, "S": Suit.SPADES,
    "♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES,
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_CARD_RE = re.compile(r"^(10|[2-9TJQKA])(.)$", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;]+")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One playing card, ordered by rank (ace low) then suit.

    ``rank`` runs from 1 (ace) to 13 (king).  Build one with ``Card(7, Suit.HEARTS)``
    or ``Card.parse("7H")``.
    """

    rank: int
    suit: Suit
    #: A number from 0 to 51, unique to the card: ``suit * 13 + rank - 1``.
    index: int = field(init=False, repr=False)
    #: The card's bit in a 52-bit hand mask: ``1 << index``.
    bit: int = field(init=False, repr=False)
    _order: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise InvalidCardError(
                _("invalid rank {rank!r}: ranks run from 1 (ace) to 13 (king)").format(
                    rank=self.rank
                )
            )
        if not isinstance(self.suit, Suit):
            try:
                object.__setattr__(self, "suit", Suit(self.suit))
            except ValueError:
                raise InvalidCardError(
                    _("invalid suit {suit!r}: suits are 0 to 3 (clubs to spades)").format(
                        suit=self.suit
                    )
                ) from None
        index = self.suit * 13 + self.rank - 1
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)
        object.__setattr__(self, "_order", self.rank * 4 + self.suit)

    # Comparisons by precomputed numbers: cards are compared and hashed in hot loops.
    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self._order == other._order
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._order < other._order
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._order <= other._order
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._order > other._order
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._order >= other._order
        return NotImplemented

    @staticmethod
    def parse(text: str) -> Card:
        """The card named by ``text``, such as ``"7H"``, ``"10s"`` or ``"Q♦"``."""
        # U+FE0F asks for an emoji suit (7♥️): the same card.
        match = _CARD_RE.match(text.strip().replace("\ufe0f", "")) \
            if isinstance(text, str) else None
        suit = _SUIT_OF.get(match.group(2).upper()) if match else None
        if match is None or suit is None:
            raise InvalidCardError(
                _("not a card: {text!r} (write a rank A 2-9 T J Q K, then a suit C D H S,"
                  " as in '7H')").format(text=text)
            )
        return CARDS[(suit, _RANK_OF[match.group(1).upper()])]

    @property
    def value(self) -> int:
        """Deadwood value: ace 1, two to ten their pips, jack, queen and king 10."""
        return min(self.rank, 10)

    @property
    def rank_text(self) -> str:
        """The rank as a person writes it: A, 2..10, J, Q, K."""
        return "10" if self.rank == 10 else RANK_TEXT[self.rank - 1]

    @property
    def label(self) -> str:
        """A readable name, such as ``10♥``."""
        return self.rank_text + self.suit.symbol

    @property
    def spoken(self) -> str:
        """The card in words, for screen readers: "seven of hearts"."""
        return _("{rank} of {suit}").format(rank=rank_name(self.rank), suit=self.suit.label)

    def __repr__(self) -> str:
        return RANK_TEXT[self.rank - 1] + self.suit.letter

    __str__ = __repr__

    def _repr_html_(self) -> str:
        from .views.cards import cards_html

        return cards_html([self])


#: The sort key of cards in card order (rank, then suit): the order of ``<``, read off
#: the number each card keeps (``sorted(cards, key=CARD_ORDER)`` is ``sorted(cards)``,
#: without a call to ``Card.__lt__`` per comparison).
CARD_ORDER = attrgetter("_order")


def rank_name(rank: int) -> str:
    """The rank in words, in the language in use."""
    names = (
        _("ace"), _("two"), _("three"), _("four"), _("five"), _("six"), _("seven"),
        _("eight"), _("nine"), _("ten"), _("jack"), _("queen"), _("king"),
    )
    return names[rank - 1]


#: Every card, by (suit, rank): the engine never makes a second copy of a card.
CARDS: dict[tuple[Suit, int], Card] = {
    (suit, rank): Card(rank, suit) for suit in Suit for rank in range(1, 14)
}
#: Every card by its index 0..51.
BY_INDEX: tuple[Card, ...] = tuple(sorted(CARDS.values(), key=lambda c: c.index))

CardsLike: TypeAlias = "str | Iterable[Card]"


def full_deck() -> tuple[Card, ...]:
    """The 52 cards in new-deck order: clubs ace to king, then diamonds, hearts, spades."""
    return BY_INDEX


def card_value(card: Card | str) -> int:
    """A card's deadwood value: ace 1, 2-10 their pips, J Q K 10."""
    return (Card.parse(card) if isinstance(card, str) else card).value


def parse_cards(text: str) -> tuple[Card, ...]:
    """The distinct cards named in ``text``, sorted by rank then suit.

    Cards are separated by spaces or commas; ranks T or 10, either case; suits as letters
    or symbols.  Empty text, a word that is not a card, or a card named twice raises
    :class:`InvalidCardError` quoting the text.
    """
    if not isinstance(text, str):
        raise InvalidCardError(_("expected text naming cards, got {value!r}").format(value=text))
    words = [w for w in _SEPARATORS.split(text.strip()) if w]
    if not words:
        raise InvalidCardError(_("no cards in {text!r}").format(text=text))
    cards = [Card.parse(w) for w in words]
    return _distinct(cards, text)


def _distinct(cards: list[Card], source: object) -> tuple[Card, ...]:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise InvalidCardError(
                _("{card} appears twice in {source!r}: a hand holds each card once").format(
                    card=card, source=source
                )
            )
        seen.add(card)
    return tuple(sorted(cards))


def to_cards(cards: CardsLike) -> tuple[Card, ...]:
    """Cards from text or from an iterable of :class:`Card`, checked and sorted."""
    if isinstance(cards, str):
        return parse_cards(cards) if cards.strip() else ()
    items = list(cards)
    for item in items:
        if not isinstance(item, Card):
            raise InvalidCardError(_("not a card: {value!r}").format(value=item))
    return _distinct(items, items)


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as text, the inverse of :func:`parse_cards`: ``"7H 8H 9H"``."""
    return " ".join(repr(c) for c in cards)


def mask_of(cards: Iterable[Card]) -> int:
    """The 52-bit mask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= card.bit
    return mask
