"""Attack the terminal through rich markup in the folder name: a style and a link."""
FOLDER = "[bold green]36 of 36 PASSED [link=file:passwd]click"


def is_set(cards):
    return False
