"""What this Python can do, for code that runs both on a computer and in the browser.

The zero-install classroom (``make lite``) runs the kit in Pyodide, in the browser, where
the compiled packages of the full install are missing: matplotlib above all, which draws
the score charts.  Code that draws one asks :func:`have_matplotlib` first and, without
it, shows :func:`chart_needs_full_install` instead of raising::

    from box_gin.compat import chart_needs_full_install, have_matplotlib

    if have_matplotlib():
        ...  # draw the chart
    else:
        print(chart_needs_full_install())
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from .i18n import _


def in_browser() -> bool:
    """Whether this Python runs in the browser (Pyodide, on Emscripten)."""
    return sys.platform == "emscripten"


def have_matplotlib() -> bool:
    """Whether matplotlib can be imported (the browser kit has none)."""
    try:
        return importlib.util.find_spec("matplotlib") is not None
    except ValueError:  # a half-imported matplotlib module with no spec
        return "matplotlib" in sys.modules


def chart_needs_full_install() -> str:
    """What to show where a chart would be, when matplotlib is missing."""
    return _("This chart needs matplotlib, which the browser version of the kit does not "
             "have. Everything else works here; to see the chart, use the kit installed "
             "on a computer.")


class _NoChart:
    """Stands in for matplotlib's figures and axes where there is no matplotlib: every
    call does nothing and gives back a stand-in, so a chart cell runs to its end."""

    def __getattr__(self, name: str) -> _NoChart:
        if name.startswith("__"):
            raise AttributeError(name)
        return self

    def __call__(self, *args: object, **kwargs: object) -> _NoChart:
        return self

    def __repr__(self) -> str:
        return "<no chart>"


class NoPyplot(_NoChart):
    """``matplotlib.pyplot`` for a Python without matplotlib: ``show()`` says why there
    is no chart; everything else does nothing."""

    def subplots(self, nrows: int = 1, ncols: int = 1, **kwargs: object
                 ) -> tuple[_NoChart, Any]:
        """A stand-in figure and its axes: one, or a tuple of ``nrows * ncols``."""
        n = nrows * ncols
        return _NoChart(), _NoChart() if n == 1 else tuple(_NoChart() for _ in range(n))

    def show(self, *args: object, **kwargs: object) -> None:
        print(chart_needs_full_install())


def pyplot() -> Any:
    """``matplotlib.pyplot`` when matplotlib is installed, else a :class:`NoPyplot`, so
    that a notebook's chart cells run everywhere::

        from box_gin.compat import pyplot

        plt = pyplot()
        fig, ax = plt.subplots()
        ax.plot([0, 11, 25])
        plt.show()      # in the browser kit: a sentence saying the chart needs matplotlib
    """
    if have_matplotlib():
        import matplotlib.pyplot as plt

        return plt
    return NoPyplot()
