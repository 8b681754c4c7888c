"""The views: how the engine's values look.

- :mod:`box_gin.views.cards`: the card faces (standard library only; the grading
  sandbox stages it, and it is ``box_gin.display`` there);
- :mod:`box_gin.views.html`: the HTML of melds, layoffs, discards, deals, results and
  score sheets, importing the engine at the top.

The interactive views (ipywidgets) are :mod:`box_gin.widgets`, beside these: the
teaching widgets and the play app's (``box_gin.widgets.play_app``).  Nothing here is
imported by this package itself, so the sandbox can load ``box_gin.views.cards`` alone.
"""
