"""Attack the gradebooks and the cache with a folder name that is not UTF-8 (any Linux
file system allows it): writing it once crashed every output for the whole class."""
FOLDER = b"bad_\xff\xfe_name"


def is_set(cards):
    return False
