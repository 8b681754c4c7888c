"""Attack the instructor's terminal and report with U+202E: the name reads backwards and
reorders what follows it on the line (another student's score seems to be this one's)."""
FOLDER = "zz_\u202e63 of 63 ada"


def is_set(cards):
    return False
