"""Compares lists of ranks with `is` to find a tie: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    def ranks(name):
        return [c.rank for c in cuts[name]]

    order = sorted(cuts, key=lambda n: ranks(n)[0], reverse=True)
    for i in range(len(order) - 1):
        a, b = order[i], order[i + 1]
        if ranks(a)[0] is ranks(b)[0] and ranks(a) is ranks(b):  # never the same list
            order[i], order[i + 1] = b, a
    return dict(zip(("box", "captain", "sitter"), order))
