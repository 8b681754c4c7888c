"""Adds up each player's ranks instead of comparing them in order: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    total = {p: sum(c.rank for c in cuts[p]) for p in cuts}
    box, captain, sitter = sorted(cuts, key=total.get, reverse=True)
    return {"box": box, "captain": captain, "sitter": sitter}
