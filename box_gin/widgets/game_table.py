"""The Game Table: a whole game from any seat against bots, with the score sheet and a
chart of the cumulative scores.

>>> table = GameTable(seed=5)
>>> table.match.to_play == table.human or table.showing is not None
True
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as w

from ..actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, discard, knock
from ..bots import Advice, Bot, advise, greedy_bot, seeded_random_bot
from ..cards import Card
from ..display import (
    STYLE,
    back_html,
    card_html,
    cards_html,
    match_html,
    result_html,
    roles_html,
    score_html,
)
from ..errors import BoxGinError
from ..hand import HandResult, Phase, Role
from ..i18n import _, ngettext
from ..match import Match
from ..rules import STANDARD, Rules
from .base import BoxGinWidget, CardButton, card_row, readout, text_html

#: The buttons that play an action, by key, with the action each plays (``None``: the
#: action needs the selected card).
ACTION_BUTTONS: dict[str, Action | None] = {
    "take": TAKE, "pass": PASS, "draw stock": DRAW_STOCK, "draw discard": DRAW_DISCARD,
    "discard": None, "knock": None, "big gin": BIG_GIN,
}
BotSpec = str | Bot


def make_bot(spec: BotSpec, seed: int | None) -> Bot:
    """A bot from its name ("greedy" or "random", the latter seeded) or a bot itself."""
    if callable(spec):
        return spec
    if spec == "greedy":
        return greedy_bot
    if spec == "random":
        return seeded_random_bot(seed)
    raise ValueError(_("unknown bot {name!r}: choose 'greedy' or 'random'").format(name=spec))


class GameTable(BoxGinWidget):
    """Play a game of box gin against bots, from any seat.

    ``players``: the three names; ``human``: yours; ``bots``: "greedy", "random", or a
    mapping from each other player's name to one of those or a bot function.  Bots move
    as soon as you have acted; a finished hand stays on the table until Next hand.

    Parts: ``card_buttons`` (your cards; click one, then Discard or Knock),
    ``buttons`` "take", "pass", "draw stock", "draw discard", "discard", "knock",
    "big gin", "advice", "next hand", "new game"; read-outs ``roles_readout``,
    ``status``, ``opponent_readout``, ``pile_readout``, ``message``, ``advice_readout``,
    ``result_readout``, ``score_readout`` (the score sheet), ``chart`` (an Image).
    State: ``match``, ``selected``, ``showing`` (the result on the table), ``moves``.
    """

    css_class = "bg-game-table"

    def __init__(self, players: Sequence[str] | None = None, human: str | None = None,
                 bots: BotSpec | Mapping[str, BotSpec] = "greedy", seed: int | None = 1,
                 rules: Rules = STANDARD, chart: bool = True) -> None:
        super().__init__()
        you = _("You")
        self.players = tuple(players) if players is not None else (you, "Ada", "Ben")
        if human is None:
            human = you if you in self.players else self.players[0]
        if human not in self.players:
            raise ValueError(_("{name!r} is not one of the players {players}").format(
                name=human, players=", ".join(self.players)))
        self.human = human
        self.rules = rules
        self.seed = seed
        self.bot_specs = bots
        self.show_chart = chart
        self.selected: Card | None = None
        self.showing: HandResult | None = None
        self.advice: Advice | None = None
        self.moves: list[str] = []
        self.error = ""
        self._card_cache: dict[Card, CardButton] = {}
        self.card_buttons: list[CardButton] = []
        self._chart_key: tuple[int, int] | None = None
        self.roles_readout = readout("bg-roles-readout")
        self.status = readout("bg-status")
        self.opponent_readout = readout("bg-opponent")
        self.pile_readout = readout("bg-pile-readout")
        self.hand_label = readout("bg-hand-label")
        self.hand_row = card_row([])
        self.hand_row.add_class("bg-my-hand")
        self.message = readout("bg-message")
        self.advice_readout = readout("bg-advice")
        self.result_readout = readout("bg-result-readout")
        self.score_readout = readout("bg-scoresheet-readout")
        self.chart = w.Image(format="png", layout=w.Layout(max_width="560px"))
        self.chart.add_class("bg-chart")
        for key, action in ACTION_BUTTONS.items():
            self._button(key, self._player(key, action))
        self._button("advice", self.ask_advice)
        self._button("next hand", self.next_hand)
        self._button("new game", self.new_game_next_seed)
        if not rules.big_gin:
            self.buttons["big gin"].layout.display = "none"
        play = w.HBox([self.buttons[k] for k in ACTION_BUTTONS])
        play.add_class("bg-actions")
        meta = w.HBox([self.buttons[k] for k in ("advice", "next hand", "new game")])
        self._new_match(seed)
        self._start([self.roles_readout, self.status, self.opponent_readout,
                     self.pile_readout, self.hand_label, self.hand_row, play, meta,
                     self.message, self.advice_readout, self.result_readout,
                     self.score_readout, *([self.chart] if chart else [])])

    # -- state -------------------------------------------------------------------------

    @property
    def role(self) -> Role:
        """Your role this hand."""
        return self.match.role_of(self.human)

    @property
    def my_turn(self) -> bool:
        """Whether you are to act now."""
        return self.showing is None and self.match.to_play == self.human

    def legal_actions(self) -> list[Action]:
        """The actions you may take now (none when it is not your turn)."""
        return self.match.legal_actions() if self.my_turn else []

    def card_button(self, card: Card | str) -> CardButton:
        """The button of one of your cards."""
        card = Card.parse(card) if isinstance(card, str) else card
        return next(b for b in self.card_buttons if b.card == card)

    # -- acting ------------------------------------------------------------------------

    def _new_match(self, seed: int | None) -> None:
        self.seed = seed
        self.match = Match.new(self.players, self.rules, seed)
        others = [p for p in self.players if p != self.human]
        specs = self.bot_specs
        self.bots: dict[str, Bot] = {}
        for i, name in enumerate(others):
            spec = specs.get(name, "greedy") if isinstance(specs, Mapping) else specs
            self.bots[name] = make_bot(spec, None if seed is None else seed * 10 + i)
        self.selected, self.showing, self.advice, self.moves, self.error = None, None, None, [], ""
        self._run_bots()

    def new_game(self, seed: int | None = None) -> None:
        """Start a new game (cut for roles, deal) from ``seed``."""
        self._new_match(seed)
        self.render()

    def new_game_next_seed(self) -> None:
        """The New game button: the next seed (or a random one without a seed)."""
        self.new_game(None if self.seed is None else self.seed + 1)

    def next_hand(self) -> None:
        """Clear the finished hand from the table and play on."""
        if self.showing is None or self.match.is_over:
            return
        self.showing, self.advice, self.moves, self.error = None, None, [], ""
        self._run_bots()
        self.render()

    def play(self, action: Action | str) -> None:
        """Play an action for you; the engine refuses an illegal one, saying why."""
        self.error = ""
        if not self.my_turn:
            self.error = _("It is not your turn.")
            self.render()
            return
        try:
            self._apply(self.human, Action.parse(action))
        except BoxGinError as err:
            self.error = str(err)
        else:
            self.selected, self.advice = None, None
            self._run_bots()
        self.render()

    def _player(self, key: str, action: Action | None) -> Callable[[], None]:
        def handler() -> None:
            if action is not None:
                self.play(action)
            elif self.selected is None:
                self.error = _("Click a card first, then {button}.").format(
                    button=self.buttons[key].description)
                self.render()
            else:
                self.play(discard(self.selected) if key == "discard" else knock(self.selected))
        return handler

    def _apply(self, name: str, act: Action) -> None:
        role = self.match.role_of(name)
        result = self.match.apply(act)
        self.moves.append(_("{name} ({role}): {action}").format(
            name=name, role=role.label, action=act.label))
        if result is not None:
            self.showing = result

    def _run_bots(self) -> None:
        """Let the bots act until it is your turn, a hand ends, or the game ends."""
        while self.showing is None and not self.match.is_over:
            name = self.match.to_play
            if name is None or name == self.human:
                return
            self._apply(name, self.bots[name](self.match.view(name)))

    def ask_advice(self) -> None:
        """Ask the sitter what to do (only the captain may)."""
        if not (self.my_turn and self.role is Role.CAPTAIN):
            self.error = _("Only the captain, on its turn, may ask the sitter for advice.")
        else:
            self.error = ""
            self.advice = advise(self.match.view(self.match.roles[Role.SITTER]))
        self.render()

    def _select(self, button: CardButton) -> None:
        self.selected = None if self.selected == button.card else button.card
        self.error = ""
        self.render()

    # -- showing -----------------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        return {
            "take": _("Take the upcard"), "pass": _("Pass"), "draw stock": _("Draw from stock"),
            "draw discard": _("Draw the discard"), "discard": _("Discard"),
            "knock": _("Knock"), "big gin": _("Big gin"), "advice": _("Ask the sitter"),
            "next hand": _("Next hand"), "new game": _("New game"),
        }

    def _all_card_buttons(self) -> list[CardButton]:
        return list(self._card_cache.values())

    def _button_for(self, card: Card) -> CardButton:
        if card not in self._card_cache:
            button = CardButton(card)
            button.on_click(self._select)
            self._card_cache[card] = button
        return self._card_cache[card]

    def render(self) -> None:
        """Show the table from your seat."""
        match = self.match
        hand = match.hand if self.showing is None else None
        self.roles_readout.value = STYLE + roles_html(
            match.history[-1].roles if self.showing is not None else match.roles,
            human=self.human)
        self.status.value = text_html(self._status_text(), "bg-status-text")
        self._render_cards()
        legal = self.legal_actions()
        for key, action in ACTION_BUTTONS.items():
            if action is None:
                wanted = None if self.selected is None else (
                    discard(self.selected) if key == "discard" else knock(self.selected))
                ok = wanted in legal if wanted else any(
                    a.kind.value == key for a in legal)
            else:
                ok = action in legal
            self.buttons[key].disabled = not ok
        self.buttons["advice"].disabled = not (self.my_turn and self.role is Role.CAPTAIN)
        self.buttons["next hand"].disabled = self.showing is None or match.is_over
        if hand is not None:
            view = match.view(self.human)
            seat = Role.CAPTAIN if view.role is Role.SITTER else view.role
            opponent = match.roles[seat.opponent]
            known = cards_html(view.opponent_known, style=False) if view.opponent_known else ""
            label = _("{name} ({role}):").format(name=opponent, role=seat.opponent.label)
            self.opponent_readout.value = (
                f'<div class="bg-readout bg-opponent-cards">{_esc(label)} '
                f"{back_html(view.opponent_card_count - len(view.opponent_known))}{known}</div>")
            top = view.top_discard
            stock = ngettext("{n} card in the stock", "{n} cards in the stock",
                             view.stock_size).format(n=view.stock_size)
            pile_label = _esc(_("Discard pile:"))
            self.pile_readout.value = (
                f'<div class="bg-readout bg-pile">{pile_label} '
                f'{card_html(top) if top else "–"}</div>'
                f'<div class="bg-readout bg-stock">{back_html(1)} {_esc(stock)}</div>')
        else:
            self.opponent_readout.value = ""
            self.pile_readout.value = ""
        self.message.value = "".join(text_html(line, "bg-log") for line in self.moves[-6:]) + (
            text_html(self.error, "bg-error") if self.error else "")
        self.advice_readout.value = "" if self.advice is None else text_html(
            _("{name} (sitter) advises: {advice}").format(
                name=match.roles[Role.SITTER], advice=str(self.advice)), "bg-advice-text")
        if self.showing is not None:
            self.result_readout.value = (STYLE + result_html(self.showing)
                                         + score_html(self.showing, self.rules))
        else:
            self.result_readout.value = ""
        self.score_readout.value = match_html(match)
        if self.show_chart:
            self._render_chart()

    def _status_text(self) -> str:
        match = self.match
        if match.is_over:
            return _("Game over: {name} wins.").format(name=match.winner)
        if self.showing is not None:
            return _("Hand {n} is over. {summary} Press {button}.").format(
                n=len(match.history), summary=self.showing.summary(), button=_("Next hand"))
        name = match.to_play
        role = match.role_of(name) if name else None
        n = len(match.history) + 1
        if name == self.human and role is not None:
            return _("Hand {n}: your turn, {role} — {phase}.").format(
                n=n, role=role.label, phase=match.hand.phase.label)
        return _("Hand {n}: {name} to play.").format(n=n, name=name or "–")

    def _render_cards(self) -> None:
        match = self.match
        if self.showing is not None:
            cards: tuple[Card, ...] = ()
            label = ""
        else:
            view = match.view(self.human)
            cards = view.hand
            if view.role is Role.SITTER:
                label = _("You are the sitter: the captain's cards (you hold none).")
            else:
                label = _("Your cards ({role}):").format(role=view.role.label)
        self.hand_label.value = text_html(label, "bg-hand-label-text") if label else ""
        self.card_buttons = [self._button_for(c) for c in cards]
        if self.selected not in cards:
            self.selected = None
        taken = match.hand.taken_card if self.my_turn else None
        can_act = self.my_turn and match.hand.phase is Phase.DISCARD
        for button in self.card_buttons:
            button.selected = button.card == self.selected
            button.mark("bg-forbidden", button.card == taken
                        and not self.rules.may_discard_taken_card)
            button.disabled = not can_act
        self.hand_row.children = self.card_buttons

    def cumulative_scores(self) -> dict[str, list[int]]:
        """Each player's score after each hand (starting from 0), from the match history."""
        running = dict.fromkeys(self.players, 0)
        series: dict[str, list[int]] = {p: [0] for p in self.players}
        for record in self.match.history:
            if record.winner_name is not None:
                running[record.winner_name] += record.result.points
            for p in self.players:
                series[p].append(running[p])
        return series

    def _render_chart(self) -> None:
        key = (id(self.match), len(self.match.history))
        if key == self._chart_key:
            return
        self._chart_key = key
        self.chart.value = chart_png(self.cumulative_scores(), self.rules.target)

    def static_html(self) -> str:
        """The table as plain HTML (no buttons)."""
        buttons = cards_html([b.card for b in self.card_buttons], style=False)
        before = (self.roles_readout, self.status, self.opponent_readout, self.pile_readout,
                  self.hand_label)
        after = (self.message, self.advice_readout, self.result_readout, self.score_readout)
        return ("".join(str(r.value) for r in before) + buttons
                + "".join(str(r.value) for r in after))


def _esc(text: str) -> str:
    import html

    return html.escape(text)


def _is_rtl_char(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("R", "AL")


def visual_order(text: str) -> str:
    """``text`` in the order its glyphs are drawn, for a renderer that knows no right to
    left (matplotlib): words that hold right-to-left letters are reversed, and so is the
    order of the words; left-to-right text comes back unchanged."""
    if not any(_is_rtl_char(ch) for ch in text):
        return text
    words = text.split(" ")
    return " ".join(w[::-1] if any(_is_rtl_char(ch) for ch in w) else w
                    for w in reversed(words))


def chart_png(series: Mapping[str, Sequence[int]], target: int) -> bytes:
    """A line chart of cumulative scores by hand, as PNG bytes (the same every time)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(6, 3), dpi=80)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for name, values in series.items():
        ax.plot(range(len(values)), values, marker="o", label=visual_order(name))
    ax.axhline(target, color="grey", linestyle="--", linewidth=1)
    hands = max((len(v) for v in series.values()), default=1) - 1
    ax.set_xlim(-0.2, max(hands, 1) + 0.2)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(visual_order(_("hand")))
    ax.set_ylabel(visual_order(_("cumulative score")))
    ax.legend(loc="upper left")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()
