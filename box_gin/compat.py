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
