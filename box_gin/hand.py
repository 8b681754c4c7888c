"""One hand between the box and the captain, as a state machine.

The hand moves through phases: the upcard offer (captain first, then the box), then
turns of draw and discard, until a knock, gin or a drawn hand.  Every action is
checked before anything changes: an illegal one raises :class:`IllegalActionError`
saying why, and the hand is left exactly as it was.

>>> hand = Hand.deal(seed=7)
>>> hand.phase, hand.to_play
(Phase.UPCARD_OFFER, Role.CAPTAIN)
>>> [str(a) for a in hand.legal_actions()]
['take', 'pass']
>>> hand.apply("pass"); hand.apply("pass"); hand.to_play
Role.CAPTAIN
>>> hand.apply("draw discard")
Traceback (most recent call last):
...
box_gin.errors.IllegalActionError: draw discard: after both players pass the upcard, the captain ...
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .actions import (
    BIG_GIN,
    DRAW_DISCARD,
    DRAW_STOCK,
    PASS,
    TAKE,
    Action,
    ActionKind,
    discard,
    knock,
)
from .cards import BY_INDEX, CARD_ORDER, Card, CardsLike, Suit, format_cards, full_deck
from .errors import IllegalActionError, InvalidCardError
from .i18n import _, ngettext, pgettext
from .kernels import (
    BY_RANK_MAJOR,
    SUIT_BITS,
    TO_RANK_MAJOR,
    hand_mask,
    knockable,
    mask_of,
    min_deadwood,
    sorted_cards,
)
from .knocking import DiscardAnalysis, best_discards
from .layoffs import LayoffResult, lay_off
from .melds import Arrangement, best_melds
from .rules import DRAW_AT_STOCK, STANDARD, Rules
from .scoring import HandScore, Side, score_hand

# The discard and knock actions of each card (by index), made once: actions are frozen.
_DISCARDS = [discard(c) for c in BY_INDEX]
_KNOCKS = [knock(c) for c in BY_INDEX]
# _DISCARD_BYTES[k][b]: the discard actions, in card order, of the cards whose bits are set
# in byte b of byte k of a rank-major mask (bit rank index * 4 + suit): two ranks a byte.
def _discard_bytes() -> list[list[tuple[Action, ...]]]:
    """:data:`_DISCARD_BYTES`, each byte's entry from the byte without its lowest bit
    (built at every import, each sandboxed child's too: 0.4 ms, not 1.9)."""
    out = []
    for k in range(7):
        acts = [_DISCARDS[BY_RANK_MAJOR[bit].index] if bit < 52 else None
                for bit in range(8 * k, 8 * k + 8)]
        row: list[tuple[Action, ...]] = [()] * 256
        for b in range(1, 256):
            low = b & -b
            act, rest = acts[low.bit_length() - 1], row[b ^ low]
            row[b] = rest if act is None else (act, *rest)
        out.append(row)
    return out


_DISCARD_BYTES = _discard_bytes()


def _all_discards(mask: int) -> list[Action]:
    """The discard of every card of a hand mask, in card order."""
    t = TO_RANK_MAJOR
    rm = t[0][mask & SUIT_BITS] | t[1][(mask >> 13) & SUIT_BITS] \
        | t[2][(mask >> 26) & SUIT_BITS] | t[3][mask >> 39]
    d = _DISCARD_BYTES
    return [*d[0][rm & 255], *d[1][rm >> 8 & 255], *d[2][rm >> 16 & 255],
            *d[3][rm >> 24 & 255], *d[4][rm >> 32 & 255], *d[5][rm >> 40 & 255],
            *d[6][rm >> 48]]


class Role(StrEnum):
    """The three roles of a hand."""

    BOX = "box"
    CAPTAIN = "captain"
    SITTER = "sitter"

    def __repr__(self) -> str:
        return f"Role.{self.name}"

    @property
    def label(self) -> str:
        """The role's name in the language in use."""
        return {Role.BOX: _("box"), Role.CAPTAIN: _("captain"), Role.SITTER: _("sitter")}[self]

    @property
    def opponent(self) -> Role:
        """The other active role (the sitter has none)."""
        if self is Role.SITTER:
            raise ValueError(_("the sitter holds no cards and has no opponent"))
        return Role.CAPTAIN if self is Role.BOX else Role.BOX


class Phase(StrEnum):
    """Where a hand stands."""

    UPCARD_OFFER = "upcard offer"
    DRAW = "draw"
    DISCARD = "discard"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"

    @property
    def label(self) -> str:
        """The phase's name in the language in use."""
        return {
            Phase.UPCARD_OFFER: pgettext("phase", "upcard offer"),
            Phase.DRAW: pgettext("phase", "draw"),
            Phase.DISCARD: pgettext("phase", "discard"),
            Phase.OVER: pgettext("phase", "hand over"),
        }[self]


class Outcome(StrEnum):
    """How a hand ended."""

    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big gin"
    UNDERCUT = "undercut"
    DRAWN = "drawn"

    def __repr__(self) -> str:
        return f"Outcome.{self.name}"

    @property
    def label(self) -> str:
        """The outcome's name in the language in use."""
        return {
            Outcome.KNOCK: pgettext("outcome", "knock"),
            Outcome.GIN: pgettext("outcome", "gin"),
            Outcome.BIG_GIN: pgettext("outcome", "big gin"),
            Outcome.UNDERCUT: pgettext("outcome", "undercut"),
            Outcome.DRAWN: pgettext("outcome", "drawn hand"),
        }[self]


@dataclass(frozen=True, slots=True)
class HandResult:
    """The end of a hand: how it ended, who scored what, and both lay-outs."""

    outcome: Outcome
    #: The role that knocked (``None`` for a drawn hand).
    knocker: Role | None = None
    #: The role that scored (``None`` for a drawn hand).
    winner: Role | None = None
    points: int = 0
    #: The knocker's melds and deadwood as laid out.
    knocker_layout: Arrangement | None = None
    #: The card the knocker discarded (``None`` for big gin).
    knock_card: Card | None = None
    #: The defender's melds, layoffs and deadwood.
    defender_layout: LayoffResult | None = None
    score: HandScore | None = None
    knock_limit: int = 10
    doubled: bool = False

    @property
    def defender(self) -> Role | None:
        """The role that defended against the knock."""
        return self.knocker.opponent if self.knocker else None

    @property
    def box_won(self) -> bool | None:
        """True if the box scored, False if the captain did, None for a drawn hand."""
        return None if self.winner is None else self.winner is Role.BOX

    def summary(self) -> str:
        """One line for people, in the language in use."""
        if self.outcome is Outcome.DRAWN or self.winner is None:
            return _("Drawn hand: nobody scores; the box deals again.")
        # TRANSLATORS: {outcome} is knock, gin, big gin or undercut; {winner} a role.
        return ngettext("{outcome}: the {winner} scores {points} point.",
                        "{outcome}: the {winner} scores {points} points.", self.points).format(
            outcome=self.outcome.label.capitalize(), winner=self.winner.label,
            points=self.points)

    def _repr_html_(self) -> str:
        from .views.html import result_html

        return result_html(self)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: its own cards (the sitter sees the captain's, whom it
    advises), the discard pile, the stock's size, and the cards its opponent was seen
    to take from the discard pile and still holds."""

    role: Role
    phase: Phase
    to_play: Role | None
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    opponent_known: tuple[Card, ...]
    opponent_card_count: int
    knock_limit: int
    rules: Rules
    legal_actions: tuple[Action, ...]
    #: The card just taken from the discard pile, which may not be thrown back.
    taken_card: Card | None
    history: tuple[tuple[Role, str], ...]
    result: HandResult | None

    @property
    def my_turn(self) -> bool:
        """Whether this seat (for the sitter: the captain it advises) is to act."""
        seat = Role.CAPTAIN if self.role is Role.SITTER else self.role
        return self.to_play is seat

    @property
    def top_discard(self) -> Card | None:
        """The card on top of the discard pile."""
        return self.discard_pile[-1] if self.discard_pile else None

    def _repr_html_(self) -> str:
        from .views.html import view_html

        return view_html(self)


def _deck_from(deck: CardsLike | list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    if isinstance(deck, str):
        from .cards import Card as _Card

        cards = tuple(_Card.parse(w) for w in deck.replace(",", " ").split())
    else:
        cards = tuple(deck)
    for c in cards:
        if not isinstance(c, Card):
            raise InvalidCardError(_("not a card: {value!r}").format(value=c))
    if len(cards) != 52 or len(set(cards)) != 52:
        raise InvalidCardError(
            _("a deck is the 52 different cards, in any order; got {n} cards, {d} different")
            .format(n=len(cards), d=len(set(cards)))
        )
    return cards


@dataclass
class Hand:
    """One deal between the box and the captain.  Build it with :meth:`deal`."""

    rules: Rules
    deck: tuple[Card, ...]
    seed: int | None
    hands: dict[Role, set[Card]]
    stock: list[Card]
    discard_pile: list[Card]
    phase: Phase = Phase.UPCARD_OFFER
    to_play: Role | None = Role.CAPTAIN
    taken_card: Card | None = None
    must_draw_stock: bool = False
    seen: dict[Role, set[Card]] = field(default_factory=dict)
    history: list[tuple[Role, Action]] = field(default_factory=list)
    # The history as the seats see it (a card drawn from the stock stays hidden), kept
    # as the hand goes so that a view costs the same at any point of the hand.
    _public: list[tuple[Role, str]] = field(default_factory=list, repr=False)
    _limit: int = field(default=-1, repr=False)
    result: HandResult | None = None

    # -- making a hand ------------------------------------------------------------------

    @classmethod
    def deal(
        cls,
        rules: Rules = STANDARD,
        seed: int | None = None,
        deck: CardsLike | list[Card] | tuple[Card, ...] | None = None,
    ) -> Hand:
        """Deal a hand: from ``deck`` (52 cards, position 0 first) or shuffled by ``seed``.

        The captain gets deck positions 0, 2, ..., 18, the box 1, 3, ..., 19; position 20
        is the upcard; 21..51 are the stock, 21 on top.
        """
        if deck is None:
            order = list(full_deck())
            random.Random(seed).shuffle(order)
            cards = tuple(order)
        else:
            cards = _deck_from(deck)
        return cls(
            rules=rules,
            deck=cards,
            seed=seed,
            hands={Role.CAPTAIN: set(cards[0:20:2]), Role.BOX: set(cards[1:20:2])},
            stock=list(reversed(cards[21:])),
            discard_pile=[cards[20]],
            seen={Role.CAPTAIN: set(), Role.BOX: set()},
        )

    # -- reading the state --------------------------------------------------------------

    @property
    def upcard(self) -> Card:
        """The first upcard, turned from the deck at the deal."""
        return self.deck[20]

    @property
    def knock_limit(self) -> int:
        """This hand's knock limit (Oklahoma: set by the first upcard)."""
        if self._limit < 0:
            self._limit = self.rules.knock_limit_for(self.upcard.value)
        return self._limit

    @property
    def doubled(self) -> bool:
        """Whether this hand's score is doubled (Oklahoma with a spade upcard)."""
        return self.rules.oklahoma and self.rules.oklahoma_spades_double \
            and self.upcard.suit is Suit.SPADES

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.phase is Phase.OVER

    def cards(self, role: Role) -> tuple[Card, ...]:
        """The cards ``role`` holds, sorted (the sitter holds none)."""
        return tuple(sorted(self.hands.get(role, ()), key=CARD_ORDER))

    @property
    def stock_size(self) -> int:
        """How many cards are left in the stock."""
        return len(self.stock)

    def analysis(self) -> DiscardAnalysis | None:
        """For the player about to discard: the least deadwood after each discard."""
        if self.phase is not Phase.DISCARD or self.to_play is None:
            return None
        return best_discards(self.hands[self.to_play], self.rules,
                             knock_limit=self.knock_limit, forbidden=self._forbidden())

    def _public_history(self) -> list[tuple[Role, str]]:
        """The history as the seats see it: a card drawn from the stock stays hidden.
        Kept up to date as views are asked for, so each action is written out once."""
        public = self._public
        for player, act in self.history[len(public):]:
            public.append((player, "draw stock" if act.kind is ActionKind.DRAW_STOCK
                           else str(act)))
        return public

    def public_since(self, start: int) -> list[tuple[Role, str]]:
        """The history as the seats see it (a view's), from entry ``start`` on."""
        return self._public_history()[start:]

    def _forbidden(self) -> Card | None:
        return None if self.rules.may_discard_taken_card else self.taken_card

    def legal_actions(self) -> list[Action]:
        """Every action the player to play may take now (knocks with the best lay-out)."""
        if self.phase is Phase.UPCARD_OFFER:
            return [TAKE, PASS]
        if self.phase is Phase.DRAW:
            if self.must_draw_stock or not self.discard_pile:
                return [DRAW_STOCK]
            return [DRAW_STOCK, DRAW_DISCARD]
        if self.phase is Phase.DISCARD:
            assert self.to_play is not None
            forbidden = self._forbidden()
            cards = self.hands[self.to_play]
            mask = mask_of(cards)
            if mask < 0:
                mask = hand_mask(cards)
            if forbidden is None:
                skip = -1
                actions = _all_discards(mask)
            else:
                skip = forbidden.index
                actions = _all_discards(mask & ~forbidden.bit)
            knocks = knockable(mask, self.knock_limit, skip)
            if knocks:
                actions += [_KNOCKS[c.index] for c in sorted_cards(knocks)]
                # All 11 cards melded leave at least two discards with no deadwood (a meld
                # of four or more loses an end or a fourth), so big gin implies knocks.
                if self.rules.big_gin and min_deadwood(mask) == 0:
                    actions.append(BIG_GIN)
            return actions
        return []

    def view(self, role: Role | str) -> SeatView:
        """What ``role`` may see of this hand."""
        return SeatView(*self.seat_facts(Role(role)))

    def seat_facts(self, role: Role) -> tuple[Any, ...]:
        """What ``role`` may see of this hand: its view's fields, in :class:`SeatView`'s
        order, without the view (a sandboxed bot's wire writes them as they are)."""
        seat = Role.CAPTAIN if role is Role.SITTER else role
        other = seat.opponent
        mine = self.to_play is seat
        return (role, self.phase, self.to_play, self.cards(seat), tuple(self.discard_pile),
                len(self.stock),
                tuple(sorted(self.seen[other] & self.hands[other], key=CARD_ORDER)),
                len(self.hands[other]), self.knock_limit, self.rules,
                tuple(self.legal_actions()) if mine else (),
                self.taken_card if mine else None, tuple(self._public_history()),
                self.result)

    # -- acting -------------------------------------------------------------------------

    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an :class:`Action` or its text) for the player to play."""
        act = action if type(action) is Action else Action.parse(action)
        self._check(act)
        player = self.to_play
        assert player is not None
        kind = act.kind
        if kind is ActionKind.TAKE:
            self._take_from_discard(player)
        elif kind is ActionKind.PASS:
            if player is Role.CAPTAIN:
                self.to_play = Role.BOX
            else:
                self.to_play, self.phase, self.must_draw_stock = Role.CAPTAIN, Phase.DRAW, True
        elif kind is ActionKind.DRAW_STOCK:
            self.hands[player].add(self.stock.pop())
            self.phase, self.taken_card, self.must_draw_stock = Phase.DISCARD, None, False
        elif kind is ActionKind.DRAW_DISCARD:
            self._take_from_discard(player)
        elif kind is ActionKind.DISCARD:
            assert act.card is not None
            self._discard(player, act.card)
            if len(self.stock) <= DRAW_AT_STOCK:
                self._end(HandResult(Outcome.DRAWN, knock_limit=self.knock_limit))
            else:
                self.to_play, self.phase, self.taken_card = player.opponent, Phase.DRAW, None
        else:
            self._go_out(player, act)
        self.history.append((player, act))

    def _take_from_discard(self, player: Role) -> None:
        card = self.discard_pile.pop()
        self.hands[player].add(card)
        self.seen[player].add(card)
        self.to_play, self.phase, self.taken_card = player, Phase.DISCARD, card

    def _discard(self, player: Role, card: Card) -> None:
        self.hands[player].remove(card)
        self.discard_pile.append(card)

    def _layout(self, cards: set[Card], act: Action) -> Arrangement:
        if act.melds is None:
            return best_melds(cards)
        return Arrangement.of(cards, act.melds)

    def _go_out(self, player: Role, act: Action) -> None:
        defender = player.opponent
        big = act.kind is ActionKind.BIG_GIN
        if not big:
            assert act.card is not None
            self._discard(player, act.card)
        layout = self._layout(self.hands[player], act)
        gin = layout.deadwood_value == 0
        defence = lay_off(layout.melds, self.hands[defender], gin=gin)
        score = score_hand(layout.deadwood_value, defence.deadwood_value, gin, self.rules,
                           big_gin=big, doubled=self.doubled)
        outcome = Outcome.BIG_GIN if big else Outcome.GIN if gin else \
            Outcome.UNDERCUT if score.undercut else Outcome.KNOCK
        self._end(HandResult(
            outcome=outcome,
            knocker=player,
            winner=player if score.winner is Side.KNOCKER else defender,
            points=score.points,
            knocker_layout=layout,
            knock_card=act.card,
            defender_layout=defence,
            score=score,
            knock_limit=self.knock_limit,
            doubled=self.doubled,
        ))

    def _end(self, result: HandResult) -> None:
        self.result, self.phase, self.to_play, self.taken_card = result, Phase.OVER, None, None

    # -- checking -----------------------------------------------------------------------

    def _illegal(self, act: Action, why: str) -> IllegalActionError:
        return IllegalActionError(f"{act}: {why}")

    def _check(self, act: Action) -> None:
        kind, phase = act.kind, self.phase
        if phase is Phase.OVER:
            raise self._illegal(act, _("the hand is over"))
        if phase is Phase.UPCARD_OFFER:
            if kind not in (ActionKind.TAKE, ActionKind.PASS):
                # TRANSLATORS: 'take' and 'pass' are commands the engine reads: keep them.
                raise self._illegal(act, _("the {role} is offered the upcard {card}: "
                                           "'take' or 'pass'").format(
                    role=self._role_label(), card=self.upcard))
            return
        if kind in (ActionKind.TAKE, ActionKind.PASS):
            raise self._illegal(act, _("'take' and 'pass' are only for the upcard offer"))
        if phase is Phase.DRAW:
            if kind is ActionKind.DRAW_DISCARD and self.must_draw_stock:
                raise self._illegal(act, _("after both players pass the upcard, the captain "
                                           "draws from the stock"))
            if kind not in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
                raise self._illegal(act, _("the {role} must first draw, from the stock or "
                                           "the discard pile").format(role=self._role_label()))
            return
        # Discard phase.
        assert self.to_play is not None
        if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            raise self._illegal(act, _("the {role} has drawn already and must now discard "
                                       "or knock").format(role=self._role_label()))
        held = self.hands[self.to_play]
        if kind is ActionKind.BIG_GIN:
            if not self.rules.big_gin:
                raise self._illegal(act, _("big gin is not played under these rules"))
            self._check_layout(act, held, 0, _(
                "big gin needs all 11 cards in melds, and this lay-out leaves {value} "
                "({cards})"))
            return
        card = act.card
        assert card is not None
        if card not in held:
            raise self._illegal(act, _("the {role} does not hold {card}").format(
                role=self._role_label(), card=card))
        taken = self.taken_card
        if taken is not None and card == taken and not self.rules.may_discard_taken_card:
            raise self._illegal(act, _("{card} was just taken from the discard pile and may "
                                       "not be thrown back this turn").format(card=card))
        if kind is ActionKind.KNOCK:
            self._check_layout(act, held - {card}, self.knock_limit, _(
                "a knock leaves at most {limit} deadwood, and this lay-out leaves {value} "
                "({cards})"))

    def _check_layout(self, act: Action, cards: set[Card], limit: int, message: str) -> None:
        """Refuse a lay-out over ``limit``, with ``message`` (fields: limit, value, cards)."""
        if act.melds is not None:
            try:
                layout = Arrangement.of(cards, act.melds)
            except ValueError as err:
                raise self._illegal(act, str(err)) from None
            value = layout.deadwood_value
        else:
            value = min_deadwood(hand_mask(cards))  # best_melds' deadwood, faster
        if value > limit:
            raise self._illegal(act, message.format(
                limit=limit, value=value, cards=format_cards(self._layout(cards, act).deadwood)))

    def _role_label(self) -> str:
        return self.to_play.label if self.to_play else ""

    # -- records ------------------------------------------------------------------------

    def record(self) -> dict[str, object]:
        """The hand as plain data: rules, deck order and actions (replay with
        :meth:`replay`)."""
        return {
            "rules": self.rules.to_dict(),
            "deck": format_cards(self.deck),
            "actions": [str(a) for _r, a in self.history],
        }

    @classmethod
    def replay(cls, record: dict[str, object]) -> Hand:
        """Rebuild a hand from :meth:`record`'s data by playing its actions again."""
        rules = Rules.from_dict(dict(record["rules"]))  # type: ignore[call-overload]
        hand = cls.deal(rules, deck=str(record["deck"]))
        for text in record["actions"]:  # type: ignore[attr-defined]
            hand.apply(text)
        return hand

    def __repr__(self) -> str:
        return (f"<Hand {self.phase.value}, to play: "
                f"{self.to_play.value if self.to_play else '-'}, stock {len(self.stock)}>")

    def _repr_html_(self) -> str:
        from .views.html import hand_html

        return hand_html(self)
