"""Scores gin with no defender deadwood as an undercut: breaks score_hand."""

BREAKS = ["score_hand"]


def score_hand(knocker_deadwood, defender_deadwood, gin):
    if knocker_deadwood >= defender_deadwood:
        return ("defender", 10 + knocker_deadwood - defender_deadwood)
    if gin:
        return ("knocker", 25 + defender_deadwood)
    return ("knocker", defender_deadwood - knocker_deadwood)
