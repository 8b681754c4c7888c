"""Forgets the undercut bonus of 10: breaks score_hand."""

BREAKS = ["score_hand"]


def score_hand(knocker_deadwood, defender_deadwood, gin):
    k, d = knocker_deadwood, defender_deadwood
    if gin:
        return ("knocker", 25 + d)
    if k < d:
        return ("knocker", d - k)
    return ("defender", k - d)
