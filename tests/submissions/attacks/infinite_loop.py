"""Attack: loop forever at import (ignoring interruptions) and in the kata."""


def is_set(cards):
    while True:
        pass


while True:
    try:
        while True:
            pass
    except BaseException:
        continue
