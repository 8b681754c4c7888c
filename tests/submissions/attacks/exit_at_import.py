"""Attack: os._exit(0) at import, hoping a clean exit reads as success."""
import os

os._exit(0)


def is_set(cards):
    return True
