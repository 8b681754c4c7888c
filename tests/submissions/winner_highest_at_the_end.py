"""Adds up all the hands, then names the highest total if it reached the target: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
    if not totals:
        return None
    best = max(totals, key=totals.get)
    return best if totals[best] >= target else None
