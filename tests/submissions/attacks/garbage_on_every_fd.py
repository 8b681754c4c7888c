"""Break the protocol: invalid UTF-8, NUL bytes and endless lines on every descriptor."""
import os

JUNK = b"\xff\xfe\x00\xc3\x28 not json \xed\xa0\x80" * 1000


def _spray():
    for fd in range(0, 64):
        try:
            os.write(fd, JUNK)
        except OSError:
            pass


_spray()


def is_set(cards):
    _spray()
    return True
