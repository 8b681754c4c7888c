"""Exhaust the grader: a submission file far beyond the size cap (the test pads this file
to PAD_BYTES), so reading and hashing it costs memory and time."""
PAD_BYTES = 6 * 1024 * 1024


def is_set(cards):
    return True
