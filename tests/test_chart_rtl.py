"""The Game Table's chart in a right-to-left language: the order in which its glyphs are
drawn, read from the rendered pixels (not from the string handed to matplotlib)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("matplotlib")

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from box_gin.i18n import get_language, set_language
from box_gin.widgets.score_chart import chart_figure

SHIN, YOD, MEM, RESH = "\u05e9", "\u05d9", "\u05de", "\u05e8"
DPI = 300


@pytest.fixture
def hebrew() -> Iterator[None]:
    before = get_language()
    set_language("he")
    yield
    set_language(before)


def _ink(canvas: FigureCanvasAgg, text: Text) -> np.ndarray:
    """The dark pixels inside ``text``'s box, as a boolean image."""
    canvas.draw()
    box = text.get_window_extent(canvas.get_renderer())
    pixels = np.asarray(canvas.buffer_rgba())[..., :3].min(axis=2) < 128
    height = pixels.shape[0]
    top, bottom = int(height - box.y1) - 1, int(height - box.y0) + 1
    return pixels[max(top, 0):bottom, int(box.x0) - 1:int(box.x1) + 1]


def glyph_widths(ink: np.ndarray) -> list[int]:
    """The widths of the runs of inked columns, left to right: one per glyph for letters
    that do not touch."""
    inked = [bool(column) for column in np.asarray(ink.any(axis=0))]
    widths, run = [], 0
    for column in inked:
        if column:
            run += 1
        elif run:
            widths.append(run)
            run = 0
    return [*widths, run] if run else widths


def drawn_alone(char: str, fontsize: float) -> int:
    """The width in pixels of one letter drawn on its own."""
    fig = Figure(figsize=(2, 2), dpi=DPI)
    canvas = FigureCanvasAgg(fig)
    text = fig.text(0.1, 0.4, char, fontsize=fontsize)
    (width,) = glyph_widths(_ink(canvas, text))
    return width


def legend_text(fig: Figure, name: str) -> Text:
    (ax,) = fig.axes
    legend = ax.get_legend()
    assert legend is not None
    return next(t for t in legend.get_texts() if t.get_text().strip() == name)


def test_the_letters_used_here_differ_in_width() -> None:
    widths = {c: drawn_alone(c, 10) for c in (SHIN, YOD, MEM, RESH)}
    values = sorted(widths.values())
    assert all(b - a > 2 for a, b in itertools.pairwise(values)), widths


@pytest.mark.usefixtures("hebrew")
@pytest.mark.parametrize(("name", "visual"), [
    # One word: its first letter (shin) is drawn rightmost.
    (SHIN + YOD, [YOD, SHIN]),
    # Two words: the first word is drawn on the right, each word right to left.
    (SHIN + YOD + " " + MEM + RESH, [RESH, MEM, YOD, SHIN]),
])
def test_a_hebrew_name_is_drawn_right_to_left_in_the_chart(name: str,
                                                           visual: list[str]) -> None:
    fig = chart_figure({name: [0, 12, 30], "Ada": [0, 0, 25], "Ben": [0, 5, 5]}, 100)
    fig.set_dpi(DPI)
    text = legend_text(fig, name)
    drawn = glyph_widths(_ink(FigureCanvasAgg(fig), text))
    expected = [drawn_alone(c, float(text.get_fontsize())) for c in visual]
    assert len(drawn) == len(expected), (drawn, expected)
    assert all(abs(a - b) <= 1 for a, b in zip(drawn, expected, strict=True)), \
        (drawn, expected)
