"""Fuzzing: thousands of seeded hands between random and greedy bots, random illegal
actions, and match records saved and replayed at random moments.

Every finished hand is scored again from its lay-outs, by the rules, with the
brute-force solvers of bruteforce.py.  The 10,000 hands run in worker processes (one per
core, at most 4) to keep the default run short.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import bruteforce as bf
import pytest

from box_gin import (
    PRESETS,
    Action,
    ActionKind,
    Card,
    Hand,
    IllegalActionError,
    Match,
    Meld,
    Outcome,
    Phase,
    Role,
    Rules,
    SeatView,
    Side,
    Suit,
    full_deck,
    greedy_bot,
    score_hand,
    seeded_random_bot,
)

#: Hands played by bots and checked against the rules on every run of the suite (it was
#: 10,000: every ending and rule preset comes up in a few hundred); a deeper run:
#: ``BOX_GIN_FUZZ_HANDS=100000 .venv/bin/python -m pytest tests/test_fuzz.py``.
N_HANDS = int(os.environ.get("BOX_GIN_FUZZ_HANDS", "2000"))

RULES_CYCLE = (
    Rules(),
    Rules(may_discard_taken_card=True),
    Rules(big_gin=True),
    Rules(oklahoma=True, oklahoma_spades_double=True),
    Rules(gin_bonus=20, undercut_bonus=15, knock_limit=7),
    Rules(knock_limit=0),
)

Bot = Callable[[SeatView], Action]


def knock_limit_by_the_rules(rules: Rules, upcard: Card) -> int:
    """docs/rules.md: the option, or with Oklahoma the upcard's value (an ace: gin only)."""
    if not rules.oklahoma:
        return rules.knock_limit
    return 0 if upcard.rank == 1 else min(upcard.rank, 10)


def points_by_the_rules(rules: Rules, k: int, d: int, gin: bool, big: bool, doubled: bool
                        ) -> tuple[Side, int]:
    """docs/rules.md "Scoring a hand", written out again."""
    if big:
        side, points = Side.KNOCKER, rules.big_gin_bonus + d
    elif gin:
        side, points = Side.KNOCKER, rules.gin_bonus + d
    elif k < d:
        side, points = Side.KNOCKER, d - k
    else:
        side, points = Side.DEFENDER, rules.undercut_bonus + k - d
    return side, 2 * points if doubled else points


def result_problems(hand: Hand) -> list[str]:
    """Everything about a finished hand's result that breaks the rules."""
    out: list[str] = []
    result, rules = hand.result, hand.rules
    if result is None:
        return ["the hand is over but has no result"]
    actor, last = hand.history[-1]
    upcard = hand.deck[20]
    limit = knock_limit_by_the_rules(rules, upcard)
    if result.knock_limit != limit:
        out.append(f"knock limit {result.knock_limit}, the rules say {limit}")
    if result.outcome is Outcome.DRAWN:
        if last.kind is not ActionKind.DISCARD or hand.stock_size != 2:
            out.append("drawn, but not after a discard leaving 2 stock cards")
        if (result.winner, result.points, result.knocker) != (None, 0, None):
            out.append("a drawn hand scored")
        return out
    if hand.stock_size < 2:
        out.append("play went on with fewer than 2 stock cards")
    big = last.kind is ActionKind.BIG_GIN
    if last.kind not in (ActionKind.KNOCK, ActionKind.BIG_GIN) or result.knocker is not actor:
        out.append(f"the hand ended on {last} by {actor} but the knocker is {result.knocker}")
        return out
    defender = actor.opponent
    layout, defence = result.knocker_layout, result.defender_layout
    if layout is None or defence is None:
        return [*out, "a knock without lay-outs"]
    # The knocker's lay-out: valid melds of exactly its cards, within the limit.
    held = set(hand.hands[actor])
    if len(held) != (11 if big else 10) or result.knock_card != last.card:
        out.append("the knocker holds the wrong number of cards")
    if sorted(layout.cards) != sorted(held):
        out.append("the knocker's lay-out is not its cards")
    if not all(bf.is_valid_meld(m.cards) for m in layout.melds):
        out.append("the knocker laid out a non-meld")
    k = layout.deadwood_value
    if k != sum(bf.value(c) for c in layout.deadwood) or k > limit:
        out.append(f"knocker deadwood {k} over the limit {limit}")
    if last.melds is None and k != bf.min_deadwood(held):
        out.append(f"the engine's lay-out leaves {k}, the least is {bf.min_deadwood(held)}")
    if last.melds is not None and {frozenset(m.cards) for m in layout.melds} != {
            frozenset(m.cards) for m in last.melds}:
        out.append("the knocker's own lay-out was not respected")
    gin = k == 0
    # The defender's lay-out: its cards, valid melds, layoffs in a legal order.
    dheld = set(hand.hands[defender])
    own = [c for m in defence.melds for c in m.cards]
    laid = [lo.card for lo in defence.layoffs]
    if sorted([*own, *laid, *defence.deadwood]) != sorted(dheld):
        out.append("the defender's lay-out is not its cards")
    if not all(bf.is_valid_meld(m.cards) for m in defence.melds):
        out.append("the defender laid out a non-meld")
    if gin and laid:
        out.append("layoffs after gin")
    grown = [frozenset(bf.key(c) for c in m.cards) for m in layout.melds]
    for lo in defence.layoffs:
        i = lo.onto_index
        if not (0 <= i < len(grown)) or lo.onto != layout.melds[i] \
                or not bf.can_lay_off(bf.key(lo.card), grown[i]):
            out.append(f"an illegal layoff {lo}")
            break
        grown[i] = grown[i] | {bf.key(lo.card)}
    d = defence.deadwood_value
    best_d = bf.min_deadwood_after_layoffs([] if gin else [m.cards for m in layout.melds],
                                           dheld)
    if d != best_d:
        out.append(f"defender deadwood {d}, the least after layoffs is {best_d}")
    # The score, by the rules and by score_hand.
    doubled = rules.oklahoma and rules.oklahoma_spades_double and upcard.suit is Suit.SPADES
    side, points = points_by_the_rules(rules, k, d, gin, big, doubled)
    winner = actor if side is Side.KNOCKER else defender
    if (result.winner, result.points) != (winner, points):
        out.append(f"scored {result.winner} {result.points}, the rules say {winner} {points}")
    score = score_hand(k, d, gin, rules, big_gin=big, doubled=doubled)
    if score != result.score or score.points != result.points:
        out.append("the result's score is not score_hand's")
    outcome = (Outcome.BIG_GIN if big else Outcome.GIN if gin else
               Outcome.UNDERCUT if side is Side.DEFENDER else Outcome.KNOCK)
    if result.outcome is not outcome:
        out.append(f"outcome {result.outcome}, the rules say {outcome}")
    return out


