"""Orders the cut by comparing players two at a time (functools.cmp_to_key): passes
roles_from_cut."""

PASSES = ["roles_from_cut"]


from functools import cmp_to_key


def roles_from_cut(cuts):
    def compare(a, b):
        for x, y in zip(cuts[a], cuts[b]):
            if x.rank != y.rank:
                return -1 if x.rank > y.rank else 1
        return 0

    order = sorted(cuts, key=cmp_to_key(compare))
    return dict(zip(("box", "captain", "sitter"), order))
