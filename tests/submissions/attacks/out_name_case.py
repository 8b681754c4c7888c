"""Attack another student through case: BOB beside the honest bob, one folder on a
case-insensitive file system (an export unzipped on macOS or Windows)."""
FOLDER = "BOB"


def is_set(cards):
    return False
