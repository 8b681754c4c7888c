"""A submission with a syntax error."""


def is_set(cards)
    return len(cards) == 3
