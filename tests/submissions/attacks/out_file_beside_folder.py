"""Attack another student by a file at the top of the class folder, zz_victim.py beside
the honest folder zz_victim/: the file took the name and the student became zz_victim-2."""
FOLDER = "zz_victim"
PLACE = "file"


def is_set(cards):
    return False
