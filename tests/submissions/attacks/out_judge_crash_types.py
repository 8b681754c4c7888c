"""Attack the grader's own judges with answers of unexpected types (a list where a judge
hashes or looks up a role name, a dict where it counts cards): a judge that raised failed
the whole submission, not just the kata."""


def roles_from_cut(cuts):
    return [["box"], ["captain"]]


def next_roles(roles, winner):
    return [roles]


def best_melds(hand):
    return {"melds": [[]]}


def deal(deck):
    return [[deck]]


def is_set(cards):
    return [cards]


def score_hand(*args):
    return {"score": [1]}
