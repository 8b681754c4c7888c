"""Checks the totals in the order of the names, not of the hands: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
    for name in sorted(totals):
        if totals[name] >= target:
            return name
    return None
