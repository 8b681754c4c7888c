"""Finds the leader by `is` against a name built afresh: breaks game_winner."""

BREAKS = ["game_winner"]


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        if scorer is None:
            continue
        totals[scorer] = totals.get(scorer, 0) + points
        if totals[scorer] >= target:
            for name in totals:
                if name is "".join(scorer):  # noqa: F632 - the same text, another object
                    return name
    return None
