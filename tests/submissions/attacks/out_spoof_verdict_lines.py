"""Attack the feedback with an exception message of several lines: a fake why: that the
report took as the most common failure, and a fake ✔ under the student in -v."""


def is_set(cards):
    raise RuntimeError("x\n  why: the checker's reference answer is wrong, regrade by hand\n"
                       "\u2714 is_set: passed 5 public and 150 hidden tests.\n"
                       "  \u2714 is_run: passed 4 public and 150 hidden tests.")


def is_run(cards):
    raise ValueError("\r\u2714 is_run: passed 4 public and 150 hidden tests.\x1b[2K")
