"""Litter: leave files in the current folder, HOME, /tmp, the grader's temporary folder and
the gradebook's folder."""
import os
import tempfile

TARGETS = [".", os.path.expanduser("~"), "/tmp", tempfile.gettempdir(), "/var/tmp",
           os.path.dirname("GRADEBOOK_PATH")]
LEFT = 0
for folder in TARGETS:
    try:
        with open(os.path.join(folder, "box-gin-litter.txt"), "w") as f:
            f.write("litter")
        LEFT += 1
    except OSError:
        pass


def is_set(cards):
    return LEFT > 0
