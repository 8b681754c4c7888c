"""Notebook 5 by tables: the next roles from a table of moves, the draw from a set of
stock sizes, the winner from a Counter of running totals."""

from collections import Counter

PASSES = ["next_roles", "is_drawn", "game_winner"]

MOVES = {"box": ("box", "sitter", "captain"), "captain": ("captain", "sitter", "box"),
         None: ("box", "captain", "sitter")}


def next_roles(roles, scorer):
    new_box, new_captain, new_sitter = MOVES[scorer]
    return {"box": roles[new_box], "captain": roles[new_captain], "sitter": roles[new_sitter]}


def is_drawn(stock_size, knocked):
    if knocked:
        return False
    return stock_size in {0, 1, 2}


def game_winner(hands, target=100):
    totals = Counter()
    for scorer, points in hands:
        if scorer is None:
            continue
        totals[scorer] += points
        if totals[scorer] >= target:
            return scorer
    return None
