"""One adapter module per peer engine: the same three workloads, in each engine's own terms.

Each module has ``NAME``, ``available()`` and the workload functions the benchmark times:
``prepare_10``/``best_melds`` (least deadwood of 10-card hands), ``prepare_11``/
``best_discards`` (the least deadwood left by each of 11 discards), and ``play`` (complete
hands between random players).  Hands come in as lists of box-gin card indices
(``suit * 13 + rank - 1``); every conversion happens in ``prepare_*``, before timing.
"""
