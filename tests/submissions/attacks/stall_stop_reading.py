"""Stall the grader: claim ready, then never read another request (the grader's writes
fill the pipe) and never answer."""
import gc
import os
import time

for obj in gc.get_objects():
    if callable(obj) and getattr(obj, "__name__", "") == "send":
        obj({"t": "ready", "errors": [], "functions": ["is_set", "is_run", "best_melds"],
             "blocked": []})
try:
    os.close(0)
except OSError:
    pass
time.sleep(3600)


def is_set(cards):
    return True
