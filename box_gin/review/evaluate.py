"""The evaluator: the expected points of every legal action, from what the seat knew.

:func:`evaluate` reads one :class:`~box_gin.hand.SeatView` and nothing else, so it cannot
use a card the seat could not see: the unseen cards (neither in the seat's hand, nor in
the discard pile, nor among the cards its opponent took from the pile and still holds)
are dealt again between the opponent's hidden cards and the stock, every way (when there
are few ways) or at random (:class:`~.playout.SplitMix64`, from ``seed``).  In each such
*world* every legal action is played, then the greedy rollout policy plays both sides to
the hand's end (:mod:`.playout`); an action's value is its mean score, signed for the
seat.  Every action meets the same worlds (common random numbers), so their differences
are measured far more precisely than their values.  Worlds are added in batches until the
best action is separated from the second (a paired test), or the two are shown to be
within :data:`TIE_MARGIN` of each other, or :data:`MAX_WORLDS` is reached.  Sampled values
are *cross-fitted*: those worlds only choose the best action; every action is then valued
on as many fresh worlds (at least :data:`FRESH_WORLDS`), drawn after the choice, so that
a loss is neither read on the worlds that made the best look best (the winner's curse)
nor when a stopping rule found it large.

>>> from box_gin import Hand
>>> hand = Hand.deal(seed=3)
>>> evaluation = evaluate(hand.view("captain"), seed=1)
>>> [str(v.action) for v in evaluation.values]
['take', 'pass']
>>> evaluation.best.action in hand.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb, perm, sqrt

from ..actions import Action, ActionKind
from ..errors import IllegalActionError
from ..hand import Phase, Role, SeatView
from ..i18n import _
from ..rules import DRAW_AT_STOCK
from . import playout as po

#: Every consistent deal is enumerated when there are at most this many (the cards below
#: the last one that can still be drawn are not told apart).
EXACT_LIMIT = 1024
#: Worlds are sampled in batches of this many, at least :data:`MIN_WORLDS` of them ...
BATCH = 48
MIN_WORLDS = 48
#: ... and at most this many.
MAX_WORLDS = 960
#: The best action is separated from the second when their mean difference exceeds this
#: many standard errors of the paired differences ...
SEPARATION = 3.0
#: ... and the two are a tie once the difference is surely (by the same margin of
#: standard errors) less than this many points.
TIE_MARGIN = 0.5
#: Cross-fitted, the actions are valued on at least this many fresh worlds (no more than
#: the most worlds asked for), however few chose the best.
FRESH_WORLDS = 480

_CODES = {
    ActionKind.TAKE: po.TAKE, ActionKind.PASS: po.PASS, ActionKind.DRAW_STOCK: po.DRAW_STOCK,
    ActionKind.DRAW_DISCARD: po.DRAW_DISCARD, ActionKind.DISCARD: po.DISCARD,
    ActionKind.KNOCK: po.KNOCK, ActionKind.BIG_GIN: po.BIG_GIN,
}
_PHASES = {Phase.UPCARD_OFFER: po.OFFER, Phase.DRAW: po.DRAW, Phase.DISCARD: po.DISCARD_PHASE}


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One legal action and its expected points for the seat, with the standard error
    of its difference from the best action (0 for the best, and when exact)."""

    action: Action
    value: float
    stderr: float


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every legal action of one decision with its expected points, in legal order."""

    seat: Role
    values: tuple[ActionValue, ...]
    #: How many worlds were played (each with every action).
    worlds: int
    #: Whether the worlds were every consistent deal (the values are then exact).
    exact: bool
    #: Whether the best action is surely better than the second (False: a tie).
    separated: bool
    #: The place in :attr:`values` of the best action.
    best_index: int = 0
    #: How many worlds chose the best action: :attr:`worlds` again when the values are
    #: exact, or were read on the same worlds; otherwise other worlds than those that
    #: valued the actions (cross-fitting).
    chosen_on: int = 0

    @property
    def best(self) -> ActionValue:
        """The best action: the one of highest value on the worlds that chose it (the
        first in legal order among equals).  Cross-fitted, another action's value on the
        fresh worlds may come out a little higher: its loss is then 0."""
        return self.values[self.best_index]

    @property
    def ranked(self) -> tuple[ActionValue, ...]:
        """The best action, then the others from the highest value down (legal order
        among equals)."""
        return (self.best, *sorted((v for i, v in enumerate(self.values)
                                    if i != self.best_index), key=lambda v: -v.value))

    def of(self, action: Action) -> ActionValue:
        """The value of ``action`` (matched by kind and card: a knock's named lay-out is
        valued as the engine's best lay-out)."""
        for v in self.values:
            if v.action.kind is action.kind and v.action.card == action.card:
                return v
        raise IllegalActionError(
            _("{action}: not one of the legal actions of this decision").format(action=action))

    def loss(self, action: Action) -> float:
        """The expected points ``action`` gives up against the best action."""
        return max(0.0, self.best.value - self.of(action).value)


@dataclass(frozen=True, slots=True)
class Position:
    """What the seat knows, as masks and indices (see :func:`position`)."""

    seat: int
    own: int
    known: int
    pile: tuple[int, ...]
    unseen: tuple[int, ...]
    hidden: int          # how many of the opponent's cards are unknown
    stock_size: int
    phase: int
    taken: int
    params: po.Params

    def world(self, opponent: tuple[int, ...] | list[int], stock: list[int]) -> po.World:
        """The world where the opponent's unknown cards are ``opponent`` and the stock
        is ``stock`` (top last)."""
        hands = [0, 0]
        hands[self.seat] = self.own
        hidden = self.known
        for c in opponent:
            hidden |= 1 << c
        hands[1 - self.seat] = hidden
        return po.World(hands, stock, list(self.pile), self.seat, self.phase, self.taken,
                        False)

    @property
    def deals(self) -> int:
        """How many deals :meth:`every_deal` lists."""
        rest = len(self.unseen) - self.hidden
        return comb(len(self.unseen), self.hidden) * perm(rest, self._drawable)

    @property
    def _drawable(self) -> int:
        # At most stock - DRAW_AT_STOCK more cards are drawn from the stock in this hand.
        return max(0, min(self.stock_size, self.stock_size - DRAW_AT_STOCK))

    def every_deal(self) -> Iterator[po.World]:
        """Every consistent deal, each once: the opponent's unknown cards, then the order
        of the stock's cards that can still be drawn (those below are left in one order)."""
        for opponent in combinations(self.unseen, self.hidden):
            rest = [c for c in self.unseen if c not in opponent]
            for prefix in permutations(rest, self._drawable):
                below = [c for c in rest if c not in prefix]
                yield self.world(opponent, below + list(reversed(prefix)))

    def sample(self, rng: po.SplitMix64) -> po.World:
        """A deal drawn uniformly: the unseen cards shuffled, the opponent's first."""
        cards = list(self.unseen)
        po.shuffle(rng, cards)
        return self.world(cards[:self.hidden], cards[self.hidden:])


def position(view: SeatView, doubled: bool = False) -> Position:
    """What ``view``'s seat knows, for the playouts (``doubled``: the hand's score is
    doubled, which the first upcard, face up, told everyone)."""
    if not view.legal_actions:
        raise IllegalActionError(
            _("it is not the {role}'s turn: there is nothing to review").format(
                role=view.role.label))
    seat = po.BOX if view.role is Role.BOX else po.CAPTAIN
    own = sum(c.bit for c in view.hand)
    known = sum(c.bit for c in view.opponent_known)
    pile = tuple(c.index for c in view.discard_pile)
    seen = own | known
    for c in pile:
        seen |= 1 << c
    unseen = tuple(i for i in range(52) if not seen >> i & 1)
    hidden = view.opponent_card_count - len(view.opponent_known)
    assert len(unseen) == hidden + view.stock_size, "the cards do not add up to 52"
    taken = view.taken_card.index if view.taken_card is not None else -1
    params = po.Params.of(view.rules, view.knock_limit, doubled)
    return Position(seat, own, known, pile, unseen, hidden, view.stock_size,
                    _PHASES[view.phase], taken, params)


def action_code(action: Action) -> tuple[int, int]:
    """An action as the playouts read it: (action code, card index or -1)."""
    return _CODES[action.kind], action.card.index if action.card is not None else -1


def _stats(totals: list[int], squares: list[int], n: int, best: int, other: int,
           cross: list[list[int]]) -> tuple[float, float]:
    """(mean, standard error) of the paired difference best - other over n worlds."""
    mean = (totals[best] - totals[other]) / n
    if n < 2:
        return mean, 0.0
    # sum of (b - o)^2 = sum b^2 - 2 sum b o + sum o^2
    ss = squares[best] - 2 * cross[best][other] + squares[other] - n * mean * mean
    return mean, sqrt(max(0.0, ss) / (n - 1) / n)


def evaluate(view: SeatView, *, seed: int = 0, doubled: bool = False,
             exact_limit: int = EXACT_LIMIT, min_worlds: int = MIN_WORLDS,
             max_worlds: int = MAX_WORLDS, batch: int = BATCH,
             played: Action | None = None, fresh: bool = True,
             fresh_worlds: int = FRESH_WORLDS) -> Evaluation:
    """The expected points of each legal action of ``view``'s seat (see the module's
    docstring).  The same view and seed give the same values.  With ``played`` (the
    action the seat played), sampling also goes on until the best action is separated
    from that one too, or the two are a tie: the loss a review reads is then measured,
    not left to the noise of the first batches.  With ``fresh`` (the default) sampled
    values are read on fresh worlds, as many as chose the best action and at least
    ``fresh_worlds`` (or ``max_worlds`` if fewer); without, on the same worlds
    (quicker, and biased: the best's lead over the others comes out too large)."""
    pos = position(view, doubled)
    actions = list(view.legal_actions)
    codes = [action_code(a) for a in actions]
    m = len(actions)
    mine = -1 if played is None else _index(actions, played)
    totals, squares = [0] * m, [0] * m
    cross = [[0] * m for _i in range(m)]
    n = 0

    def play(world: po.World) -> None:
        nonlocal n
        points = po.finish_each(world, pos.params, pos.seat, codes)
        for i, p in enumerate(points):
            totals[i] += p
            squares[i] += p * p
            row = cross[i]
            for j in range(i + 1, m):
                row[j] += p * points[j]
        n += 1

    exact = pos.deals <= exact_limit
    rng = po.SplitMix64(seed)
    separated = False
    if exact:
        for world in pos.every_deal():
            play(world)
    else:
        while n < max_worlds:
            for _i in range(min(batch, max_worlds - n)):
                play(pos.sample(rng))
            if m < 2 or n < min_worlds:
                continue
            b, o = _top_two(totals)
            full = _symmetric(cross)
            mean, se = _stats(totals, squares, n, b, o, full)
            separated = mean > SEPARATION * se and mean > 0
            if not (separated or mean + SEPARATION * se < TIE_MARGIN):
                continue
            if mine in (-1, b, o) or _resolved(*_stats(totals, squares, n, b, mine, full)):
                break
    b = _top_two(totals)[0] if m else 0
    chosen_on = n
    if fresh and not exact and m > 1:
        # Cross-fitting: the worlds above chose b; every action is valued again on as
        # many fresh worlds (at least fresh_worlds, up to max_worlds), drawn on from the
        # same generator after the choice.
        totals, squares = [0] * m, [0] * m
        cross = [[0] * m for _i in range(m)]
        n = 0
        for _i in range(max(chosen_on, min(fresh_worlds, max_worlds))):
            play(pos.sample(rng))
    values: list[ActionValue] = []
    full = _symmetric(cross)
    for i, action in enumerate(actions):
        se = 0.0 if exact or i == b else _stats(totals, squares, n, b, i, full)[1]
        values.append(ActionValue(action, totals[i] / max(n, 1), se))
    if exact and m > 1:
        b, o = _top_two(totals)
        separated = totals[b] > totals[o]
    return Evaluation(view.role, tuple(values), n, exact, separated, b, chosen_on)


def _resolved(mean: float, se: float) -> bool:
    """Whether a paired difference is surely positive, or surely below the tie margin."""
    return (mean > SEPARATION * se and mean > 0) or mean + SEPARATION * se < TIE_MARGIN


def _index(actions: list[Action], played: Action) -> int:
    """The place of ``played`` among ``actions`` (by kind and card, as
    :meth:`Evaluation.of` matches it)."""
    for i, a in enumerate(actions):
        if a.kind is played.kind and a.card == played.card:
            return i
    raise IllegalActionError(
        _("{action}: not one of the legal actions of this decision").format(action=played))


def _top_two(totals: list[int]) -> tuple[int, int]:
    """The indices of the highest total and the next (the first among equals)."""
    order = sorted(range(len(totals)), key=lambda i: -totals[i])
    return order[0], order[1] if len(order) > 1 else order[0]


def _symmetric(cross: list[list[int]]) -> list[list[int]]:
    m = len(cross)
    return [[cross[min(i, j)][max(i, j)] for j in range(m)] for i in range(m)]
