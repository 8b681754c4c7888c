"""Gives a tie (K == D) to the knocker for 0 points instead of an undercut: breaks
score_hand."""

BREAKS = ["score_hand"]


def score_hand(knocker_deadwood, defender_deadwood, gin):
    if gin:
        return ("knocker", 25 + defender_deadwood)
    if knocker_deadwood <= defender_deadwood:
        return ("knocker", defender_deadwood - knocker_deadwood)
    return ("defender", 10 + knocker_deadwood - defender_deadwood)
