"""Always melds the four cards of a rank as one set, never a set of three of them, so a
run that needs one of the four never meets the set of the other three: breaks best_melds."""

BREAKS = ["best_melds"]


def melds_of(cards):
    out = []
    for rank in {c.rank for c in cards}:
        same = [c for c in cards if c.rank == rank]
        if len(same) >= 3:
            out.append(same)  # all four when there are four
    for c in cards:
        run = [c]
        while True:
            up = [d for d in cards if d.suit == c.suit and d.rank == run[-1].rank + 1]
            if not up:
                break
            run.append(up[0])
            if len(run) >= 3:
                out.append(list(run))
    return out


def best_melds(cards):
    melds = melds_of(cards)  # found once, from the whole hand
    best = (sum(min(c.rank, 10) for c in cards), [])

    def choose(i, used, chosen):
        nonlocal best
        dead = sum(min(c.rank, 10) for c in cards if c not in used)
        if dead < best[0]:
            best = (dead, list(chosen))
        for j in range(i, len(melds)):
            if not used & set(melds[j]):
                choose(j + 1, used | set(melds[j]), [*chosen, melds[j]])

    choose(0, set(), [])
    used = {c for m in best[1] for c in m}
    return best[1], [c for c in cards if c not in used]
