"""The Scoring widget: step through the end of a hand, one lay-out and layoff at a time.

>>> widget = ScoringWidget.from_cards(knocker="5H 6H 7H KC KD KS 2C 2D 2S 4C",
...                                   defender="8H 9H KH 3C 3D 3S AC 5D QD JS")
>>> widget.steps
6
>>> for _ in range(5):
...     widget.buttons["next"].click()
>>> widget.result.points == widget.result.defender_layout.deadwood_value - 4
True
"""

from __future__ import annotations

from ..bots import greedy_bot
from ..cards import Card, CardsLike, full_deck, to_cards
from ..errors import InvalidCardError
from ..hand import Hand, HandResult, Outcome
from ..i18n import _
from ..melds import Arrangement
from ..rules import STANDARD, Rules
from ..views.cards import STYLE
from ..views.html import arrangement_html, layoff_step_html, score_html
from .base import BoxGinWidget, button_row, readout, text_html


def knock_hand(knocker: CardsLike, defender: CardsLike, knock_card: Card | str | None = None,
               rules: Rules = STANDARD) -> Hand:
    """A hand played to a knock through the engine: the captain holds ``knocker`` (10
    cards) and ``knock_card``, the box ``defender`` (10 cards); the captain takes the
    upcard and knocks, discarding ``knock_card`` (default: the highest card left)."""
    mine, theirs = to_cards(knocker), to_cards(defender)
    if len(mine) != 10 or len(theirs) != 10:
        raise InvalidCardError(_("a knock is scored from 10 cards on each side"))
    rest = [c for c in full_deck() if c not in mine and c not in theirs]
    if knock_card is None:
        card = max(rest, key=lambda c: (c.value, c))
    else:
        card = Card.parse(knock_card) if isinstance(knock_card, str) else knock_card
    rest.remove(card)
    captain = [*mine[1:], card]
    deck: list[Card] = []
    for c_card, b_card in zip(captain, theirs, strict=True):
        deck += [c_card, b_card]
    deck += [mine[0], *rest]
    hand = Hand.deal(rules, deck=deck)
    hand.apply("take")
    hand.apply(f"knock {card!r}")
    return hand


def knocked_hand(seed: int, rules: Rules = STANDARD, tries: int = 200) -> Hand:
    """The first hand from ``seed`` on that greedy bots play to a knock (not a draw)."""
    for s in range(seed, seed + tries):
        hand = Hand.deal(rules, seed=s)
        while not hand.is_over:
            role = hand.to_play
            assert role is not None
            hand.apply(greedy_bot(hand.view(role)))
        if hand.result is not None and hand.result.outcome is not Outcome.DRAWN:
            return hand
    raise RuntimeError(f"no knock in {tries} hands")  # pragma: no cover


