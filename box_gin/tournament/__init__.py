"""The class tournament: every bot against every other, in every seat, on duplicate
deals, each submission's bot in the grader's sandbox; ratings with intervals; the
leaderboard.  See ``docs/tournament.md``.

>>> from box_gin.bots import expert_bot, greedy_bot
>>> m = measure(expert_bot, against=greedy_bot, deals=4, seed=1)
>>> 0 <= m.rate <= 1 and m.wins.games + m.drawn == 8
True
"""

from .core import REFERENCE_BOTS, Budget, GameResult, GameSpec, schedule
from .measure import AdviceMeasurement, Measurement, measure, measure_advice
from .ratings import Rating, WinRate
from .run import Entrant, Results, Settings, references, run

__all__ = [
    "REFERENCE_BOTS", "AdviceMeasurement", "Budget", "Entrant", "GameResult", "GameSpec",
    "Measurement", "Rating", "Results", "Settings", "WinRate", "measure", "measure_advice",
    "references", "run", "schedule",
]
