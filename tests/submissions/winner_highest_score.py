"""Names the player with the most points even when nobody has reached the target: breaks
game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
    return max(totals, key=totals.get) if totals else None
