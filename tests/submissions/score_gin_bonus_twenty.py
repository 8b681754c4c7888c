"""Gives gin a bonus of 20 instead of 25: breaks score_hand."""

BREAKS = ["score_hand"]


def score_hand(knocker_deadwood, defender_deadwood, gin):
    k, d = knocker_deadwood, defender_deadwood
    if gin:
        return ("knocker", 20 + d)
    if k < d:
        return ("knocker", d - k)
    return ("defender", 10 + k - d)
