"""Attack another student through Unicode forms: Café in NFD beside the honest Café in NFC,
one name on macOS and in most LMS imports."""
FOLDER = "Cafe\u0301"


def is_set(cards):
    return False
