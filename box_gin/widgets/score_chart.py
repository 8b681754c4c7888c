"""The Game Table's chart: each player's cumulative score, hand by hand, against the
target (matplotlib, imported only when a chart is drawn)."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..i18n import _

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..match import Match


def score_series(match: Match) -> dict[str, list[int]]:
    """Each player's score after each hand of ``match`` (starting from 0)."""
    running = dict.fromkeys(match.players, 0)
    series: dict[str, list[int]] = {p: [0] for p in match.players}
    for record in match.history:
        if record.winner_name is not None:
            running[record.winner_name] += record.result.points
        for p in match.players:
            series[p].append(running[p])
    return series


def chart_figure(series: Mapping[str, Sequence[int]], target: int) -> Figure:
    """A line chart of cumulative scores by hand.  Its text is given in logical order:
    matplotlib (3.10 and later, with libraqm) shapes right-to-left text itself."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    fig = Figure(figsize=(6, 3), dpi=80)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for name, values in series.items():
        ax.plot(range(len(values)), values, marker="o", label=name)
    ax.axhline(target, color="grey", linestyle="--", linewidth=1)
    hands = max((len(v) for v in series.values()), default=1) - 1
    ax.set_xlim(-0.2, max(hands, 1) + 0.2)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(_("hand"))
    ax.set_ylabel(_("cumulative score"))
    ax.legend(loc="upper left")
    fig.tight_layout()
    return fig


def chart_png(series: Mapping[str, Sequence[int]], target: int) -> bytes:
    """The chart of :func:`chart_figure` as PNG bytes (the same every time)."""
    buf = io.BytesIO()
    chart_figure(series, target).savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()
