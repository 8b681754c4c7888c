"""Bots: plain functions of a seat's view that return an action, and the sitter's advice;
and the one list of the kit's bots (:data:`KIT_BOTS`) that every place offering bots
reads: the Game Table and the play app, the classroom table, the tournament and the
measurements of strength.

>>> from box_gin import Hand
>>> hand = Hand.deal(seed=1)
>>> advice = advise(hand.view("captain"))
>>> str(advice.action), bool(advice.reason)
('pass', True)
>>> list(KIT_BOTS)
['greedy', 'random', 'expert']
>>> make_bot("expert") is expert_bot
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..errors import BoxGinError
from ..i18n import _
from .expert import expert_advise, expert_bot, expert_choice
from .simple import Advice, Bot, advise, greedy_bot, random_bot, require_turn, seeded_random_bot

__all__ = ["KIT_BOTS", "Advice", "Bot", "BotError", "KitBot", "advise", "bot_label",
           "expert_advise", "expert_bot", "expert_choice", "greedy_bot", "make_bot",
           "random_bot", "require_turn", "seeded_random_bot"]


class BotError(BoxGinError):
    """A bot asked for by a name the kit does not have."""


@dataclass(frozen=True)
class KitBot:
    """One of the kit's bots: how to make it (the random bot plays its seed's moves; the
    others need none) and the advice it gives as a sitter."""

    make: Callable[[int | None], Bot]
    advise: Callable[..., Advice]


def _greedy(seed: int | None) -> Bot:
    return greedy_bot


def _expert(seed: int | None) -> Bot:
    return expert_bot


#: The kit's bots, by name, in the order a form offers them (the first is the default).
KIT_BOTS: dict[str, KitBot] = {
    "greedy": KitBot(_greedy, advise),
    "random": KitBot(seeded_random_bot, advise),  # a random sitter advises as greedy
    "expert": KitBot(_expert, expert_advise),
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The kit's bot of ``name`` (:data:`KIT_BOTS`), made from ``seed``."""
    kit_bot = KIT_BOTS.get(name)
    if kit_bot is None:
        raise BotError(_("unknown bot {name!r}: choose one of {names}").format(
            name=name, names=", ".join(KIT_BOTS)))
    return kit_bot.make(seed)


def bot_label(name: str) -> str:
    """A kit bot's name in the language in use."""
    return {"greedy": _("greedy"), "random": _("random"), "expert": _("expert")}.get(
        name, name)
