"""The review's exercise (notebook 08): two candidate discards in one position; which
loses less, and why?  Not a graded kata: :func:`check_discards` gives feedback only.

The answer is read from the evaluator (:func:`.evaluate.evaluate`, from the seat's view,
seeded), the reason from what the two discards change, as :func:`.classify.reason` reads
it: ``"opponent"`` (the worse discard fits cards the opponent was seen to take),
``"meld"`` (it breaks a meld the better one keeps), ``"deadwood"`` (the better one leaves
less deadwood), or ``"other"``.

>>> from box_gin import Hand
>>> hand = Hand.deal(seed=3); hand.apply("take")
>>> q = discard_question(hand.view("captain"), "KS", "2C", seed=1)
>>> q.better in (q.first, q.second), q.why in WHYS
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import ActionKind
from ..cards import Card
from ..hand import SeatView
from ..i18n import _, format_number
from ..knocking import best_discards
from .classify import _kept_meld, fits, signed
from .evaluate import evaluate

#: The reasons a learner may give, by key.
WHYS = ("opponent", "meld", "deadwood", "other")


def _card(card: Card | str) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


@dataclass(frozen=True, slots=True)
class DiscardQuestion:
    """Two discards of one position, each with its expected points for the seat."""

    view: SeatView
    first: Card
    second: Card
    values: dict[Card, float]

    @property
    def better(self) -> Card:
        """The discard of higher expected points (the first on a tie)."""
        return self.first if self.values[self.first] >= self.values[self.second] \
            else self.second

    @property
    def worse(self) -> Card:
        return self.second if self.better == self.first else self.first

    @property
    def gain(self) -> float:
        """The expected points the better discard is worth more."""
        return abs(self.values[self.first] - self.values[self.second])

    @property
    def why(self) -> str:
        """The reason's key (one of :data:`WHYS`), the first that applies."""
        worse, better = self.worse, self.better
        if fits(worse, self.view.opponent_known):
            return "opponent"
        if _kept_meld(self.view, worse, better) is not None:
            return "meld"
        analysis = best_discards(self.view.hand, self.view.rules)
        if analysis.deadwood_after.get(better, 99) < analysis.deadwood_after.get(worse, 99):
            return "deadwood"
        return "other"


def discard_question(view: SeatView, first: Card | str, second: Card | str,
                     seed: int = 0) -> DiscardQuestion:
    """The two discards of ``view`` (a seat about to discard) valued by the evaluator."""
    a, b = _card(first), _card(second)
    evaluation = evaluate(view, seed=seed)
    values = {v.action.card: v.value for v in evaluation.values
              if v.action.kind is ActionKind.DISCARD and v.action.card is not None}
    for card in (a, b):
        if card not in values:
            raise ValueError(_("{card}: not a card this seat may discard here").format(
                card=card.label))
    return DiscardQuestion(view, a, b, {a: values[a], b: values[b]})


def check_discards(question: DiscardQuestion, better: Card | str | None,
                   why: str | None) -> str:
    """Feedback on an answer: ``better``, the discard that loses less, and ``why``, one
    of :data:`WHYS`.  Says what is right, what is not, and the numbers."""
    if not better or not why:
        return _("Write your answer first: better = one of the two cards ({first} or "
                 "{second}); why = one of: {whys}.").format(
            first=repr(question.first), second=repr(question.second), whys=", ".join(WHYS))
    chosen = _card(better)
    values = _("Discarding the {first} is worth {v1} points on average; the {second}, "
               "{v2}.").format(first=question.first.label,
                               v1=signed(question.values[question.first]),
                               second=question.second.label,
                               v2=signed(question.values[question.second]))
    if chosen not in (question.first, question.second):
        return _("The {card} is not one of the two discards to compare.").format(
            card=chosen.label)
    if chosen != question.better:
        return _("Not quite: the {card} loses more.").format(card=chosen.label) + " " + values
    if why not in WHYS:
        return _("Right card. The reason must be one of: {whys}.").format(
            whys=", ".join(WHYS))
    if why != question.why:
        return _("Right card, but not the main reason: look again at what the {card} "
                 "does for your opponent and for your melds.").format(
            card=question.worse.label) + " " + values
    return _("Right, and for the right reason: the {card} gains {gain} points on "
             "average.").format(card=chosen.label, gain=format_number(question.gain, 1)) \
        + " " + values
