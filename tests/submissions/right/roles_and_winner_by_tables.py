"""Next roles from a table of moves, the winner from running totals: passes next_roles,
game_winner, is_drawn."""

PASSES = ["next_roles", "game_winner", "is_drawn"]


MOVES = {"box": ("box", "sitter", "captain"), "captain": ("captain", "sitter", "box"),
         None: ("box", "captain", "sitter")}


def next_roles(roles, scorer):
    new_box, new_captain, new_sitter = MOVES[scorer]
    return {"sitter": roles[new_sitter], "captain": roles[new_captain], "box": roles[new_box]}


def game_winner(hands, target=100):
    totals = {}
    for scorer, points in hands:
        totals[scorer] = totals.get(scorer, 0) + points
        if scorer is not None and totals[scorer] >= target:
            return scorer
    return None


def is_drawn(stock_size, knocked):
    return False if knocked else stock_size < 3
