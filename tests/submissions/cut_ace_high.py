"""Counts the ace as the highest card of the cut: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    def ranks(p):
        return [14 if c.rank == 1 else c.rank for c in cuts[p]]

    box, captain, sitter = sorted(cuts, key=ranks, reverse=True)
    return {"box": box, "captain": captain, "sitter": sitter}
