"""Attack another student's Gradescope folder: zz_victim. and zz_victim are one folder once
the trailing dot is dropped, so one result overwrote the other."""
FOLDER = "zz_victim."


def is_set(cards):
    return False
