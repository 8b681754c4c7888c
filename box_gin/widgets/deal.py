"""The Deal widget: cut for roles, deal a hand, and see it face up.

>>> deal = DealWidget(seed=7)
>>> deal.buttons["deal"].click()
>>> len(deal.hand.cards(Role.BOX)), deal.hand.stock_size
(10, 31)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import ipywidgets as w

from ..hand import Hand, Role
from ..i18n import _
from ..match import Match
from ..rules import STANDARD, Rules
from ..views.cards import STYLE
from ..views.html import cut_html, deal_html, roles_html
from .base import BoxGinWidget, button_row, text_html

DEFAULT_PLAYERS = ("Ada", "Ben", "Cy")


class DealWidget(BoxGinWidget):
    """Choose a seed and press Deal (or Shuffle for a new seed) to see a fresh deal.

    Shows who is box, captain and sitter (by the cut), the box's and the captain's
    hands sorted, the upcard and the stock count.  Parts: ``seed_input``,
    ``buttons["deal"]``, ``buttons["shuffle"]``, read-outs ``roles_readout``,
    ``cut_readout`` and ``deal_readout`` (the stock count is its ``bg-stock``); state:
    ``match``, ``hand``.
    """

    css_class = "bg-deal-widget"

    def __init__(self, seed: int = 1, players: Sequence[str] = DEFAULT_PLAYERS,
                 rules: Rules = STANDARD) -> None:
        super().__init__()
        self.players = tuple(players)
        self.rules = rules
        self.seed_input = w.IntText(value=seed, layout=w.Layout(width="8em"))
        self.seed_input.add_class("bg-seed")
        self._shuffler = random.Random(seed)
        self.roles_readout = w.HTML()
        self.roles_readout.add_class("bg-roles-readout")
        self.cut_readout = w.HTML()
        self.cut_readout.add_class("bg-cut-readout")
        self.deal_readout = w.HTML()
        self.deal_readout.add_class("bg-deal-readout")
        self.seed_label = w.HTML()
        controls = button_row([self.seed_label, self.seed_input,
                               self._button("deal", self.deal),
                               self._button("shuffle", self.shuffle)])
        self.match = Match.new(self.players, rules, seed)
        self._start([controls, self.roles_readout, self.cut_readout, self.deal_readout])

    @property
    def hand(self) -> Hand:
        """The hand on the table."""
        return self.match.hand

    def deal(self) -> None:
        """Cut for roles and deal, from the seed in the box."""
        self.match = Match.new(self.players, self.rules, int(self.seed_input.value))
        self.render()

    def shuffle(self) -> None:
        """Pick a new seed, then deal."""
        self.seed_input.value = self._shuffler.randrange(1, 10**6)
        self.deal()

    def _labels(self) -> dict[str, str]:
        self.seed_label.value = text_html(_("Seed:"), "bg-seed-label")
        return {"deal": _("Deal"), "shuffle": _("Shuffle")}

    def render(self) -> None:
        """Show the roles, the cut, both hands, the upcard and the stock."""
        self.roles_readout.value = STYLE + roles_html(self.match.roles)
        self.cut_readout.value = cut_html(self.match.cuts)
        self.deal_readout.value = deal_html(self.hand, self.match.roles)

    def static_html(self) -> str:
        """The roles and the deal as plain HTML."""
        return (STYLE + roles_html(self.match.roles) + cut_html(self.match.cuts)
                + deal_html(self.hand, self.match.roles))


__all__ = ["DealWidget", "Role"]