def state_problems(hand: Hand) -> list[str]:
    """What is wrong with a hand's state between actions."""
    out = []
    problem = bf.conservation_problem(hand)
    if problem:
        out.append(problem)
    sizes = {r: len(cs) for r, cs in hand.hands.items()}
    if hand.phase is Phase.DISCARD:
        assert hand.to_play is not None
        if sizes[hand.to_play] != 11 or sizes[hand.to_play.opponent] != 10:
            out.append(f"{sizes} cards while {hand.to_play} discards")
    elif hand.phase is not Phase.OVER and set(sizes.values()) != {10}:
        out.append(f"{sizes} cards in phase {hand.phase}")
    return out


def eager(bot: Bot, seed: int) -> Bot:
    """A random bot that knocks (with a random legal knock) whenever it may: its knocks
    with much deadwood let the greedy bot undercut."""
    rng = random.Random(seed)

    def eager_bot(view: SeatView) -> Action:
        knocks = [a for a in view.legal_actions
                  if a.kind in (ActionKind.KNOCK, ActionKind.BIG_GIN)]
        return rng.choice(knocks) if knocks else bot(view)

    return eager_bot


def play_one_hand(seed: int) -> list[str]:
    """Play hand ``seed`` between bots; every problem found, as text."""
    rules = RULES_CYCLE[seed % len(RULES_CYCLE)]
    pairing = (seed // len(RULES_CYCLE)) % 8
    random_bots = (seeded_random_bot(seed), seeded_random_bot(~seed))
    if pairing & 4:
        random_bots = (eager(random_bots[0], seed), eager(random_bots[1], ~seed))
    bots: dict[Role, Bot] = {
        Role.CAPTAIN: greedy_bot if pairing & 1 else random_bots[0],
        Role.BOX: greedy_bot if pairing & 2 else random_bots[1],
    }
    hand = Hand.deal(rules, seed=seed)
    problems: list[str] = []
    for _turn in range(200):
        if hand.is_over:
            break
        role = hand.to_play
        assert role is not None
        view = hand.view(role)
        action = bots[role](view)
        if action not in view.legal_actions:
            problems.append(f"bot played {action}, not among the legal actions")
        hand.apply(action)
        problems += state_problems(hand)
        if problems:
            break
    else:
        problems.append("the hand never ended")
    if not problems:
        problems += result_problems(hand)
    return [f"seed {seed} (rules {seed % len(RULES_CYCLE)}, bots {pairing}): {p}"
            for p in problems]


def play_hands(seeds: list[int]) -> list[str]:
    """Play many hands; the problems found (stopping after 20)."""
    problems: list[str] = []
    for seed in seeds:
        try:
            problems += play_one_hand(seed)
        except Exception as err:  # every exception is a finding here
            problems.append(f"seed {seed}: {type(err).__name__}: {err}")
        if len(problems) > 20:
            break
    return problems


def _outcome_counts(seeds: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for seed in seeds:
        rules = RULES_CYCLE[seed % len(RULES_CYCLE)]
        hand = Hand.deal(rules, seed=seed)
        bot = greedy_bot
        while not hand.is_over:
            assert hand.to_play is not None
            hand.apply(bot(hand.view(hand.to_play)))
        assert hand.result is not None
        counts[hand.result.outcome.value] = counts.get(hand.result.outcome.value, 0) + 1
    return counts


def _pool_size() -> int:
    return max(1, min(4, os.cpu_count() or 1))


@pytest.mark.slow
def test_bot_hands_follow_the_rules() -> None:
    seeds = list(range(N_HANDS))
    chunks = [seeds[i::16] for i in range(16)]
    problems: list[str] = []
    if _pool_size() == 1:
        for chunk in chunks:
            problems += play_hands(chunk)
    else:
        context = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else None)
        with ProcessPoolExecutor(_pool_size(), mp_context=context) as pool:
            for found in pool.map(play_hands, chunks):
                problems += found
    assert not problems, "\n".join(problems[:20])


def test_greedy_hands_reach_every_ending() -> None:
    # The fuzzed hands really knock, go gin, undercut and draw.
    counts = _outcome_counts(list(range(300)))
    assert {"knock", "gin", "undercut", "drawn"} <= set(counts), counts


# -- random illegal actions -------------------------------------------------------------

DECK = full_deck()
WORDS = ["take", "pass", "draw", "stock", "discard", "knock", "big", "gin", "[", "]", "10",
         "1H", "XX", "", "♥", "TT", "draw discard", "draw stock"]


def random_meld(rng: random.Random, pool: list[Card]) -> Meld | None:
    """A random valid meld from the pool of cards (or None)."""
    options = [Meld([Card(r, Suit(s)) for r, s in m]) for m in bf.all_valid_melds(pool)]
    return rng.choice(options) if options else None


def random_action(rng: random.Random, hand: Hand) -> object:
    """Anything at all: text, garbage, or an Action of any kind with any card."""
    held = sorted(hand.hands[hand.to_play]) if hand.to_play else []
    card = rng.choice(held if held and rng.random() < 0.6 else DECK)
    roll = rng.random()
    if roll < 0.15:
        return "".join(rng.choice("aAkKsStTdDhHcC0123456789 []♥♠,;xX\n") for _ in range(
            rng.randint(0, 14)))
    if roll < 0.3:
        return " ".join(rng.choice([*WORDS, str(card), card.label]) for _ in range(
            rng.randint(0, 5)))
    if roll < 0.35:
        return rng.choice([None, 42, 3.5, [], {}, card, b"take", ("take",), Meld("2H 3H 4H")])
    kind = rng.choice(list(ActionKind))
    with_card = kind in (ActionKind.DISCARD, ActionKind.KNOCK)
    melds = None
    if kind in (ActionKind.KNOCK, ActionKind.BIG_GIN) and rng.random() < 0.5:
        pool = [c for c in held if c != card]
        found = [random_meld(rng, pool) for _ in range(rng.randint(1, 3))]
        melds = tuple(m for m in found if m is not None) or None
    try:
        action = Action(kind, card if with_card else None, melds)
    except IllegalActionError:
        return str(kind)
    return str(action) if rng.random() < 0.3 else action


def legal_by_the_rules(hand: Hand, action: Action, taken: Card | None) -> bool:
    """Whether docs/rules.md allows ``action`` now (``taken``: the card just taken from the
    discard pile this turn, followed by the test itself)."""
    kind, rules = action.kind, hand.rules
    if hand.phase is Phase.OVER or hand.to_play is None:
        return False
    if hand.phase is Phase.UPCARD_OFFER:
        return kind in (ActionKind.TAKE, ActionKind.PASS)
    if hand.phase is Phase.DRAW:
        both_passed = [a.kind for _r, a in hand.history] == [ActionKind.PASS, ActionKind.PASS]
        return kind is ActionKind.DRAW_STOCK or (
            kind is ActionKind.DRAW_DISCARD and not both_passed)
    held = set(hand.hands[hand.to_play])
    limit = knock_limit_by_the_rules(rules, hand.deck[20])
    if kind is ActionKind.BIG_GIN:
        if not rules.big_gin:
            return False
        return _layout_value(held, action.melds) == 0
    if kind not in (ActionKind.DISCARD, ActionKind.KNOCK):
        return False
    card = action.card
    if card not in held or (card == taken and not rules.may_discard_taken_card):
        return False
    if kind is ActionKind.DISCARD:
        return True
    value = _layout_value(held - {card}, action.melds)  # type: ignore[operator]
    return value is not None and value <= limit


def _layout_value(cards: set[Card], melds: tuple[Meld, ...] | None) -> int | None:
    if melds is None:
        return bf.min_deadwood(cards)
    used = [c for m in melds for c in m.cards]
    if len(used) != len(set(used)) or not set(used) <= cards:
        return None
    if not all(bf.is_valid_meld(m.cards) for m in melds):
        return None
    return sum(bf.value(c) for c in cards - set(used))


def test_random_illegal_actions_are_rejected_and_change_nothing() -> None:
    accepted = rejected = 0
    for seed in range(250):
        rng = random.Random(seed)
        rules = RULES_CYCLE[seed % len(RULES_CYCLE)]
        hand = Hand.deal(rules, seed=seed)
        bot = seeded_random_bot(seed) if seed % 2 else greedy_bot
        taken: Card | None = None
        while True:
            for _try in range(4):
                junk = random_action(rng, hand)
                before = bf.hand_state(hand)
                top = hand.discard_pile[-1] if hand.discard_pile else None
                try:
                    parsed = Action.parse(junk)  # type: ignore[arg-type]
                except IllegalActionError:
                    parsed = None
                legal = parsed is not None and legal_by_the_rules(hand, parsed, taken)
                try:
                    hand.apply(junk)  # type: ignore[arg-type]
                except IllegalActionError:
                    rejected += 1
                    assert bf.hand_state(hand) == before, f"seed {seed}: {junk!r} changed it"
                    assert not legal, f"seed {seed}: legal {junk!r} rejected"
                    continue
                accepted += 1
                assert legal, f"seed {seed}: illegal {junk!r} accepted"
                assert bf.conservation_problem(hand) is None
                assert parsed is not None  # accepted, so it parsed
                taken = _taken_after(parsed, top, taken)
                if hand.is_over:
                    assert not result_problems(hand), (seed, result_problems(hand))
                    break
            if hand.is_over:
                break
            assert hand.to_play is not None
            action = bot(hand.view(hand.to_play))
            top = hand.discard_pile[-1] if hand.discard_pile else None
            hand.apply(action)
            taken = _taken_after(action, top, taken)
            if hand.is_over:
                assert not result_problems(hand), (seed, result_problems(hand))
                break
        # Once the hand is over, nothing at all is accepted.
        over = bf.hand_state(hand)
        for _try in range(10):
            junk = random_action(rng, hand)
            with pytest.raises(IllegalActionError):
                hand.apply(junk)  # type: ignore[arg-type]
            assert bf.hand_state(hand) == over
    assert rejected > 10_000 and accepted > 100, (rejected, accepted)


def _taken_after(action: Action, top: Card | None, taken: Card | None) -> Card | None:
    if action.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
        return top
    if action.kind is ActionKind.DRAW_STOCK:
        return None
    return taken


def test_accepted_actions_were_legal_by_the_rules() -> None:
    # The other direction: every action the judge above calls legal is accepted.
    for seed in range(60):
        rng = random.Random(seed)
        hand = Hand.deal(RULES_CYCLE[seed % len(RULES_CYCLE)], seed=seed)
        taken: Card | None = None
        while not hand.is_over:
            held = sorted(hand.hands[hand.to_play]) if hand.to_play else []
            candidates = [Action(k) for k in (ActionKind.TAKE, ActionKind.PASS,
                                               ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD,
                                               ActionKind.BIG_GIN)]
            candidates += [Action(k, c) for c in held
                           for k in (ActionKind.DISCARD, ActionKind.KNOCK)]
            legal = [a for a in candidates if legal_by_the_rules(hand, a, taken)]
            assert set(legal) == set(hand.legal_actions()), seed
            action = rng.choice(legal)
            top = hand.discard_pile[-1] if hand.discard_pile else None
            hand.apply(action)
            taken = _taken_after(action, top, taken)


# -- match records ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(24))
def test_match_records_round_trip_at_random_moments(seed: int) -> None:
    rng = random.Random(seed)
    rules = list(PRESETS.values())[seed % len(PRESETS)].replace(target=rng.choice([30, 60]))
    match = Match.new(["Ada", "Ben", "Cy"], rules, seed=seed)
    bots = {"Ada": greedy_bot, "Ben": seeded_random_bot(seed), "Cy": greedy_bot}
    stop = rng.randint(0, 300)
    for _ in range(stop):
        if match.is_over:
            break
        player = match.to_play
        assert player is not None
        view = match.view(player)
        assert isinstance(view, SeatView)
        match.apply(bots[player](view))
    copy = Match.from_json(match.to_json())
    assert bf.match_state(copy) == bf.match_state(match)
