"""The Meld Explorer: pick cards, see the best melds and the deadwood; build your own.

>>> explorer = MeldExplorer("AH 2H 3H 7S 7D 7C KD")
>>> explorer.best.deadwood_value
10
>>> for card in ("AH", "2H", "3H"):
...     explorer.hand_button(card).click()
>>> explorer.buttons["make meld"].click()
>>> explorer.mine.melds
(Meld(AH 2H 3H),)
"""

from __future__ import annotations

import random

import ipywidgets as w

from ..cards import Card, CardsLike, full_deck, to_cards
from ..errors import BoxGinError
from ..i18n import _
from ..melds import Arrangement, Meld, best_melds, is_run, is_set, run_problem, set_problem
from ..views.cards import STYLE
from ..views.html import arrangement_html
from .base import BoxGinWidget, CardButton, button_row, card_row, readout, text_html


def not_a_meld(cards: tuple[Card, ...]) -> str:
    """Why these cards are no meld, as a set and as a run (neither is assumed)."""
    return _("{cards} make neither a set nor a run: as a set, {set_problem}; as a run, "
             "{run_problem}.").format(cards=" ".join(c.label for c in cards),
                                      set_problem=set_problem(cards),
                                      run_problem=run_problem(cards))


class MeldExplorer(BoxGinWidget):
    """Choose cards by clicking the deck (or press Deal), see the best arrangement
    highlighted and its deadwood; then build your own melds and compare.

    Parts: ``deck_buttons`` (all 52 cards, by suit), ``hand_buttons`` (the chosen cards,
    for building melds), ``buttons`` "deal", "clear", "make meld", "undo meld"; read-outs
    ``best_readout``, ``deadwood_readout``, ``mine_readout``, ``compare_readout``,
    ``message``.  State: ``cards``, ``best``, ``my_melds``, ``mine``, ``chosen``.
    """

    css_class = "bg-meld-explorer"

    def __init__(self, cards: CardsLike = "", seed: int = 1, deal_size: int = 10) -> None:
        super().__init__()
        self.deal_size = deal_size
        self._rng = random.Random(seed)
        self.cards: tuple[Card, ...] = to_cards(cards)
        self.my_melds: list[Meld] = []
        self.chosen: set[Card] = set()
        self.deck_buttons = {card: CardButton(card) for card in full_deck()}
        for button in self.deck_buttons.values():
            button.on_click(self._toggle_in_hand)
        self.hand_buttons: list[CardButton] = []
        self.hand_row = card_row([])
        suits = [card_row(self.deck_buttons[c] for c in full_deck()[13 * s:13 * s + 13])
                 for s in range(4)]
        for row in suits:
            row.add_class("bg-deck")
        self.hand_row.add_class("bg-explorer-hand")
        self.deck_label = w.HTML()
        self.hand_label = w.HTML()
        self.best_readout = readout("bg-best-readout")
        self.deadwood_readout = readout("bg-deadwood-readout")
        self.mine_readout = readout("bg-mine-readout")
        self.compare_readout = readout("bg-compare-readout")
        self.message = readout("bg-message")
        controls = button_row([self._button("deal", self.deal),
                               self._button("clear", self.clear)])
        build = button_row([self._button("make meld", self.make_meld),
                            self._button("undo meld", self.undo_meld)])
        self._rebuild_hand()
        self._start([self.deck_label, *suits, controls, self.best_readout,
                     self.deadwood_readout, self.hand_label, self.hand_row, build,
                     self.message, self.mine_readout, self.compare_readout])

    # -- state -------------------------------------------------------------------------

    @property
    def best(self) -> Arrangement:
        """The engine's arrangement of least deadwood for the chosen cards."""
        return best_melds(self.cards)

    @property
    def mine(self) -> Arrangement:
        """The arrangement built by hand: my melds, the rest deadwood."""
        return Arrangement.of(self.cards, self.my_melds)

    def hand_button(self, card: Card | str) -> CardButton:
        """The button of a chosen card (for building melds)."""
        card = Card.parse(card) if isinstance(card, str) else card
        for button in self.hand_buttons:
            if button.card == card:
                return button
        raise KeyError(card)

    # -- actions -----------------------------------------------------------------------

    def set_cards(self, cards: CardsLike) -> None:
        """Choose these cards (clears any melds built by hand)."""
        self.cards = to_cards(cards)
        self.my_melds = []
        self.chosen = set()
        self.message.value = ""
        self._rebuild_hand()
        self.render()

    def deal(self) -> None:
        """Choose ``deal_size`` cards at random (from the widget's seeded shuffle)."""
        self.set_cards(self._rng.sample(full_deck(), self.deal_size))

    def clear(self) -> None:
        """Choose no cards."""
        self.set_cards(())

    def make_meld(self) -> None:
        """Make a meld of the selected cards; the engine says whether it is one."""
        if not self.chosen:
            self.message.value = text_html(
                _("First click the cards of the hand that make the meld."), "bg-error")
            return
        chosen = tuple(sorted(self.chosen))
        if not (is_set(chosen) or is_run(chosen)):
            self.message.value = text_html(not_a_meld(chosen), "bg-error")
            return
        try:
            meld = Meld(chosen)
            Arrangement.of(self.cards, [*self.my_melds, meld])
        except BoxGinError as err:  # pragma: no cover (the hand's own cards, unmelded)
            self.message.value = text_html(str(err), "bg-error")
            return
        self.my_melds.append(meld)
        self.chosen = set()
        self.message.value = ""
        self.render()

    def undo_meld(self) -> None:
        """Take back the last meld built by hand."""
        if self.my_melds:
            self.my_melds.pop()
        self.message.value = ""
        self.render()

    def _toggle_in_hand(self, button: CardButton) -> None:
        card = button.card
        self.set_cards([c for c in self.cards if c != card] if card in self.cards
                       else [*self.cards, card])

    def _toggle_chosen(self, button: CardButton) -> None:
        card = button.card
        if any(card in m for m in self.my_melds):
            return
        self.chosen ^= {card}
        self.render()

    def _rebuild_hand(self) -> None:
        self.hand_buttons = [CardButton(c) for c in self.cards]
        for button in self.hand_buttons:
            button.on_click(self._toggle_chosen)
        self.hand_row.children = self.hand_buttons

    # -- showing -----------------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        self.deck_label.value = text_html(_("Click cards to put them in the hand:"),
                                          "bg-label")
        self.hand_label.value = text_html(
            _("Build your own: click cards of the hand, then {button}.").format(
                button=_("Make meld")), "bg-label")
        return {"deal": _("Deal"), "clear": _("Clear"), "make meld": _("Make meld"),
                "undo meld": _("Undo meld")}

    def _all_card_buttons(self) -> list[CardButton]:
        return [*self.deck_buttons.values(), *self.hand_buttons]

    def render(self) -> None:
        """Highlight the chosen cards, show the best arrangement and mine."""
        best = self.best
        for card, button in self.deck_buttons.items():
            button.selected = card in self.cards
        in_best = {c for m in best.melds for c in m.cards}
        in_mine = {c for m in self.my_melds for c in m.cards}
        for button in self.hand_buttons:
            button.selected = button.card in self.chosen
            button.mark("bg-in-meld", button.card in in_mine)
            button.mark("bg-best", button.card in in_best)
        # The frames show the melds and the deadwood; each number is said once, below.
        self.best_readout.value = (
            text_html(_("The best arrangement:"), "bg-label")
            + arrangement_html(best, value=False))
        self.deadwood_readout.value = text_html(
            _("Least deadwood: {value}").format(value=best.deadwood_value), "bg-deadwood-value")
        mine = self.mine
        self.mine_readout.value = (
            text_html(_("Your arrangement:"), "bg-label") + arrangement_html(mine, value=False))
        gap = mine.deadwood_value - best.deadwood_value
        if not self.cards:
            verdict = _("Choose some cards to begin.")
        elif gap == 0:
            verdict = _("Your deadwood {mine} equals the best, {best}.").format(
                mine=mine.deadwood_value, best=best.deadwood_value)
        else:
            verdict = _("Your deadwood {mine} is {gap} more than the best, {best}.").format(
                mine=mine.deadwood_value, gap=gap, best=best.deadwood_value)
        self.compare_readout.value = text_html(verdict, "bg-compare")

    def static_html(self) -> str:
        """The best arrangement and mine, as plain HTML."""
        parts = (self.best_readout, self.deadwood_readout, self.mine_readout,
                 self.compare_readout)
        return STYLE + "".join(str(r.value) for r in parts)
