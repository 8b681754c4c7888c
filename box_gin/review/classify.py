"""Ratings and reasons: what a decision cost, in a word and in a sentence.

A decision's *loss* is the expected points its action gives up against the best action
of the same decision (:meth:`.evaluate.Evaluation.loss`).  Its rating is read from the
loss against the thresholds below (docs/review.md, "Ratings"):

>>> [rate(x).value for x in (0.0, 0.4, 1.5, 3.0, 7.0, 12.0)]
['best', 'best', 'good', 'inaccuracy', 'mistake', 'blunder']
"""

from __future__ import annotations

from enum import StrEnum

from ..actions import Action, ActionKind
from ..cards import Card
from ..hand import SeatView
from ..i18n import LRI, PDI, _, format_number, is_rtl, pgettext
from ..melds import Meld, best_melds
from .evaluate import Evaluation

#: A loss below this many points is rated best (within a tie of the best action) ...
BEST_BELOW = 0.5
#: ... below this, good ...
GOOD_BELOW = 2.0
#: ... below this, an inaccuracy ...
INACCURACY_BELOW = 5.0
#: ... below this, a mistake; from it up, a blunder.
MISTAKE_BELOW = 10.0


class Rating(StrEnum):
    """How good a decision was, from the points it gave up."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    def __repr__(self) -> str:
        return f"Rating.{self.name}"

    @property
    def label(self) -> str:
        """The rating's name in the language in use."""
        return {
            Rating.BEST: pgettext("rating", "best"),
            Rating.GOOD: pgettext("rating", "good"),
            Rating.INACCURACY: pgettext("rating", "inaccuracy"),
            Rating.MISTAKE: pgettext("rating", "mistake"),
            Rating.BLUNDER: pgettext("rating", "blunder"),
        }[self]

    @property
    def fine(self) -> bool:
        """Best or good: the decisions an accuracy figure counts."""
        return self in (Rating.BEST, Rating.GOOD)


def rate(loss: float) -> Rating:
    """The rating of a decision that gave up ``loss`` expected points."""
    if loss < BEST_BELOW:
        return Rating.BEST
    if loss < GOOD_BELOW:
        return Rating.GOOD
    if loss < INACCURACY_BELOW:
        return Rating.INACCURACY
    if loss < MISTAKE_BELOW:
        return Rating.MISTAKE
    return Rating.BLUNDER


def signed(value: float) -> str:
    """Points with one decimal and a sign, as the language in use writes them."""
    text = format_number(value, 1)
    text = text if value < 0 else "+" + text
    # Right to left, a sign would drift to the number's other end: keep it left to right.
    return LRI + text + PDI if is_rtl() else text


def fits(card: Card, others: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``others`` that ``card`` would make a meld with (a set of its rank, or
    a run of its suit through it); none if it makes none."""
    same = tuple(c for c in others if c.rank == card.rank)
    if len(same) >= 2:
        return same
    ranks = {c.rank for c in others if c.suit == card.suit}
    r = card.rank
    for low in (r - 2, r - 1, r):
        run = [x for x in (low, low + 1, low + 2) if x != r]
        if all(x in ranks for x in run):
            return tuple(c for c in others if c.suit == card.suit and c.rank in run)
    return ()


def _kept_meld(view: SeatView, played: Card, best: Card) -> Meld | None:
    """A meld of the hand the best discard leaves that holds the played card."""
    rest = [c for c in view.hand if c != best]
    for meld in best_melds(rest).melds:
        if played in meld:
            return meld
    return None


def reason(view: SeatView, evaluation: Evaluation, played: Action) -> str:
    """One sentence, in the language in use, on why the best action is better than the
    played one (or that the played one is the best), built from what changed."""
    best = evaluation.best
    mine = evaluation.of(played)
    loss = best.value - mine.value
    if rate(loss) is Rating.BEST:
        return _("The best choice here, worth {value} points on average.").format(
            value=signed(mine.value))
    knocks = (ActionKind.KNOCK, ActionKind.BIG_GIN)
    if (played.kind in knocks) != (best.action.kind in knocks):
        knock, wait = (mine, best) if played.kind in knocks else (best, mine)
        return _("Knocking now is worth {knock} points on average; waiting is worth "
                 "{wait}.").format(knock=signed(knock.value), wait=signed(wait.value))
    card, better = played.card, best.action.card
    if card is not None and better is not None and card != better:
        given = fits(card, view.opponent_known)
        if given:
            return _("The {card} fits the cards your opponent took from the pile "
                     "({cards}); discarding the {best} instead is worth {gain} points "
                     "more.").format(card=card.label, cards=" ".join(c.label for c in given),
                                     best=better.label, gain=format_number(loss, 1))
        meld = _kept_meld(view, card, better)
        if meld is not None:
            cards = " ".join(c.label for c in meld)
            if meld.is_run:
                text = _("Discarding the {best} keeps the run {cards}, which the {card} "
                         "breaks: {gain} points more on average.")
            else:
                text = _("Discarding the {best} keeps the set {cards}, which the {card} "
                         "breaks: {gain} points more on average.")
            return text.format(best=better.label, cards=cards, card=card.label,
                               gain=format_number(loss, 1))
    return _("{best} is worth {best_value} points on average; {played} is worth "
             "{value}.").format(best=best.action.label, best_value=signed(best.value),
                                played=played.label, value=signed(mine.value))
