"""Notebook 5 by lists: the roles as a list turned round, the draw as arithmetic, the
winner from every prefix of the hands."""

PASSES = ["next_roles", "is_drawn", "game_winner"]


def next_roles(roles, scorer):
    seats = [roles["box"], roles["captain"], roles["sitter"]]
    if scorer == "box":
        seats = [seats[0], seats[2], seats[1]]
    elif scorer == "captain":
        seats = seats[1:] + seats[:1]
    return dict(zip(("box", "captain", "sitter"), seats, strict=False))


def is_drawn(stock_size, knocked):
    return stock_size < 3 and knocked is False


def game_winner(hands, target=100):
    for end in range(1, len(hands) + 1):
        scorer = hands[end - 1][0]
        if scorer is not None:
            total = sum(points for who, points in hands[:end] if who == scorer)
            if total >= target:
                return scorer
    return None
