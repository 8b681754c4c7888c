"""The expert: a bot that reads the unseen cards, what its opponent took and threw, and
what it is likely to throw next (:func:`expert_choice`, :func:`expert_bot`,
:func:`expert_advise`).

What the expert knows, from its seat's view alone: its own cards, the discard pile
(dead cards, but for the top one), the cards its opponent took from the pile and still
holds (what it collects), and what the opponent threw away or let go by (what it does
not).  Every other card is *unseen*: in the stock or in the opponent's hand.  It
weighs each discard by the deadwood it leaves, by what the next draw may bring (the
least deadwood over every unseen card, averaged, and the chance to knock within one
and two draws), and by the chance that the opponent melds the card it throws.  The
next draw may also be the opponent's next discard: a player throws away the card it
least needs, most often a high one, and rarely one worth more than the card it threw
last (it would have thrown that first), so the expert keeps the cards that would meld
with what its opponent is likely to throw.  It takes
a discard that melds and lowers its deadwood, or lets it knock at once; and it knocks
as soon as it may (waiting for a safer knock measured worse against a fast knocker).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind, discard
from ..cards import BY_INDEX, Card
from ..hand import Phase, Role, SeatView
from ..i18n import _, format_number
from ..match import SitterView
from .simple import Advice, require_turn

_ALL = (1 << 52) - 1


def neighbours(index: int) -> int:
    """The cards that meld with the card of ``index``, as a mask: its rank, and its suit
    at two ranks either side (the review's rollout keeps such cards too)."""
    rank, suit = index % 13, index // 13
    out = 0
    for s in range(4):
        out |= 1 << (s * 13 + rank)
    for r in range(max(0, rank - 2), min(12, rank + 2) + 1):
        out |= 1 << (suit * 13 + r)
    return out & ~(1 << index)


_NEAR = [neighbours(i) for i in range(52)]
_VALUE_OF = [min(i % 13 + 1, 10) for i in range(52)]


def _pattern_bits() -> list[tuple[int, ...]]:
    """:data:`_PATTERN_BITS`, built the first time the expert reads a view (not at every
    import of the kit: each bot's child and kernel imports it, few use it): each pattern's
    from the one without its lowest card."""
    if not _PATTERN_BITS:
        out: list[tuple[int, ...]] = [()] * 8192
        for p in range(1, 8192):
            out[p] = ((p & -p).bit_length() - 1, *out[p & (p - 1)])
        _PATTERN_BITS[:] = out
    return _PATTERN_BITS


#: The card indices of each 13-bit suit pattern, to list a mask's cards quickly.
_PATTERN_BITS: list[tuple[int, ...]] = []
_CARD_BY_TEXT = {str(c): c for c in BY_INDEX}


def _bits(mask: int) -> list[int]:
    """The card indices of a mask, in index order."""
    pb = _PATTERN_BITS or _pattern_bits()
    return [*pb[mask & 0x1FFF], *(13 + r for r in pb[mask >> 13 & 0x1FFF]),
            *(26 + r for r in pb[mask >> 26 & 0x1FFF]), *(39 + r for r in pb[mask >> 39])]


@dataclass(frozen=True, slots=True)
class _Reading:
    """What the expert reads from a view (masks of card bits)."""

    mine: int
    unseen: int
    #: The indices of the unseen cards.
    unseen_cards: tuple[int, ...]
    #: For each card index, the chance that the opponent holds it.
    held: tuple[float, ...]
    #: How many times the opponent has drawn (its turns so far).
    turns: int
    #: (card index, chance) for each unseen card: the chance that it is the opponent's
    #: next discard.
    thrown: tuple[tuple[int, float], ...] = ()


def _read(view: SeatView) -> _Reading:
    from ..kernels import mask_of

    mine = mask_of(view.hand)
    pile = mask_of(view.discard_pile)
    known = mask_of(view.opponent_known)
    opponent = view.role.opponent if view.role is not Role.SITTER else Role.BOX
    shed = 0  # cards the opponent threw away or let go by
    turns = 0
    # The pile as it went; None stands for the first upcard, which the history does not
    # name (it is the bottom of the pile now if nobody ever took it).
    stack: list[Card | None] = [None]
    upcard_shed = False
    last_thrown = 10  # the value of the opponent's last discard
    for role, text in view.history:
        kind, _sep, rest = text.partition(" ")
        if role is opponent:
            if text in ("draw stock", "pass") and stack:
                if stack[-1] is None:
                    upcard_shed = True
                else:
                    shed |= stack[-1].bit
            if kind in ("draw", "take"):
                turns += 1
        if text in ("draw discard", "take"):
            if stack:
                stack.pop()
        elif kind in ("discard", "knock") and rest:
            card = _CARD_BY_TEXT[rest.split()[0]]
            stack.append(card)
            if role is opponent:
                shed |= card.bit
                last_thrown = card.value
    if upcard_shed and stack and stack[0] is None and view.discard_pile:
        shed |= view.discard_pile[0].bit
    unseen = _ALL & ~(mine | pile | known)
    hidden = max(0, view.opponent_card_count - len(view.opponent_known))
    count = unseen.bit_count()
    p = hidden / count if count else 0.0
    held = [0.0] * 52
    for i in _bits(unseen):
        # A card that melds with one the opponent gave up is less likely in its hand.
        held[i] = p * (0.6 if _NEAR[i] & shed else 1.0)
    for i in _bits(known):
        held[i] = 1.0
    cards = tuple(_bits(unseen))
    return _Reading(mine, unseen, cards, tuple(held), turns,
                    _next_discards(cards, held, last_thrown))


#: How much less likely the opponent's next discard is a card worth more than its last
#: one, and the power of a card's value in the chance that it is thrown.
_ABOVE_LAST, _VALUE_POWER = 0.1, 2


def _next_discards(cards: tuple[int, ...], held: list[float], last: int
                   ) -> tuple[tuple[int, float], ...]:
    """For each unseen card, the chance that the opponent throws it next: the chance
    that it holds the card, times the card's value squared, less for a card worth more
    than its last discard."""
    weights = [(i, held[i] * _VALUE_OF[i] ** _VALUE_POWER
                * (_ABOVE_LAST if _VALUE_OF[i] > last else 1.0)) for i in cards]
    total = sum(w for _i, w in weights)
    return tuple((i, w / total) for i, w in weights) if total else ()


def _danger(index: int, held: tuple[float, ...]) -> float:
    """The chance (roughly) that the opponent melds the card of ``index``: two more of
    its rank, or two neighbours in its suit, in the opponent's hand."""
    rank, suit = index % 13, index // 13
    others = [held[s * 13 + rank] for s in range(4) if s != suit]
    chance = others[0] * others[1] + others[0] * others[2] + others[1] * others[2]
    base = suit * 13

    def h(r: int) -> float:
        return held[base + r] if 0 <= r < 13 else 0.0

    chance += h(rank - 2) * h(rank - 1) + h(rank - 1) * h(rank + 1) + h(rank + 1) * h(rank + 2)
    return min(1.0, chance)


def _outlook(hand: int, cards: tuple[int, ...], now: int, limit: int,
             thrown: tuple[tuple[int, float], ...] = ()) -> tuple[float, float]:
    """After the next draw from the stock (each unseen card, of indices ``cards``, as
    likely): the deadwood expected (keeping ``now`` when the card drawn would not help)
    and the chance of being able to knock.  With ``thrown`` (the chance of each card
    being the opponent's next discard), the next draw is that discard when it beats the
    stock, the stock otherwise."""
    from ..kernels import least_after

    if not cards:
        return float(now), 0.0
    total = knocks = 0
    after = {}
    for i in cards:
        dead = min(least_after(hand | 1 << i, -1), now)
        after[i] = dead
        total += dead
        knocks += dead <= limit
    expected, chance = total / len(cards), knocks / len(cards)
    if not thrown:
        return expected, chance
    mixed = mixed_chance = 0.0
    for i, share in thrown:
        dead = after[i]
        if dead <= limit:  # take it and knock
            mixed += share * dead
            mixed_chance += share
        elif dead < expected:  # take it
            mixed += share * dead
        else:  # draw from the stock
            mixed += share * expected
            mixed_chance += share * chance
    return mixed, mixed_chance


#: The expert's weights: the deadwood kept now, the deadwood expected after the next
#: draw, the chance of knocking after it (in points), and the points a card the
#: opponent melds is worth to it at the start of a hand ...
EXPERT_WEIGHTS = (0.0, 1.0, 40.0, 2.0)
#: ... and how many more points for each turn the opponent has played (a meld fed late
#: is more often the one it knocks with).
DANGER_PER_TURN = 1.0


def _best_discard(view: SeatView, reading: _Reading, mask: int, forbidden: int
                  ) -> tuple[int, int]:
    """(the index of the card to discard, the deadwood left) for an 11-card ``mask``."""
    from ..kernels import min_deadwood

    now_w, next_w, knock_w, danger_w = EXPERT_WEIGHTS
    danger = danger_w + DANGER_PER_TURN * reading.turns
    limit = view.knock_limit
    deads = {i: min_deadwood(mask & ~(1 << i)) for i in _bits(mask) if i != forbidden}
    least = min(deads.values())
    scored = []
    for i, dead in deads.items():
        if dead > least + 10:
            continue
        rest = mask & ~(1 << i)
        expected, knock_chance = _outlook(rest, reading.unseen_cards, dead, limit,
                                          reading.thrown)
        score = (now_w * dead + next_w * expected - knock_w * knock_chance
                 + danger * _danger(i, reading.held))
        scored.append((score, -_VALUE_OF[i], i))
    scored.sort()
    if LOOKAHEAD and len(scored) > 1:
        # The closest few, looked at two draws ahead: the chance to knock by then.
        top = [(score - LOOKAHEAD * _knock_in_two(mask & ~(1 << i), reading.unseen_cards,
                                                  limit, reading.thrown), v, i)
               for score, v, i in scored[:_LOOK_AT]]
        scored = sorted(top)
    index = scored[0][2]
    return index, deads[index]


#: The weight, in points, of the chance to knock within two draws (0: look one ahead).
LOOKAHEAD = 20.0
#: How many of the best discards by one draw are looked at two draws ahead.
_LOOK_AT = 3


def _knock_in_two(hand: int, cards: tuple[int, ...], limit: int,
                  thrown: tuple[tuple[int, float], ...] = ()) -> float:
    """The chance of knocking within two draws from the stock, shedding the card that
    leaves the least deadwood after the first.  With ``thrown`` (as for
    :func:`_outlook`), the first draw is the opponent's next discard when that gives the
    better chance."""
    from ..kernels import discard_table, least_after

    if not cards:
        return 0.0
    n = len(cards)
    chance = {}
    for i in cards:
        drawn = hand | 1 << i
        rows = discard_table(drawn)
        best = min(rows, key=lambda r: r[3])
        if best[3] <= limit:
            chance[i] = 1.0
            continue
        kept = drawn & ~(1 << best[2])
        chance[i] = sum(1 for j in cards if j != i and least_after(kept | 1 << j, -1) <= limit
                        ) / (n - 1 or 1)
    stock = sum(chance.values()) / n
    if not thrown:
        return stock
    return sum(share * max(chance[i], stock) for i, share in thrown)


def _takes(taken: int, now: int, melds: bool, limit: int) -> bool:
    """Whether to take the top discard, which leaves ``taken`` deadwood (``now``: before;
    ``melds``: the card goes into a meld): when it melds and lowers the deadwood, or
    lets the seat knock at once."""
    return (melds and taken < now) or taken <= limit


def expert_choice(view: SeatView | SitterView) -> tuple[Action, str]:
    """The expert's action for the seat to play, with its reason in words."""
    if isinstance(view, SitterView):
        view = view.captain
    require_turn(view)
    from ..kernels import least_after, mask_of, min_deadwood

    reading = _read(view)
    legal = view.legal_actions
    top = view.top_discard
    if view.phase in (Phase.UPCARD_OFFER, Phase.DRAW):
        can_take = top is not None and (view.phase is Phase.UPCARD_OFFER
                                        or DRAW_DISCARD in legal)
        stock_action = PASS if view.phase is Phase.UPCARD_OFFER else DRAW_STOCK
        if not can_take or top is None:
            return stock_action, _("after both passes the first draw is from the stock")
        now = min_deadwood(reading.mine)
        skip = -1 if view.rules.may_discard_taken_card else top.index
        taken = least_after(reading.mine | top.bit, skip)
        stock, _chance = _outlook(reading.mine, reading.unseen_cards, now, view.knock_limit)
        take = TAKE if view.phase is Phase.UPCARD_OFFER else DRAW_DISCARD
        # The card melds when keeping it as deadwood would leave more.
        melds = taken < least_after(reading.mine, -1) + top.value
        if _takes(taken, now, melds, view.knock_limit):
            if taken < stock:
                return take, _(
                    "the {card} brings your deadwood from {before} down to {after}, better "
                    "than the stock's {expected} on average").format(
                    card=top.label, before=now, after=taken, expected=format_number(stock, 1))
            return take, _(
                "the {card} makes a meld and brings your deadwood from {before} down to "
                "{after}").format(card=top.label, before=now, after=taken)
        if taken >= stock:
            return stock_action, _(
                "the stock brings your deadwood to {expected} on average, the {card} "
                "only to {after}").format(expected=format_number(stock, 1), card=top.label,
                                          after=taken)
        if view.phase is Phase.UPCARD_OFFER:
            return stock_action, _("the {card} makes no meld that lowers your deadwood "
                                   "({now})").format(card=top.label, now=now)
        return stock_action, _("the {card} on the pile would not help you: try the stock"
                               ).format(card=top.label)
    mask = mask_of(view.hand)
    if any(a.kind is ActionKind.BIG_GIN for a in legal):
        return Action(ActionKind.BIG_GIN), _("all eleven of your cards are melded")
    forbidden = -1
    if not view.rules.may_discard_taken_card and view.taken_card is not None:
        forbidden = view.taken_card.index
    index, dead = _best_discard(view, reading, mask, forbidden)
    card = BY_INDEX[index]
    knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
    if knocks:
        # The knock that leaves the least deadwood, the highest card first.
        values = {a: min_deadwood(mask & ~a.card.bit) for a in knocks if a.card}
        least = min(values.values())
        best_knock = max((a for a in knocks if values[a] == least),
                         key=lambda a: (a.card.value, a.card) if a.card else (0, card))
        if least == 0:
            return best_knock, _("discard the {card} and every other card is melded: gin"
                                 ).format(card=best_knock.card.label if best_knock.card else "")
        # It knocks as soon as it may: waiting while an undercut looked likely was
        # measured, and lost races against a fast knocker.
        return best_knock, _(
            "discard the {card} and knock with {value}: your opponent's deadwood is "
            "likely higher").format(card=best_knock.card.label if best_knock.card else "",
                                    value=least)
    return discard(card), _(
        "discard the {card}: it leaves {value} deadwood, keeps your best chances for the "
        "next draw, and your opponent is unlikely to meld it").format(
        card=card.label, value=dead)


def expert_bot(view: SeatView | SitterView) -> Action:
    """The expert: reads the unseen cards, the opponent's pickups and discards and what
    it is likely to throw next, and keeps the cards its opponent needs (see
    :func:`expert_choice`)."""
    return expert_choice(view)[0]


def expert_advise(view: SeatView | SitterView) -> Advice:
    """The expert sitter's advice for the captain it watches, with its reason."""
    action, reason = expert_choice(view)
    return Advice(action, reason)
