"""The views: how the engine's values look.

- :mod:`box_gin.views.cards`: the card faces (standard library only; the grading
  sandbox stages it, and it is ``box_gin.display`` there);
- :mod:`box_gin.views.html`: the HTML of melds, layoffs, discards, deals, results and
  score sheets, importing the engine at the top;
- :mod:`box_gin.views.play`: the play app's table (ipywidgets).

The teaching widgets are in :mod:`box_gin.widgets`, beside these.  Nothing here is
imported by this package itself, so the sandbox can load ``box_gin.views.cards`` alone.
"""
