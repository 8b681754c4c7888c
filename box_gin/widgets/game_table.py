"""The Game Table: a whole game from any seat against bots, with the score sheet and a
chart of the cumulative scores (``score_chart.py``); its bots play through the one seat
driver (``box_gin/bots/driver.py``).

>>> table = GameTable(seed=5)
>>> table.match.to_play == table.human or table.showing is not None or table.advising
True
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

import ipywidgets as w

from ..actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, discard, knock
from ..bots import Advice, Bot, advise, make_bot
from ..bots.driver import play_bots
from ..cards import Card
from ..compat import chart_needs_full_install, have_matplotlib
from ..errors import BoxGinError
from ..hand import HandResult, Phase, Role, SeatView
from ..i18n import _, ngettext
from ..match import Match, SitterView
from ..rules import STANDARD, Rules
from ..views.cards import STYLE, back_html, card_html, cards_html
from ..views.html import match_html, result_html, roles_html
from .base import BoxGinWidget, CardButton, button_row, card_row, readout, text_html
from .score_chart import chart_png, score_series

#: The buttons that play an action, by key, with the action each plays (``None``: the
#: action needs the selected card).
ACTION_BUTTONS: dict[str, Action | None] = {"take": TAKE, "pass": PASS, "draw stock": DRAW_STOCK,
                                             "draw discard": DRAW_DISCARD, "discard": None,
                                             "knock": None, "big gin": BIG_GIN}
BotSpec = str | Bot


def _an_input(method: Callable[..., None]) -> Callable[..., None]:
    """Mark a public move of the table (a click, as code): when it is the outermost one,
    it is added to :attr:`GameTable.inputs` and ``on_input`` is told.  Replaying the inputs
    in order on a new table of the same settings gives the same game (the bots are
    seeded), which is how the play app keeps a game across a page reload."""
    @functools.wraps(method)
    def recorded(self: GameTable, *args: Any) -> None:
        self._input_depth += 1
        try:
            method(self, *args)
        finally:
            self._input_depth -= 1
        if not self._input_depth:
            self.inputs.append([method.__name__, *(None if a is None else str(a)
                                                   for a in args)])
            if self.on_input is not None:
                self.on_input(self)
    return recorded


def bot_of(spec: BotSpec, seed: int | None) -> Bot:
    """A bot itself, or one of the kit's by its name (:data:`box_gin.bots.KIT_BOTS`: the
    random bot seeded)."""
    return spec if callable(spec) else make_bot(spec, seed)


#: The table's own styles: the card just drawn, and the sitter's watched cards.
TABLE_STYLE = """<style>
.jupyter-widgets.widget-button.bg-card-button.bg-drawn{border:3px solid #1f6feb;
 box-shadow:0 0 0 3px #1f6feb55}
.jupyter-widgets.widget-button.bg-card-button.bg-drawn::after{content:"\\2605";
 position:absolute;top:-.15em;right:.1em;font-size:.6em;color:#1f6feb}
.jupyter-widgets.widget-button.bg-card-button{position:relative}
.bg-game-table .bg-watching .bg-card-row{opacity:.95}
.bg-game-table .bg-result .bg-with-layoffs{border-color:#f9a825}
.bg-game-table .bg-breakdown{font-weight:normal;opacity:.85}
.bg-game-table.bg-rtl .bg-my-hand{justify-content:flex-end}
</style>"""


class TableCardButton(CardButton):
    """A :class:`CardButton` whose looks are all given when it is made, so that it reaches
    the page in one message (a game shows some forty different cards)."""

    def __init__(self, card: Card, layout: w.Layout) -> None:
        red = card.suit.is_red
        w.Button.__init__(
            self, description=card.label, tooltip=card.spoken, layout=layout,
            style=w.ButtonStyle(font_weight="bold", button_color="white",
                                text_color="#c8102e" if red else "#111111"),
            _dom_classes=("bg-card-button", "bg-red" if red else "bg-black",
                          "bg-card-" + repr(card)))
        self.card = card
        self._selected = False


class GameTable(BoxGinWidget):
    """Play a game of box gin against bots, from any seat.

    ``players``: the three names; ``human``: yours; ``bots``: "greedy", "random", or a
    mapping from each other player's name to one of those or a bot function.  Bots move
    as soon as you have acted; a finished hand stays on the table until Next hand.

    From the sitter's seat you hold no cards: you watch the captain's, step by step, and
    on each of the captain's turns you advise it (the same buttons, then the captain
    plays; a bot captain takes its sitter's advice) or press "no advice" to let it
    decide.  As captain you may ask the sitter (a bot) for its advice.

    Parts: ``card_buttons`` (your cards, or the captain's you watch; click one, then
    Discard or Knock), ``buttons`` "take", "pass", "draw stock", "draw discard",
    "discard", "knock", "big gin", "advice", "no advice", "next hand", "new game";
    read-outs ``roles_readout``, ``status``, ``opponent_readout``, ``pile_readout``,
    ``message``, ``advice_readout``, ``result_readout`` (the finished hand and its one
    score line), ``score_readout`` (the score sheet), ``chart`` (an Image, hidden until
    a hand is scored).  State: ``match``, ``selected``, ``drawn`` (the card just drawn,
    marked ``bg-drawn``), ``showing`` (the result on the table), ``moves``.

    Driving the table from code, wrap many clicks in ``with table.batch():`` so that it
    is drawn once at the end, not after every click.
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
        # Without matplotlib (the browser kit) the chart's place says why it is missing.
        self.show_chart = chart and have_matplotlib()
        self.selected: Card | None = None
        self.drawn: Card | None = None
        self.showing: HandResult | None = None
        self.advice: Advice | None = None
        #: The advice you, the sitter, gave for the captain's next action.
        self.given_advice: Action | None = None
        self._advice_pending = False
        self.moves: list[str] = []
        self.error = ""
        #: Every move made at the table, in order (see :meth:`replay`); ``on_input`` is
        #: called with the table after each.
        self.inputs: list[list[str | None]] = []
        self.on_input: Callable[[GameTable], None] | None = None
        self._input_depth = 0
        self._batching = 0
        self._card_cache: dict[Card, CardButton] = {}
        self._card_layout = w.Layout(width="3em", height="4.2em")
        self.card_buttons: list[CardButton] = []
        self._chart_key: tuple[int, int] | None = None
        self.table_style = w.HTML(TABLE_STYLE)
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
        self.chart_note = readout("bg-chart-note")
        for key, action in ACTION_BUTTONS.items():
            self._button(key, self._player(key, action))
        self._button("advice", self.ask_advice)
        self._button("no advice", self.no_advice)
        self._button("next hand", self.next_hand)
        self._button("new game", self.new_game_next_seed)
        if not rules.big_gin:
            self.buttons["big gin"].layout.display = "none"
        play = button_row([self.buttons[k] for k in ACTION_BUTTONS])
        play.add_class("bg-actions")
        meta = button_row([self.buttons[k] for k in ("advice", "no advice", "next hand",
                                                     "new game")])
        meta.add_class("bg-meta")
        self._new_match(seed)
        self._start([self.table_style, self.roles_readout, self.status,
                     self.opponent_readout, self.pile_readout, self.hand_label,
                     self.hand_row, play, meta, self.message, self.advice_readout,
                     self.result_readout, self.score_readout,
                     *([self.chart] if self.show_chart else
                       [self.chart_note] if chart else [])])

    # -- state -------------------------------------------------------------------------

    @property
    def role(self) -> Role:
        """Your role this hand."""
        return self.match.role_of(self.human)

    @property
    def my_turn(self) -> bool:
        """Whether you are to act now."""
        return self.showing is None and self.match.to_play == self.human

    @property
    def advising(self) -> bool:
        """Whether you are the sitter and the captain waits for your advice."""
        match = self.match
        return (self.showing is None and not match.is_over and self._advice_pending
                and match.role_of(self.human) is Role.SITTER
                and match.to_play == match.roles[Role.CAPTAIN])

    @property
    def seat(self) -> Role:
        """The seat whose cards you see: yours, or the captain's when you are sitter."""
        role = self.role
        return Role.CAPTAIN if role is Role.SITTER else role

    def legal_actions(self) -> list[Action]:
        """The actions you may take now, or, as sitter, advise (none when it is not your
        turn)."""
        return self.match.legal_actions() if self.my_turn or self.advising else []

    def card_button(self, card: Card | str) -> CardButton:
        """The button of one of your cards (or of the captain's, when you are sitter)."""
        card = Card.parse(card) if isinstance(card, str) else card
        return next(b for b in self.card_buttons if b.card == card)

    # -- acting ------------------------------------------------------------------------

    def _new_match(self, seed: int | None) -> None:
        self.match = Match.new(self.players, self.rules, seed)
        self.seed = seed
        others = [p for p in self.players if p != self.human]
        specs = self.bot_specs
        self.bots: dict[str, Bot] = {}
        for i, name in enumerate(others):
            spec = specs.get(name, "greedy") if isinstance(specs, Mapping) else specs
            self.bots[name] = bot_of(spec, None if seed is None else seed * 10 + i)
        self.selected, self.drawn, self.showing, self.advice = None, None, None, None
        self.given_advice, self.moves, self.error = None, [], ""
        self._advice_pending = True
        self._run_bots()

    @_an_input
    def new_game(self, seed: int | None = None) -> None:
        """Start a new game (cut for roles, deal) from ``seed``."""
        self._new_match(seed)
        self.render()

    @_an_input
    def new_game_next_seed(self) -> None:
        """The New game button: the next seed (or a random one without a seed)."""
        self.new_game(None if self.seed is None else self.seed + 1)

    @_an_input
    def next_hand(self) -> None:
        """Clear the finished hand from the table and play on."""
        if self.showing is None or self.match.is_over:
            return
        self.showing, self.advice, self.given_advice, self.moves = None, None, None, []
        self.error, self.drawn, self._advice_pending = "", None, True
        self._run_bots()
        self.render()

    @_an_input
    def play(self, action: Action | str) -> None:
        """Play an action for you (as sitter: advise it); the engine refuses an illegal
        one, saying why."""
        self.error = ""
        if self.advising:
            self.give_advice(action)
            return
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

    @_an_input
    def give_advice(self, action: Action | str) -> None:
        """As sitter, advise the captain to play ``action``; the captain then plays."""
        self.error = ""
        try:
            act = Action.parse(action)
            if not self.advising:
                raise BoxGinError(_("You may advise only as the sitter, when the captain "
                                    "is to play."))
            if act not in self.match.legal_actions():
                raise BoxGinError(_("{action}: the captain may not play that now").format(
                    action=act.label))
        except BoxGinError as err:
            self.error = str(err)
        else:
            self.given_advice, self.selected, self._advice_pending = act, None, False
            self._run_bots()
        self.render()

    @_an_input
    def no_advice(self) -> None:
        """As sitter, stay silent this turn: the captain decides alone."""
        if not self.advising:
            self.error = _("You may advise only as the sitter, when the captain is to "
                           "play.")
        else:
            self.error, self.given_advice, self._advice_pending = "", None, False
            self.selected = None
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

    def _apply(self, name: str, act: Action) -> bool:
        """Play ``act`` for ``name``; True when it ended a hand (shown until the next)."""
        match = self.match
        role = match.role_of(name)
        before = match.hand.cards(role)
        result = match.apply(act, player=name)
        self.moves.append(_("{name} ({role}): {action}").format(
            name=name, role=role.label, action=act.label))
        if result is not None:
            self.showing, self.drawn = result, None
        elif role is self.seat:
            new = set(match.hand.cards(role)) - set(before)
            self.drawn = next(iter(new)) if new else None
        return result is not None

    def _run_bots(self) -> None:
        """Let the bots act until it is your turn (as sitter: until the captain waits for
        your advice), a hand ends, or the game ends."""
        play_bots(self.match, self._decide, self._apply)

    def _decide(self, name: str) -> Action | None:
        """A bot seat's action; None while the table waits: for you, for your advice (a
        bot captain with you as its sitter), or on a hand's end being shown."""
        match = self.match
        if self.showing is not None or name == self.human:
            return None
        view = match.view(name)
        assert isinstance(view, SeatView)            # the player to act is never sitter
        if match.role_of(self.human) is Role.SITTER and match.roles[Role.CAPTAIN] == name:
            if self._advice_pending:
                return None
            # The bot captain plays your advice, when you gave one, else its own choice.
            advice, self.given_advice, self._advice_pending = self.given_advice, None, True
            if advice is not None:
                self.moves.append(_("Your advice: {action}").format(action=advice.label))
                return advice
        return self.bots[name](view)

    @_an_input
    def ask_advice(self) -> None:
        """Ask the sitter what to do (only the captain may)."""
        if not (self.my_turn and self.role is Role.CAPTAIN):
            self.error = _("Only the captain, on its turn, may ask the sitter for advice.")
        else:
            self.error = ""
            self.advice = advise(self.match.view(self.match.roles[Role.SITTER]))
        self.render()

    #: The moves :meth:`replay` may make, by name.
    REPLAYABLE = frozenset({"new_game", "new_game_next_seed", "next_hand", "play",
                            "give_advice", "no_advice", "ask_advice"})

    def replay(self, inputs: Sequence[Sequence[str | None]]) -> None:
        """Make ``inputs`` (another table's :attr:`inputs`) here, drawn once at the end.
        Raises ``ValueError`` naming the first input that is not a move of the table."""
        with self.batch():
            for entry in inputs:
                if not entry or entry[0] not in self.REPLAYABLE:
                    raise ValueError(_("{entry!r} is not a move of the Game Table").format(
                        entry=entry))
                name, *args = entry
                if name == "new_game":
                    getattr(self, name)(*(None if a is None else int(a) for a in args))
                else:
                    getattr(self, str(name))(*args)

    def _select(self, button: CardButton) -> None:
        self.selected = None if self.selected == button.card else button.card
        self.error = ""
        self.render()

    @property
    def batching(self) -> bool:
        """Whether clicks are being batched (the table is drawn when the batch ends)."""
        return self._batching > 0

    @contextmanager
    def batch(self) -> Iterator[GameTable]:
        """Within ``with table.batch():`` clicks play at once and the table is drawn once,
        at the end (driving the widget from code sends few messages)."""
        self._batching += 1
        try:
            yield self
        finally:
            self._batching -= 1
            if not self._batching:
                self.render()

    # -- showing -----------------------------------------------------------------------

    def _labels(self) -> dict[str, str]:
        return {
            "take": _("Take the upcard"), "pass": _("Pass"), "draw stock": _("Draw from stock"),
            "draw discard": _("Draw the discard"), "discard": _("Discard"),
            "knock": _("Knock"), "big gin": _("Big gin"), "advice": _("Ask the sitter"),
            "no advice": _("Let the captain decide"), "next hand": _("Next hand"),
            "new game": _("New game")}

    def _all_card_buttons(self) -> list[CardButton]:
        return list(self._card_cache.values())

    def _button_for(self, card: Card) -> CardButton:
        if card not in self._card_cache:
            button = TableCardButton(card, self._card_layout)
            button.on_click(self._select)
            self._card_cache[card] = button
        return self._card_cache[card]

    def _seat_view(self) -> SeatView | None:
        """The view of the seat whose cards you see (``None`` between hands)."""
        if self.showing is not None:
            return None
        view = self.match.view(self.human)
        return view.captain if isinstance(view, SitterView) else view

    def _synced(self) -> list[w.Widget]:
        return [self.roles_readout, self.status, self.opponent_readout, self.pile_readout,
                self.hand_label, self.hand_row, self.message, self.advice_readout,
                self.result_readout, self.score_readout, self.chart, self.chart.layout,
                *self.buttons.values(), *self._card_cache.values()]

    def render(self) -> None:
        """Show the table from your seat: once, with one message per changed part."""
        if self._batching:
            self._card_list()
            return
        with ExitStack() as stack:
            for widget in self._synced():
                stack.enter_context(widget.hold_sync())
            self._render()

    def _render(self) -> None:
        match = self.match
        view = self._seat_view()
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
        roles = match.history[-1].roles if self.showing is not None else match.roles
        sitter = roles[Role.SITTER] == self.human        # your seat in the hand on the table
        self.buttons["advice"].layout.display = "none" if sitter else None
        self.buttons["no advice"].layout.display = None if sitter else "none"
        self.buttons["no advice"].disabled = not self.advising
        self.buttons["next hand"].disabled = self.showing is None or match.is_over
        if view is not None:
            seat = view.role
            opponent = match.roles[seat.opponent]
            known = cards_html(view.opponent_known, style=False) if view.opponent_known else ""
            label = _("{name} ({role}):").format(name=opponent, role=seat.opponent.label)
            self.opponent_readout.value = (
                f'<div class="bg-readout bg-opponent-cards">{html.escape(label)} '
                f"{back_html(view.opponent_card_count - len(view.opponent_known))}{known}</div>")
            top = view.top_discard
            stock = ngettext("{n} card in the stock", "{n} cards in the stock",
                             view.stock_size).format(n=view.stock_size)
            pile_label = html.escape(_("Discard pile:"))
            self.pile_readout.value = (
                f'<div class="bg-readout bg-pile">{pile_label} '
                f'{card_html(top) if top else "–"}</div>'
                f'<div class="bg-readout bg-stock">{back_html(1)} {html.escape(stock)}</div>')
        else:
            self.opponent_readout.value = ""
            self.pile_readout.value = ""
        self.message.value = "".join(text_html(line, "bg-log") for line in self.moves[-6:]) + (
            text_html(self.error, "bg-error") if self.error else "")
        self.advice_readout.value = "" if self.advice is None else text_html(
            _("Advice from the sitter, {name}: {advice}").format(
                name=match.roles[Role.SITTER], advice=str(self.advice)), "bg-advice-text")
        if self.showing is not None:
            self.result_readout.value = result_html(
                self.showing, match.history[-1].roles, self.rules)
        else:
            self.result_readout.value = ""
        self.score_readout.value = match_html(match)
        if self.show_chart:
            self._render_chart()
        else:
            self.chart_note.value = text_html(chart_needs_full_install(), "bg-chart-note-text")

    def _status_text(self) -> str:
        match = self.match
        if match.is_over:
            return _("Game over. Winner: {name}.").format(name=match.winner)
        if self.showing is not None:
            return _("Hand {n} is over. Press {button} to play on.").format(
                n=len(match.history), button=_("Next hand"))
        name = match.to_play
        role = match.role_of(name) if name else None
        n = len(match.history) + 1
        if name == self.human and role is not None:
            return _("Hand {n}: your turn, {role} — {phase}.").format(
                n=n, role=role.label, phase=match.hand.phase.label)
        if self.advising:
            return _("Hand {n}: the captain, {name}, is to play — {phase}. Your advice? "
                     "Choose a move, or press {button}.").format(
                n=n, name=name, phase=match.hand.phase.label,
                button=_("Let the captain decide"))
        return _("Hand {n}. To play: {name}.").format(n=n, name=name or "–")

    def _card_list(self) -> tuple[Card, ...]:
        """Bring ``card_buttons`` up to date with the cards you see; returns them."""
        view = self._seat_view()
        cards = view.hand if view is not None else ()
        self.card_buttons = [self._button_for(c) for c in cards]
        if self.selected not in cards:
            self.selected = None
        return cards

    def _render_cards(self) -> None:
        match = self.match
        self._card_list()
        if self.showing is not None:
            label = ""
        elif self.role is Role.SITTER:
            label = _("You are the sitter and hold no cards. The captain's cards, which you "
                      "watch and advise on ({name}):").format(
                name=match.roles[Role.CAPTAIN])
        else:
            label = _("Your cards ({role}):").format(role=self.role.label)
        self.hand_label.value = text_html(label, "bg-hand-label-text") if label else ""
        acting = self.my_turn or self.advising
        seat_to_play = self.showing is None and match.hand.to_play is self.seat
        taken = match.hand.taken_card if acting else None
        can_act = acting and match.hand.phase is Phase.DISCARD
        for button in self.card_buttons:
            button.selected = button.card == self.selected
            button.mark("bg-forbidden", button.card == taken
                        and not self.rules.may_discard_taken_card)
            button.mark("bg-drawn", seat_to_play and button.card == self.drawn
                        and match.hand.phase is Phase.DISCARD)
            button.disabled = not can_act
        self.hand_row.children = self.card_buttons

    def cumulative_scores(self) -> dict[str, list[int]]:
        """Each player's score after each hand (starting from 0), from the match history."""
        return score_series(self.match)

    def _render_chart(self) -> None:
        scored = any(r.winner_name is not None for r in self.match.history)
        self.chart.layout.display = None if scored else "none"
        key = (id(self.match), len(self.match.history))
        if not scored or key == self._chart_key:
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
