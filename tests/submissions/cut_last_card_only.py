"""Compares only the last card each player cut: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    box, captain, sitter = sorted(cuts, key=lambda p: cuts[p][-1].rank, reverse=True)
    return {"box": box, "captain": captain, "sitter": sitter}
