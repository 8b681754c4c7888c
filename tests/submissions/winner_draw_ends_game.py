"""Stops counting at the first drawn hand, as if a draw ended the game: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        if scorer is None:
            return None
        totals[scorer] = totals.get(scorer, 0) + points
        if totals[scorer] >= target:
            return scorer
    return None
