"""Allows layoffs after gin: breaks lay_off."""
from itertools import combinations


def least_deadwood(cards):
    """The least deadwood of the cards (a correct helper, as the notebook gives it)."""
    cards = sorted(cards)
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = min(first.rank, 10) + least_deadwood(rest)
    same_rank = [c for c in rest if c.rank == first.rank]
    for size in (2, 3):
        for others in combinations(same_rank, size):
            best = min(best, least_deadwood([c for c in rest if c not in others]))
    run = [first]
    while True:
        nxt = [c for c in rest if c.suit == first.suit and c.rank == run[-1].rank + 1]
        if not nxt:
            break
        run.append(nxt[0])
        if len(run) >= 3:
            best = min(best, least_deadwood([c for c in rest if c not in run]))
    return best


BREAKS = ["lay_off"]


def lay_off(knocker_melds, cards, gin=False):
    best = least_deadwood(cards)
    for meld in knocker_melds:
        ranks = sorted(card.rank for card in meld)
        for card in cards:
            if len({c.rank for c in meld}) == 1:
                fits = len(meld) == 3 and card.rank == ranks[0]
            else:
                fits = card.suit == meld[0].suit and card.rank in (ranks[0] - 1, ranks[-1] + 1)
            if fits:
                rest = [c for c in cards if c != card]
                others = [m for m in knocker_melds if m is not meld]
                best = min(best, lay_off(others + [meld + [card]], rest))
    return best
