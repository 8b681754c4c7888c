"""Breaks a tied cut by suit instead of cutting again: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    order = sorted(cuts, key=lambda p: (cuts[p][0].rank, cuts[p][0].suit), reverse=True)
    return dict(zip(["box", "captain", "sitter"], order))