class ScoringWidget(BoxGinWidget):
    """The end of a hand, step by step: the knocker's melds, the defender's melds, each
    layoff in turn, then the score and how it was counted.

    Parts: ``buttons`` "back", "next", "restart"; read-outs ``step_readout``,
    ``stage``, ``score_readout``.  State: ``step`` (0 to ``steps - 1``), ``result``.
    """

    css_class = "bg-scoring-widget"

    def __init__(self, hand: Hand | None = None, *, seed: int = 1,
                 rules: Rules = STANDARD) -> None:
        super().__init__()
        self.hand = hand if hand is not None else knocked_hand(seed, rules)
        if self.hand.result is None or self.hand.result.outcome is Outcome.DRAWN:
            raise ValueError(_("the Scoring widget needs a hand that ended with a knock"))
        self.result: HandResult = self.hand.result
        self.rules = self.hand.rules
        self.step = 0
        self.step_readout = readout("bg-step")
        self.stage = readout("bg-stage")
        self.score_readout = readout("bg-score-readout")
        controls = button_row([self._button("back", self.back),
                               self._button("next", self.next),
                               self._button("restart", self.restart)])
        self._start([controls, self.step_readout, self.stage, self.score_readout])

    @classmethod
    def from_cards(cls, knocker: CardsLike, defender: CardsLike,
                   knock_card: Card | str | None = None, rules: Rules = STANDARD
                   ) -> ScoringWidget:
        """Score a knock between these two 10-card hands (see :func:`knock_hand`)."""
        return cls(knock_hand(knocker, defender, knock_card, rules))

    @property
    def steps(self) -> int:
        """How many steps: knocker, defender, one per layoff, the score."""
        assert self.result.defender_layout is not None
        return 3 + len(self.result.defender_layout.layoffs)

    def next(self) -> None:
        """One step on."""
        self.step = min(self.step + 1, self.steps - 1)
        self.render()

    def back(self) -> None:
        """One step back."""
        self.step = max(self.step - 1, 0)
        self.render()

    def restart(self) -> None:
        """Back to the knock."""
        self.step = 0
        self.render()

    def _labels(self) -> dict[str, str]:
        return {"back": _("Back"), "next": _("Next"), "restart": _("Restart")}

    def render(self) -> None:
        """Show the current step."""
        result = self.result
        knocker, defender = result.knocker, result.defender
        layout, defence = result.knocker_layout, result.defender_layout
        assert knocker and defender and layout and defence
        self.buttons["back"].disabled = self.step == 0
        self.buttons["next"].disabled = self.step == self.steps - 1
        self.step_readout.value = text_html(
            _("Step {n} of {total}").format(n=self.step + 1, total=self.steps), "bg-step-text")
        n_layoffs = len(defence.layoffs)
        if self.step == 0:
            gin = result.outcome in (Outcome.GIN, Outcome.BIG_GIN)
            card = result.knock_card.label if result.knock_card is not None else ""
            if gin and card:
                said = _("The {role} goes gin, discarding the {card}, and lays out:")
            elif gin:
                said = _("The {role} goes gin with all eleven cards and lays out:")
            else:
                said = _("The {role} knocks, discarding the {card}, and lays out:")
            text = said.format(role=knocker.label, card=card)
            body = arrangement_html(layout)
        elif self.step == 1:
            loose = tuple(sorted([*defence.deadwood, *(lo.card for lo in defence.layoffs)]))
            if result.outcome in (Outcome.GIN, Outcome.BIG_GIN):
                said = _("The {role} lays out its own melds. After gin there are no layoffs.")
            elif not n_layoffs:
                said = _("The {role} lays out its own melds. None of its cards fit the "
                         "knocker's melds.")
            else:
                said = _("The {role} lays out its own melds:")
            text = said.format(role=defender.label)
            body = arrangement_html(Arrangement(defence.melds, loose))
        elif self.step < 2 + n_layoffs:
            done = defence.layoffs[: self.step - 1]
            last = done[-1]
            text = _("The {role} lays off the {card} onto {meld}.").format(
                role=defender.label, card=last.card.label,
                meld=" ".join(c.label for c in last.onto.cards))
            body = layoff_step_html(layout.melds, done)
        else:
            text = _("The {role}'s deadwood after layoffs: {value}.").format(
                role=defender.label, value=defence.deadwood_value)
            # Both sides, each under its name: the knocker's melds with the cards laid off
            # on them, then what the defender keeps.
            body = (text_html(_("Knocker: the {role}").format(role=knocker.label),
                              "bg-stage-label bg-knocker-label")
                    + layoff_step_html(layout.melds, defence.layoffs)
                    + text_html(_("Defender: the {role}").format(role=defender.label),
                                "bg-stage-label bg-defender-label")
                    + arrangement_html(defence.arrangement))
        self.stage.value = STYLE + text_html(text, "bg-stage-text") + body
        final = self.step == self.steps - 1
        self.score_readout.value = score_html(result, self.rules) if final else ""

    def static_html(self) -> str:
        """The current step as plain HTML."""
        return "".join(str(r.value) for r in (self.step_readout, self.stage, self.score_readout))
