"""The Knock Trainer: eleven cards; click a discard; may you knock?  Then the best choice.

>>> trainer = KnockTrainer("2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD")
>>> trainer.card_button("KD").click()
>>> trainer.chosen, trainer.analysis.deadwood_after[trainer.chosen]
(KD, 5)
"""

from __future__ import annotations

from ..bots import greedy_bot
from ..cards import Card, CardsLike, to_cards
from ..hand import Hand
from ..i18n import _
from ..knocking import DiscardAnalysis, best_discards
from ..rules import STANDARD, Rules
from ..views.cards import STYLE
from ..views.html import arrangement_html, discard_analysis_html
from .base import BoxGinWidget, CardButton, button_row, card_row, readout, text_html

#: A dealt position is shown when its least deadwood is within this much of the limit.
NEAR = 4


class KnockTrainer(BoxGinWidget):
    """Given 11 cards (10 plus the one just taken), click the card to discard.

    The read-outs show the deadwood the discard leaves and whether you may knock or go
    gin; Reveal shows the best discards for every card.  Without ``cards``, the trainer
    finds a position from play (see :meth:`_deal`); if its player had just taken the top
    discard, that card may not be thrown back (``forbidden``).

    Parts: ``card_buttons``, ``buttons`` "reveal" and "new hand"; read-outs
    ``situation``, ``deadwood_readout``, ``verdict_readout``, ``layout_readout``,
    ``reveal_readout``.  State: ``cards``, ``forbidden``, ``chosen``, ``analysis``.
    """

    css_class = "bg-knock-trainer"

    def __init__(self, cards: CardsLike | None = None, seed: int = 1,
                 rules: Rules = STANDARD, forbidden: Card | str | None = None) -> None:
        super().__init__()
        self.rules = rules
        self.seed = seed
        self.card_buttons: list[CardButton] = []
        self.row = card_row([])
        self.situation = readout("bg-situation")
        self.deadwood_readout = readout("bg-deadwood-readout")
        self.verdict_readout = readout("bg-verdict")
        self.layout_readout = readout("bg-layout-readout")
        self.reveal_readout = readout("bg-reveal-readout")
        self.chosen: Card | None = None
        self.revealed = False
        self.cards: tuple[Card, ...] = ()
        self.forbidden: Card | None = None
        self.analysis: DiscardAnalysis
        if cards is None:
            self._deal()
        else:
            self.set_cards(cards, forbidden, render=False)
        controls = button_row([self._button("reveal", self.reveal),
                               self._button("new hand", self.new_hand)])
        self._start([self.situation, self.row, controls, self.deadwood_readout,
                     self.verdict_readout, self.layout_readout, self.reveal_readout])

    # -- actions -----------------------------------------------------------------------

    def set_cards(self, cards: CardsLike, forbidden: Card | str | None = None, *,
                  render: bool = True) -> None:
        """Train on these 11 cards; ``forbidden`` is a card that may not be discarded."""
        self.forbidden = Card.parse(forbidden) if isinstance(forbidden, str) else forbidden
        self.cards = to_cards(cards)
        allowed = None if self.rules.may_discard_taken_card else self.forbidden
        self.analysis = best_discards(self.cards, self.rules, forbidden=allowed)
        self.chosen = None
        self.revealed = False
        self.card_buttons = [CardButton(c) for c in self.cards]
        for button in self.card_buttons:
            button.on_click(self._choose)
        self.row.children = self.card_buttons
        if render:
            self.render()

    def _deal(self) -> None:
        """Find a position worth training on: greedy bots play hands from ``seed`` on,
        and the first time a player about to discard is near a knock, that is the
        position (its seed becomes ``seed``)."""
        for seed in range(self.seed, self.seed + 200):
            hand = Hand.deal(self.rules, seed=seed)
            while not hand.is_over:
                analysis = hand.analysis()
                if analysis is not None and hand.to_play is not None and \
                        analysis.least_deadwood <= hand.knock_limit + NEAR:
                    self.seed = seed
                    self.set_cards(hand.cards(hand.to_play), hand.taken_card, render=False)
                    return
                role = hand.to_play
                assert role is not None
                hand.apply(greedy_bot(hand.view(role)))
        raise RuntimeError("no position near a knock in 200 hands")  # pragma: no cover

    def new_hand(self) -> None:
        """Find a position in the next hands (from the next seed)."""
        self.seed += 1
        self._deal()
        self.render()

    def choose(self, card: Card | str) -> None:
        """Choose the card to discard."""
        self.chosen = Card.parse(card) if isinstance(card, str) else card
        self.render()

    def _choose(self, button: CardButton) -> None:
        self.choose(button.card)

    def reveal(self) -> None:
        """Show the deadwood after every discard, the best ones starred."""
        self.revealed = True
        self.render()

    def card_button(self, card: Card | str) -> CardButton:
        """The button of one of the 11 cards."""
        card = Card.parse(card) if isinstance(card, str) else card
        return next(b for b in self.card_buttons if b.card == card)

    # -- showing -----------------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        return {"reveal": _("Reveal the best"), "new hand": _("New hand")}

    def _all_card_buttons(self) -> list[CardButton]:
        return self.card_buttons

    def render(self) -> None:
        """Show the situation, the chosen discard's result and, once revealed, the best."""
        analysis = self.analysis
        if self.forbidden is not None and self.forbidden not in analysis.deadwood_after:
            situation = _("You took the {card} from the discard pile: you may not throw it "
                          "back this turn. Click the card to discard.").format(
                card=self.forbidden.label)
        else:
            situation = _("You hold 11 cards. Click the card to discard.")
        self.situation.value = text_html(situation, "bg-situation-text")
        for button in self.card_buttons:
            button.selected = button.card == self.chosen
            button.mark("bg-forbidden", button.card not in analysis.deadwood_after)
            button.mark("bg-best", self.revealed and button.card in analysis.best)
        self._show_choice()
        if self.revealed:
            best = ", ".join(c.label for c in analysis.best)
            self.reveal_readout.value = text_html(
                _("Best discard: {cards}, leaving {value}.").format(
                    cards=best, value=analysis.least_deadwood), "bg-best-discard"
            ) + discard_analysis_html(analysis)
        else:
            self.reveal_readout.value = ""

    def _show_choice(self) -> None:
        analysis, card = self.analysis, self.chosen
        if card is None:
            self.deadwood_readout.value = ""
            self.verdict_readout.value = ""
            self.layout_readout.value = ""
            return
        if card not in analysis.deadwood_after:
            self.deadwood_readout.value = ""
            self.verdict_readout.value = text_html(
                _("The {card} was just taken from the discard pile: it may not be thrown "
                  "back this turn.").format(card=card.label), "bg-verdict-text bg-illegal")
            self.layout_readout.value = ""
            return
        left = analysis.deadwood_after[card]
        self.deadwood_readout.value = text_html(
            _("Discard the {card}: deadwood left {value}.").format(card=card.label, value=left),
            "bg-deadwood-value")
        if left == 0:
            verdict, css = _("Gin! Every card left is in a meld."), "bg-gin"
        elif card in analysis.knock_discards:
            verdict, css = _("You may knock: {value} is within the limit of {limit}.").format(
                value=left, limit=analysis.knock_limit), "bg-may-knock"
        else:
            verdict, css = _("You may not knock: {value} is over the limit of {limit}.").format(
                value=left, limit=analysis.knock_limit), "bg-no-knock"
        if left > analysis.least_deadwood:
            verdict += " " + _("A better discard leaves {best}.").format(
                best=analysis.least_deadwood)
        self.verdict_readout.value = text_html(verdict, "bg-verdict-text " + css)
        # the deadwood left is the line above; the frames show which cards it is
        self.layout_readout.value = arrangement_html(analysis.arrangement_after(card),
                                                     value=False)

    def static_html(self) -> str:
        """The cards, the choice and (if revealed) the best, as plain HTML."""
        from ..views.cards import cards_html

        parts = (self.deadwood_readout, self.verdict_readout, self.layout_readout,
                 self.reveal_readout)
        return (STYLE + str(self.situation.value) + cards_html(self.cards, style=False)
                + "".join(str(r.value) for r in parts))
