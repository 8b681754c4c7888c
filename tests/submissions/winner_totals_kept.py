"""Keeps the running totals in a global, never reset between games: breaks game_winner."""

BREAKS = ["game_winner"]


TOTALS = {}


def game_winner(hands, target=100):
    for scorer, points in hands:
        if scorer is not None:
            TOTALS[scorer] = TOTALS.get(scorer, 0) + points
            if TOTALS[scorer] >= target:
                return scorer
    return None
