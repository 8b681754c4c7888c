"""Escape the limits: a thousand threads, each spinning."""
import threading

STARTED = 0


def spin():
    while True:
        pass


for _ in range(1000):
    try:
        threading.Thread(target=spin, daemon=True).start()
        STARTED += 1
    except (RuntimeError, OSError):
        break


def is_set(cards):
    return STARTED > 0
