"""box-gin: an exact rules engine for three-handed Gin Rummy in its box form.

>>> from box_gin import parse_cards, best_melds
>>> best_melds(parse_cards("AH 2H 3H 9S 9D 9C KS")).deadwood_value
10
"""

# The version, written here only (pyproject.toml and the catalogs read it).
__version__ = "0.1.0"

from . import kernels as kernels
from .actions import Action, ActionKind
from .bots import (
    Advice,
    Bot,
    advise,
    expert_advise,
    expert_bot,
    greedy_bot,
    random_bot,
    seeded_random_bot,
)
from .cards import Card, Suit, card_value, format_cards, full_deck, parse_cards
from .errors import BoxGinError, IllegalActionError, InvalidCardError, RecordError, RulesError
from .hand import Hand, HandResult, Outcome, Phase, Role, SeatView
from .i18n import get_language, set_language
from .knocking import DiscardAnalysis, best_discards, can_knock
from .layoffs import Layoff, LayoffResult, lay_off
from .match import Game, HandRecord, Match, SitterView, cut_for_roles, next_roles
from .melds import Arrangement, Meld, MeldKind, all_melds, best_melds, deadwood, is_run, is_set
from .rules import PRESETS, STANDARD, Rules
from .scoring import HandScore, Side, score_hand

__all__ = [
    "PRESETS", "STANDARD", "Action", "ActionKind", "Advice", "Arrangement", "Bot",
    "BoxGinError", "Card", "DiscardAnalysis", "Game", "Hand", "HandRecord", "HandResult",
    "HandScore", "IllegalActionError", "InvalidCardError", "Layoff", "LayoffResult", "Match",
    "Meld", "MeldKind", "Outcome", "Phase", "RecordError", "Role", "Rules", "RulesError",
    "SeatView", "Side", "SitterView", "Suit",
    "advise", "all_melds", "best_discards", "best_melds", "can_knock", "card_value",
    "cut_for_roles", "deadwood", "expert_advise", "expert_bot", "format_cards", "full_deck", "get_language", "greedy_bot",
    "is_run", "is_set", "lay_off", "next_roles", "parse_cards", "random_bot", "score_hand",
    "seeded_random_bot", "set_language",
]
