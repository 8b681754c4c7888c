"""Always plays to 100, whatever the target: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
            if totals[scorer] >= 100:
                return scorer
    return None
