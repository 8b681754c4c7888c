"""Attack the spreadsheet with a name starting with a tab and a formula after it."""
FOLDER = "\t+cmd|' -c calc'!A0-1"


def is_set(cards):
    return False
