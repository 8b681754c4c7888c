"""Lets a defender with no deadwood undercut gin: breaks score_hand."""

BREAKS = ["score_hand"]


def score_hand(knocker_deadwood, defender_deadwood, gin):
    if knocker_deadwood < defender_deadwood:
        return ("knocker", defender_deadwood - knocker_deadwood + (25 if gin else 0))
    return ("defender", 10 + knocker_deadwood - defender_deadwood)
