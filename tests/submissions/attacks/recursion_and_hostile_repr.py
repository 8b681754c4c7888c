"""Break the encoder: an answer whose __repr__, __eq__ and __hash__ raise or recurse, and a
RecursionError with a giant message."""


class Evil:
    def __repr__(self):
        return repr(self)

    def __eq__(self, other):
        raise SystemExit(0)

    def __hash__(self):
        raise SystemExit(0)


def is_set(cards):
    return Evil()


def is_run(cards):
    return [Evil()] * 3000


def card_value(card):
    raise RecursionError("x" * 5_000_000)
