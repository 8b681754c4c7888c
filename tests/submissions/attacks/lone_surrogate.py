"""Crash the class: answers, exception messages and cell errors carrying lone surrogates."""
print("\ud800")


def is_set(cards):
    return "\ud800\udfff"


def is_run(cards):
    raise ValueError("\ud800 broken \udc80")


def card_value(card):
    return {"\ud800": ["\udfff"] * 50}


raise RuntimeError("\ud800 at import")
