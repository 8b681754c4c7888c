"""Attack the instructor's terminal with U+202E, an OSC 52 clipboard write and a BEL in an
exception message (quoted in the feedback, printed by -v)."""


def is_set(cards):
    raise KeyError("\u202ederahs-si-yek\x1b]52;c;ZXZpbA==\x07\x07")


def is_run(cards):
    return "\u202e\x1b[31mred\x1b[0m"
