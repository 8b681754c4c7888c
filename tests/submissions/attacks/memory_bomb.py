"""Attack: allocate 4 GB at import and in the kata."""

hoard = []
try:
    hoard.append(bytearray(4 * 1024**3))
except MemoryError:
    pass


def is_set(cards):
    return len(bytearray(4 * 1024**3)) > 0
