"""Takes the hands off the list one by one: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    while hands:
        scorer, points = hands.pop(0)
        if scorer is not None:
            totals[scorer] = totals.get(scorer, 0) + points
            if totals[scorer] >= target:
                return scorer
    return None
