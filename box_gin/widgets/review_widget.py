"""The Review widget: step through one seat's decisions in a hand, each rated and explained,
with every alternative's expected points as a small bar chart (docs/review.md).

>>> from box_gin import Hand, greedy_bot
>>> hand = Hand.deal(seed=4)
>>> while not hand.is_over:
...     hand.apply(greedy_bot(hand.view(hand.to_play)))
>>> widget = ReviewWidget.from_hand(hand, seat="box", seed=1)
>>> widget.index, widget.decision.player
(0, 'box')
>>> widget.buttons["next"].click()
>>> widget.index == min(1, len(widget.decisions) - 1)
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import ipywidgets as w

from ..hand import Hand, SeatView
from ..i18n import _, format_number, is_rtl, reisolate
from ..review import Decision, Review, review_hands
from ..review.classify import reason, signed
from ..review.evaluate import Evaluation
from ..review.page import RATING_STYLE, rating_html
from ..review.records import played_hands, read_record
from ..views.cards import STYLE, cards_html
from .base import BoxGinWidget, button_row, readout, text_html

#: The chart's styles (the rating chips' are the review page's, RATING_STYLE).
CHART_STYLE = """<style>
.bg-review-chart{list-style:none;margin:.3em 0;padding:0;max-width:40em}
.bg-review-chart li{display:grid;grid-template-columns:minmax(8em,14em) 1fr 4.5em;
 align-items:center;gap:.5em;margin:.15em 0}
.bg-review-chart .bg-bar-track{position:relative;height:1.1em;background:#f1f3f6;
 direction:ltr}
