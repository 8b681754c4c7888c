"""Crash the parent's decoder: answers nested thousands deep, and a forged deep line."""
import gc


def _deep(n):
    value = []
    for _ in range(n):
        value = [value]
    return value


def is_set(cards):
    return _deep(100_000)


def is_run(cards):
    for obj in gc.get_objects():
        if callable(obj) and getattr(obj, "__name__", "") == "send":
            obj({"t": "result", "id": 1, "outcomes": _deep(50_000)})
    return _deep(5000)
