"""Counts an undercut only when K > D, and K = D scores nothing: breaks score_hand."""

BREAKS = ["score_hand"]


def score_hand(knocker_deadwood, defender_deadwood, gin):
    k, d = knocker_deadwood, defender_deadwood
    if gin:
        return ("knocker", 25 + d)
    if k == d:
        return ("defender", 0)
    if k > d:
        return ("defender", 10 + k - d)
    return ("knocker", d - k)
