"""Reads every hand and names the last player to reach the target: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals, winner = {}, None
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
            if totals[scorer] >= target:
                winner = scorer
    return winner
