"""Gives the target a default of 50: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=50):
    totals = {}
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
            if totals[scorer] >= target:
                return scorer
    return None
