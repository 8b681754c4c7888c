"""The eighteen katas, in the order of their notebooks: sixteen judged on cases in the five
exercise notebooks, then the bot kata's two functions (notebook 7), judged by playing.

Each notebook's katas live in a module of their own, beside their generators, references
and judges: ``nb1_cards``, ``nb2_melds``, ``nb3_knocking``, ``nb4_scoring``,
``nb5_game`` (what they share is in ``common``), and ``nb7_bots``: ``play`` and
``advise``, each a :class:`~box_gin.katas.specs.nb7_bots.BotKata` graded by playing
hands in every preset and seat (no cases).  Each kata's answer is computed by the
engine (or, for the three-player game's plain rules, by the short reference functions
there); the learner's answer is judged against it.  Where several answers are right (an
arrangement of least deadwood, the order of a list of melds), the judge accepts every
right one.

Each kata's fixed hidden tests start with its *corners* (``Kata.corners``), written out
beside its generator with the classes of input they cover: boundaries, free orderings,
inputs the text allows though no game produces them, text at its edges.  They decide
every verdict the project's collection of submissions knows, whatever the seed.
"""

from __future__ import annotations

from ..core import Kata
from . import nb1_cards, nb2_melds, nb3_knocking, nb4_scoring, nb5_game, nb7_bots

KATAS: tuple[Kata, ...] = (*nb1_cards.KATAS, *nb2_melds.KATAS, *nb3_knocking.KATAS,
                           *nb4_scoring.KATAS, *nb5_game.KATAS, *nb7_bots.KATAS)
#: The katas judged on cases (all but the bot kata's functions).
CASE_KATAS: tuple[Kata, ...] = tuple(k for k in KATAS if not isinstance(k, nb7_bots.BotKata))

BY_NAME: dict[str, Kata] = {k.name: k for k in KATAS}


def katas_of(notebook: int) -> tuple[Kata, ...]:
    """The katas of one notebook, in order."""
    return tuple(k for k in KATAS if k.notebook == notebook)


#: The notebooks of the katas judged on cases (the bot kata's: ``nb7_bots.NOTEBOOK``).
NOTEBOOKS: dict[int, str] = {
    1: "01_cards_and_dealing", 2: "02_melds", 3: "03_knocking", 4: "04_scoring",
    5: "05_the_three_player_game",
}
