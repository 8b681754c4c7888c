"""Caches the roles by the players' names, across calls: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


MEMO = {}


def roles_from_cut(cuts):
    key = tuple(sorted(cuts))
    if key not in MEMO:
        order = sorted(cuts, key=lambda n: [c.rank for c in cuts[n]], reverse=True)
        MEMO[key] = {"box": order[0], "captain": order[1], "sitter": order[2]}
    return dict(MEMO[key])
