"""Escape the limits: three forks holding 450 MB each, beyond a per-process limit."""
import os
import time

KIDS = []
for _ in range(3):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            hoard = bytearray(450 * 1024 * 1024)
            time.sleep(30)
        finally:
            os._exit(0)
    KIDS.append(pid)


def is_set(cards):
    return len(KIDS) == 3
