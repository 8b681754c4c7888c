"""Reads each player's cuts by popping them: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    keys = {}
    for name, cards in cuts.items():
        ranks = []
        while cards:
            ranks.append(cards.pop(0).rank)
        keys[name] = ranks
    order = sorted(keys, key=keys.get, reverse=True)
    return {"box": order[0], "captain": order[1], "sitter": order[2]}
