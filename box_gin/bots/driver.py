"""The one seat driver: a match played on by its bots until a person must act.

Every table where people and bots sit together (the Game Table widget and the play app,
the classroom table) moves the same way: after a person's action, each seat that a bot
holds plays in turn, until the match is over or the seat to act is a person's.  What
differs is only *who decides* a seat's action (a bot, a bot captain following a
person's advice, nobody yet) and *what a table does* with each action (shows it, writes
it to its store), so those two are what a table passes in.

>>> from box_gin import Match
>>> from box_gin.bots import greedy_bot
>>> match = Match.new(["Ada", "Bo", "Cy"], seed=3)
>>> bots = {"Bo": greedy_bot, "Cy": greedy_bot}
>>> played = []
>>> def apply(name, action):
...     played.append(name)
...     match.apply(action, player=name)
>>> play_bots(match, bots_decide(match, bots), apply)
>>> match.to_play in (None, "Ada") and all(name in bots for name in played)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..actions import Action
from ..hand import SeatView
from ..match import Match
from .simple import Bot

#: Who decides the seat ``name``'s action now: the action, or None when a person must.
Decide = Callable[[str], Action | None]
#: What a table does with ``name``'s action: apply it to the match (and show it, store
#: it...); True when the table must stop there (a hand's end to be shown).
Apply = Callable[[str, Action], bool | None]


def bots_decide(match: Match, bots: Mapping[str, Bot]) -> Decide:
    """Each seat a bot holds decides by its bot, on its seat's view; the others wait."""

    def decide(name: str) -> Action | None:
        bot = bots.get(name)
        if bot is None:
            return None
        view = match.view(name)
        assert isinstance(view, SeatView)  # the player to act is never the sitter
        return bot(view)

    return decide


def play_bots(match: Match, decide: Decide, apply: Apply) -> None:
    """Play on until the match is over, no seat is to act, ``decide`` leaves the seat to
    act to a person (None), or ``apply`` asks to stop."""
    while not match.is_over:
        name = match.to_play
        if name is None:
            return
        action = decide(name)
        if action is None or apply(name, action):
            return
