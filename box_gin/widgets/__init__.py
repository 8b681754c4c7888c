"""Interactive teaching widgets (ipywidgets): the only part of box-gin that imports
ipywidgets.  Each widget only calls the engine; the stable CSS classes of the parts a
person acts on and reads are listed in ``docs/css-classes.md``.

- :class:`DealWidget`: the cut for roles and a fresh deal, face up;
- :class:`MeldExplorer`: pick cards, see the best melds, build your own;
- :class:`KnockTrainer`: choose a discard from 11 cards; may you knock?
- :class:`ScoringWidget`: the end of a hand, step by step, to the score;
- :class:`GameTable`: a whole game against bots, from any seat;
- :class:`ReviewWidget`: a played hand step by step, each decision rated and explained.
"""

from .base import STYLESHEET, BoxGinWidget, CardButton
from .deal import DealWidget
from .game_table import GameTable
from .knock_trainer import KnockTrainer
from .meld_explorer import MeldExplorer
from .review_widget import ReviewWidget
from .scoring_widget import ScoringWidget

__all__ = [
    "STYLESHEET", "BoxGinWidget", "CardButton", "DealWidget", "GameTable", "KnockTrainer",
    "MeldExplorer", "ReviewWidget", "ScoringWidget",
]
