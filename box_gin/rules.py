"""Every option and variant of the rules, as one frozen value with named presets.

>>> STANDARD.knock_limit, STANDARD.gin_bonus, STANDARD.undercut_bonus, STANDARD.target
(10, 25, 10, 100)
>>> PRESETS["oklahoma"].oklahoma
True
>>> Rules(gin_bonus=20).replace(target=150).target
150
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulesError
from .i18n import _, ngettext, pgettext

#: The hand is drawn when a player discards without knocking and only this many cards
#: remain in the stock (a fixed rule, not an option).
DRAW_AT_STOCK = 2


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of docs/rules.md.  Defaults are the standard game."""

    #: The most deadwood a knocker may keep.
    knock_limit: int = 10
    #: Added to the defender's deadwood when the knocker goes gin (20 is common too).
    gin_bonus: int = 25
    #: Added to the difference when the defender undercuts the knocker.
    undercut_bonus: int = 10
    #: The cumulative score that wins the game.
    target: int = 100
    #: Whether a card just taken from the discard pile may be thrown straight back.
    may_discard_taken_card: bool = False
    #: Big gin: all 11 cards melded after taking a card; go out without a discard.
    big_gin: bool = False
    #: The bonus for big gin (added to the defender's deadwood).
    big_gin_bonus: int = 31
    #: Oklahoma: the first upcard's value sets the hand's knock limit (an ace: gin only).
    oklahoma: bool = False
    #: With Oklahoma, a spade as the first upcard doubles the hand's score.
    oklahoma_spades_double: bool = False
    #: Classic end-of-game bonuses, counted once someone reaches the target.
    classic_bonuses: bool = False
    #: Classic: the bonus to the game's winner.
    game_bonus: int = 100
    #: Classic: the box (line) bonus, to each player for each hand they won.
    box_bonus: int = 25
    #: Classic: a winner whose opponents won no hand has its total doubled.
    shutout_doubles: bool = True
    #: Hollywood: each hand's score goes into three running games at once.
    hollywood: bool = False

    def __post_init__(self) -> None:
        for name in ("knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus",
                     "game_bonus", "box_bonus"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RulesError(
                    _("rule {name} must be a whole number of 0 or more, not {value!r}").format(
                        name=name, value=value)
                )
        for name in ("may_discard_taken_card", "big_gin", "oklahoma", "oklahoma_spades_double",
                     "classic_bonuses", "shutout_doubles", "hollywood"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise RulesError(
                    _("rule {name} is on or off (True or False), not {value!r}").format(
                        name=name, value=value)
                )
        if not isinstance(self.target, int) or isinstance(self.target, bool) \
                or self.target < 1:
            raise RulesError(
                _("rule target must be a whole number of 1 or more, not {value!r}").format(
                    value=self.target)
            )
        if self.oklahoma_spades_double and not self.oklahoma:
            raise RulesError(
                _("rule oklahoma_spades_double needs oklahoma: a spade doubles the score "
                  "only when the first upcard sets the knock limit")
            )

    def replace(self, **changes: Any) -> Rules:
        """A copy with some options changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as plain data (for JSON)."""
        return dataclasses.asdict(self)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`'s data (any mapping of option names to values);
        unknown options are an error."""
        if not isinstance(data, Mapping):
            raise RulesError(
                _("rules are a Rules value or a mapping of option names to values, "
                  "not {value!r}").format(value=data)
            )
        names = {f.name for f in dataclasses.fields(Rules)}
        unknown = {str(k) for k in data} - names
        if unknown:
            raise RulesError(
                ngettext("unknown rule option: {names}", "unknown rule options: {names}",
                         len(unknown)).format(names=", ".join(sorted(unknown)))
            )
        return Rules(**{str(k): v for k, v in data.items()})

    def knock_limit_for(self, upcard_value: int) -> int:
        """The knock limit of a hand whose first upcard has this value.

        Oklahoma: the upcard's value (face cards 10), an ace meaning gin only (0).
        """
        if not self.oklahoma:
            return self.knock_limit
        return 0 if upcard_value == 1 else upcard_value


STANDARD = Rules()

#: Named presets: the standard game and its common variants.
PRESETS: dict[str, Rules] = {
    "standard": STANDARD,
    "gin-20": Rules(gin_bonus=20),
    "big-gin": Rules(big_gin=True),
    "oklahoma": Rules(oklahoma=True),
    "oklahoma-spades": Rules(oklahoma=True, oklahoma_spades_double=True),
    "classic": Rules(classic_bonuses=True),
    "hollywood": Rules(hollywood=True),
    "discard-taken": Rules(may_discard_taken_card=True),
}


def preset_names() -> dict[str, str]:
    """The presets' names in the language in use, by key of :data:`PRESETS` (the play
    app's and the classroom's menus)."""
    return {
        "standard": pgettext("rules preset", "standard"),
        "gin-20": pgettext("rules preset", "gin bonus 20"),
        "big-gin": pgettext("rules preset", "big gin"),
        "oklahoma": pgettext("rules preset", "Oklahoma"),
        "oklahoma-spades": pgettext("rules preset", "Oklahoma, a spade doubles"),
        "classic": pgettext("rules preset", "classic bonuses"),
        "hollywood": pgettext("rules preset", "Hollywood"),
        "discard-taken": pgettext("rules preset", "taken card may go back"),
    }