.bg-review-chart .bg-bar-zero{position:absolute;top:-.15em;bottom:-.15em;width:2px;
 background:#111}
.bg-review-chart .bg-bar{position:absolute;top:0;bottom:0;background:#8a94a6}
.bg-review-chart .bg-best .bg-bar{background:#1b5e20}
.bg-review-chart .bg-played .bg-bar-label{font-weight:bold}
.bg-review-chart .bg-played .bg-bar{outline:2px solid #1f6feb}
.bg-review-chart .bg-bar-value{text-align:end;font-variant-numeric:tabular-nums}
.bg-review-position{display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center}
</style>"""


def _h(text: object) -> str:
    return html.escape(str(text))


def bidi(text: str) -> str:
    """``text`` made to read right in Hebrew (:func:`box_gin.i18n.reisolate`)."""
    return reisolate(text)


def chart_html(evaluation: Evaluation, played: Any = None) -> str:
    """Every action's expected points as horizontal bars from a zero line, best first
    (an HTML list: each row says its action and value in words, the bar is drawn beside;
    the bars run left to right in any language, the rows follow the page's direction).
    ``played``, an action, is marked in bold with a blue frame."""
    ranked = evaluation.ranked
    low = min(0.0, *(v.value for v in ranked))
    high = max(0.0, *(v.value for v in ranked))
    span = (high - low) or 1.0
    zero = (0 - low) / span * 100
    best = evaluation.best.action
    rows = []
    for v in ranked:
        start = (min(0.0, v.value) - low) / span * 100
        width = abs(v.value) / span * 100
        classes = ["bg-chart-row"]
        if v.action == best:
            classes.append("bg-best")
        if played is not None and v.action.kind is played.kind and v.action.card == played.card:
            classes.append("bg-played")
        rows.append(
            f'<li class="{" ".join(classes)}"><span class="bg-bar-label">'
            f"{_h(bidi(v.action.label))}</span>"
            f'<span class="bg-bar-track" aria-hidden="true">'
            f'<span class="bg-bar" style="left:{start:.1f}%;width:{width:.1f}%"></span>'
            f'<span class="bg-bar-zero" style="left:{zero:.1f}%"></span></span>'
            f'<span class="bg-bar-value">{_h(signed(v.value))}</span></li>')
    label = _("Expected points of every action")
    return (f'<ul class="bg-review-chart" aria-label="{_h(label)}"{_dir()}>'
            + "".join(rows) + "</ul>")


def _dir() -> str:
    return ' dir="rtl"' if is_rtl() else ""


def decision_view(hand: Hand, step: int) -> SeatView:
    """The view of the seat to act just before action ``step`` of ``hand`` (a replay)."""
    replay = Hand.deal(hand.rules, deck=hand.deck)
    for _role, action in hand.history[:step]:
        replay.apply(action)
    role = replay.to_play
    assert role is not None
    return replay.view(role)


class ReviewWidget(BoxGinWidget):
    """One seat's decisions in a reviewed hand, one at a time: the position as the seat
    saw it (its cards, the top of the discard pile, the stock, the cards its opponent was
    seen to take), what it played, the rating and the reason, and every action's
    expected points as a bar chart.

    Build it from a review (:func:`box_gin.review.review_hands`), a :class:`Hand` just
    played (:meth:`from_hand`) or a record file (:meth:`from_record`).  The review is the
    same for the same hand and seed.

    Parts: ``buttons`` "previous", "next"; ``slider`` (the decision, from 1); read-outs
    ``header``, ``position_readout``, ``rating_readout``, ``chart_readout``.  State:
    ``review``, ``decisions``, ``views``, ``index``, ``decision``.
    """

    css_class = "bg-review-widget"

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review
        self.decisions: tuple[Decision, ...] = review.decisions
        if not self.decisions:
            raise ValueError(_("No decision to review in this hand."))
        hands = {(h.played.game, h.played.number): h.played.hand for h in review.hands}
        self.views: tuple[SeatView, ...] = tuple(
            decision_view(hands[(d.game, d.number)], d.step) for d in self.decisions)
        self.index = 0
        self.header = readout("bg-review-header")
        self.position_readout = readout("bg-review-position-readout")
        self.rating_readout = readout("bg-review-rating-readout")
        self.chart_readout = readout("bg-review-chart-readout")
        self.slider = w.IntSlider(value=1, min=1, max=len(self.decisions), step=1,
                                  continuous_update=False, readout=True)
        self.slider.add_class("bg-review-slider")
        self.slider.observe(self._slid, names="value")
        controls = button_row([self._button("previous", self.previous), self.slider,
                               self._button("next", self.next)])
        self.stylesheet.value = self.stylesheet.value + RATING_STYLE + CHART_STYLE
        self._start([self.header, controls, self.position_readout, self.rating_readout,
                     self.chart_readout])

    @classmethod
    def from_hand(cls, hand: Hand, seat: str = "captain", seed: int = 0) -> ReviewWidget:
        """Review the decisions of ``seat`` (``captain`` or ``box``) in ``hand``."""
        return cls(review_hands(played_hands(hand.record()), seat=seat, seed=seed))

    @classmethod
    def from_record(cls, path: Path | str, seat: str | None = None, seed: int = 0,
                    game: int = 1, number: int = 1) -> ReviewWidget:
        """Review hand ``number`` of game ``game`` in a record file (any record the kit
        writes), the decisions of the player ``seat`` (all players' when ``None``)."""
        hands = [h for h in read_record(path) if (h.game, h.number) == (game, number)]
        return cls(review_hands(hands, seat=seat, seed=seed))

    # -- moving ------------------------------------------------------------------------

    @property
    def decision(self) -> Decision:
        """The decision shown."""
        return self.decisions[self.index]

    def show(self, index: int) -> None:
        """Show decision ``index`` (from 0, clamped to the hand's decisions)."""
        self.index = max(0, min(index, len(self.decisions) - 1))
        self.render()

    def previous(self) -> None:
        """Show the decision before."""
        self.show(self.index - 1)

    def next(self) -> None:
        """Show the decision after."""
        self.show(self.index + 1)

    def _slid(self, change: dict[str, Any]) -> None:
        if change["new"] - 1 != self.index:
            self.show(int(change["new"]) - 1)

    # -- showing -----------------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        return {"previous": _("Previous"), "next": _("Next")}

    def _synced(self) -> Sequence[w.Widget]:
        return [self.header, self.position_readout, self.rating_readout,
                self.chart_readout, self.slider, *self.buttons.values()]

    def render(self) -> None:
        """Show the current decision: every changed part in one message."""
        with ExitStack() as stack:
            for widget in self._synced():
                stack.enter_context(widget.hold_sync())
            self._render()

    def _render(self) -> None:
        d = self.decision
        self.slider.value = self.index + 1
        self.slider.description = _("Decision")
        self.buttons["previous"].disabled = self.index == 0
        self.buttons["next"].disabled = self.index == len(self.decisions) - 1
        # a hand record's players are its roles: "box", not "box (box)"
        who = d.role.label if d.player == d.role.value else _("{player} ({role})").format(
            player=d.player, role=d.role.label)
        self.header.value = text_html(bidi(_(
            "Decision {n} of {total}: {who}, turn {turn}, {stock} cards in the "
            "stock.").format(n=self.index + 1, total=len(self.decisions), who=who,
                             turn=d.step + 1, stock=d.stock_size)), "bg-review-where")
        self.position_readout.value = self._position_html()
        self.rating_readout.value = self._rating_html()
        self.chart_readout.value = chart_html(d.evaluation, d.played)

    def _position_html(self) -> str:
        d, view = self.decision, self.views[self.index]
        rows = [(_("Cards held"), d.cards)]
        if d.top_discard is not None:
            rows.append((_("Top of the discard pile"), (d.top_discard,)))
        if view.opponent_known:
            rows.append((_("The opponent took from the pile"), view.opponent_known))
        return "".join(f'<div class="bg-review-position"{_dir()}><span>{_h(label)}</span>'
                       f"{cards_html(cards, style=False)}</div>" for label, cards in rows)

    def _rating_html(self) -> str:
        d = self.decision
        played = bidi(_("Played: {action}").format(action=d.played.label))
        lost = _("points lost: {loss}").format(loss=format_number(d.loss, 1))
        best = bidi(_("Best: {action}").format(action=d.best.label))
        return (f'<div class="bg-readout bg-review-rating"{_dir()}>{_h(played)} '
                f"{rating_html(d.rating)} ({_h(lost)}). {_h(best)}.</div>"
                # the reason again, in the language in use now
                + text_html(bidi(reason(self.views[self.index], d.evaluation, d.played)),
                            "bg-review-reason"))

    def static_html(self) -> str:
        """The current decision as plain HTML (what a page without widgets shows)."""
        return (STYLE + RATING_STYLE + CHART_STYLE
                + "".join(str(r.value) for r in (self.header, self.position_readout,
                                                  self.rating_readout, self.chart_readout)))

