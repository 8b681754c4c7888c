"""Looks only at the first card each player cut: breaks roles_from_cut."""

BREAKS = ["roles_from_cut"]


def roles_from_cut(cuts):
    order = sorted(cuts, key=lambda p: cuts[p][0].rank, reverse=True)
    return dict(zip(["box", "captain", "sitter"], order))
