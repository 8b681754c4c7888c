"""Returns an OrderedDict, a read-only mapping and a Mapping class of its own where a dict is asked for: passes deal, next_roles, roles_from_cut."""

PASSES = ["deal", "next_roles", "roles_from_cut"]


from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType


class Roles(Mapping):
    """The three roles, read-only."""

    def __init__(self, box, captain, sitter):
        self._roles = {"box": box, "captain": captain, "sitter": sitter}

    def __getitem__(self, key):
        return self._roles[key]

    def __iter__(self):
        return iter(self._roles)

    def __len__(self):
        return 3


def deal(deck):
    out = OrderedDict()
    out["captain"] = deck[0:20:2]
    out["box"] = deck[1:20:2]
    out["upcard"] = deck[20]
    out["stock"] = deck[21:]
    return out


def next_roles(roles, scorer):
    b, c, s = roles["box"], roles["captain"], roles["sitter"]
    if scorer == "box":
        return MappingProxyType({"box": b, "captain": s, "sitter": c})
    if scorer == "captain":
        return MappingProxyType({"box": c, "captain": s, "sitter": b})
    return MappingProxyType(dict(roles))


def roles_from_cut(cuts):
    order = sorted(cuts, key=lambda n: [card.rank for card in cuts[n]], reverse=True)
    return Roles(*order)
