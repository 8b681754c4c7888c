"""The match: docs/rules.md "Players and roles", "Winning" and the scoring variants."""

from __future__ import annotations

import json
import random
from collections.abc import MutableSequence, Sequence
from typing import Any

import bruteforce as bf
import pytest

from box_gin import (
    PRESETS,
    STANDARD,
    Card,
    Game,
    HandResult,
    IllegalActionError,
    Match,
    Outcome,
    RecordError,
    Role,
    Rules,
    RulesError,
    advise,
    cut_for_roles,
    greedy_bot,
    next_roles,
    seeded_random_bot,
)
from box_gin.hand import SeatView
from box_gin.match import CutRound, SitterView

BOX, CAPTAIN, SITTER = Role.BOX, Role.CAPTAIN, Role.SITTER
ROLES = {BOX: "Ada", CAPTAIN: "Ben", SITTER: "Cy"}
PLAYERS = ("Ada", "Ben", "Cy")


# -- the rotation of roles --------------------------------------------------------------

@pytest.mark.parametrize(("result", "expected"), [
    # The box won: it stays; captain and sitter swap.
    (HandResult(Outcome.KNOCK, knocker=BOX, winner=BOX, points=12),
     {BOX: "Ada", CAPTAIN: "Cy", SITTER: "Ben"}),
    (HandResult(Outcome.UNDERCUT, knocker=CAPTAIN, winner=BOX, points=10),
     {BOX: "Ada", CAPTAIN: "Cy", SITTER: "Ben"}),
    # The box lost: the captain goes into the box, the sitter becomes captain, the box
    # becomes the sitter.
    (HandResult(Outcome.GIN, knocker=CAPTAIN, winner=CAPTAIN, points=30),
     {BOX: "Ben", CAPTAIN: "Cy", SITTER: "Ada"}),
    (HandResult(Outcome.UNDERCUT, knocker=BOX, winner=CAPTAIN, points=10),
     {BOX: "Ben", CAPTAIN: "Cy", SITTER: "Ada"}),
    # Drawn: nobody moves.
    (HandResult(Outcome.DRAWN), {BOX: "Ada", CAPTAIN: "Ben", SITTER: "Cy"}),
])
def test_next_roles(result: HandResult, expected: dict[Role, str]) -> None:
    assert next_roles(ROLES, result) == expected
    assert ROLES == {BOX: "Ada", CAPTAIN: "Ben", SITTER: "Cy"}     # not changed in place


def _expected_next(roles: dict[Role, str], winner: Role | None) -> dict[Role, str]:
    box, captain, sitter = roles[BOX], roles[CAPTAIN], roles[SITTER]
    if winner is None:
        return dict(roles)
    if winner is BOX:
        return {BOX: box, CAPTAIN: sitter, SITTER: captain}
    return {BOX: captain, CAPTAIN: sitter, SITTER: box}


def _play_out(match: Match, seed: int) -> None:
    bots: dict[str, Any] = {
        PLAYERS[0]: greedy_bot, PLAYERS[1]: seeded_random_bot(seed), PLAYERS[2]: greedy_bot}
    match.play(bots)


def test_roles_rotate_through_a_match_by_the_rules() -> None:
    seen = {"box won": 0, "box lost": 0, "drawn": 0}
    for seed in range(12):
        match = Match.new(PLAYERS, Rules(target=60), seed=seed)
        _play_out(match, seed)
        records = match.history
        for before, after in zip(records, [*records[1:], None], strict=True):
            expected = _expected_next(before.roles, before.result.winner)
            assert (after.roles if after else match.roles) == expected
            kind = ("drawn" if before.result.winner is None else
                    "box won" if before.result.winner is BOX else "box lost")
            seen[kind] += 1
            # The sitter never holds cards and never scores.
            assert before.result.winner in (None, BOX, CAPTAIN)
    assert all(n > 0 for n in seen.values()), seen


# -- the cut for roles ------------------------------------------------------------------

class StackedCut:
    """A stand-in for ``random.Random`` whose shuffles put the given ranks on top, one
    list of ranks per cut (the i-th player in the cut gets the i-th rank)."""

    def __init__(self, *cuts: Sequence[int]) -> None:
        self.cuts = [list(c) for c in cuts]

    def shuffle(self, deck: MutableSequence[Card]) -> None:
        ranks = self.cuts.pop(0)
        top: list[Card] = []
        for rank in ranks:
            top.append(next(c for c in deck if c.rank == rank and c not in top))
        rest = [c for c in deck if c not in top]
        deck[:] = top + rest


@pytest.mark.parametrize(("cuts", "box", "captain", "sitter", "rounds"), [
    # Highest rank is box, middle captain, lowest sitter (king high, ace low).
    ([[13, 7, 2]], "Ada", "Ben", "Cy", [PLAYERS]),
    ([[2, 7, 13]], "Cy", "Ben", "Ada", [PLAYERS]),
    ([[1, 13, 12]], "Ben", "Cy", "Ada", [PLAYERS]),
    # All three tie: all three cut again.
    ([[7, 7, 7], [2, 9, 5]], "Ben", "Cy", "Ada", [PLAYERS, PLAYERS]),
    # Two tie for box: only those two cut again; the sitter is settled.
    ([[9, 9, 3], [4, 8]], "Ben", "Ada", "Cy", [PLAYERS, ("Ada", "Ben")]),
    ([[3, 9, 9], [8, 4]], "Ben", "Cy", "Ada", [PLAYERS, ("Ben", "Cy")]),
    # Two tie for sitter: only those two cut again; the box is settled.
    ([[13, 5, 5], [3, 11]], "Ada", "Cy", "Ben", [PLAYERS, ("Ben", "Cy")]),
    ([[5, 13, 5], [12, 11]], "Ben", "Ada", "Cy", [PLAYERS, ("Ada", "Cy")]),
    # Ties again and again.
    ([[9, 9, 3], [4, 4], [6, 6], [2, 6]], "Ben", "Ada", "Cy",
     [PLAYERS, ("Ada", "Ben"), ("Ada", "Ben"), ("Ada", "Ben")]),
    ([[7, 7, 7], [5, 5, 13], [12, 3]], "Cy", "Ada", "Ben",
     [PLAYERS, PLAYERS, ("Ada", "Ben")]),
])
def test_cut_for_roles(cuts: list[list[int]], box: str, captain: str, sitter: str,
                       rounds: list[tuple[str, ...]]) -> None:
    rng = StackedCut(*cuts)
    roles, record = cut_for_roles(PLAYERS, rng)  # type: ignore[arg-type]
    assert roles == {BOX: box, CAPTAIN: captain, SITTER: sitter}
    assert [tuple(name for name, _c in r.cards) for r in record] == rounds
    assert [[c.rank for _n, c in r.cards] for r in record] == cuts
    assert rng.cuts == []                                  # no extra cut


def _roles_from_rounds(players: Sequence[str], rounds: list[CutRound]) -> dict[Role, str]:
    """Read the roles back from the record of the cut, checking each re-cut was among
    the players tied for a place still in doubt."""
    pending = list(rounds)

    def place(group: list[str]) -> list[str]:
        cut = dict(pending.pop(0).cards)
        assert sorted(cut) == sorted(group), "a re-cut among the wrong players"
        if len(group) > 1 and len({c.rank for c in cut.values()}) == 1:
            return place(group)
        order: list[str] = []
        for rank in sorted({c.rank for c in cut.values()}, reverse=True):
            tied = [n for n in group if cut[n].rank == rank]
            order += place(tied) if len(tied) > 1 else tied
        return order

    order = place(list(players))
    assert not pending, "more cuts than needed"
    return dict(zip((BOX, CAPTAIN, SITTER), order, strict=True))


def test_cut_ties_found_by_searching_seeds() -> None:
    found = {"three tie": 0, "tie for box": 0, "tie for sitter": 0}
    for seed in range(3000):
        roles, rounds = cut_for_roles(PLAYERS, random.Random(seed))
        assert sorted(roles.values()) == sorted(PLAYERS)
        assert roles == _roles_from_rounds(PLAYERS, rounds)
        first = sorted((c.rank for _n, c in rounds[0].cards), reverse=True)
        if first[0] == first[1] == first[2]:
            found["three tie"] += 1
        elif first[0] == first[1]:
            found["tie for box"] += 1
            assert len(rounds[1].cards) == 2
        elif first[1] == first[2]:
            found["tie for sitter"] += 1
            assert len(rounds[1].cards) == 2
        else:
            assert len(rounds) == 1
    assert all(n > 0 for n in found.values()), found


def test_a_match_starts_with_the_cut() -> None:
    match = Match.new(PLAYERS, seed=4)
    assert match.roles == _roles_from_rounds(PLAYERS, match.cuts)
    assert match.to_play == match.roles[CAPTAIN]


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "B"], ["A", "B", " "],
                                     ["A", "B", "C", "D"]])
def test_a_match_needs_three_different_players(players: list[str]) -> None:
    with pytest.raises(IllegalActionError):
        Match.new(players)


# -- scores and the target --------------------------------------------------------------

def test_scores_accumulate_until_the_target() -> None:
    for seed, target in [(1, 100), (2, 40), (3, 1), (4, 150)]:
        match = Match.new(PLAYERS, Rules(target=target), seed=seed)
        _play_out(match, seed)
        assert match.is_over and match.to_play is None and match.legal_actions() == []
        totals = dict.fromkeys(PLAYERS, 0)
        for i, record in enumerate(match.history):
            assert max(totals.values()) < target, "a hand after the game was won"
            name = record.winner_name
            assert (name is None) is (record.result.winner is None)
            if name is not None:
                assert name == record.roles[record.result.winner]  # type: ignore[index]
                totals[name] += record.result.points
            assert record.number == i + 1
        assert match.scores == totals
        assert match.winner is not None and totals[match.winner] >= target
        assert sum(score >= target for score in totals.values()) == 1
        with pytest.raises(IllegalActionError):
            match.apply("pass")


def test_only_the_box_and_captain_score_and_the_sitter_never() -> None:
    match = Match.new(PLAYERS, seed=8)
    _play_out(match, 8)
    for record in match.history:
        if record.winner_name is not None:
            assert record.winner_name != record.roles[SITTER]


@pytest.mark.parametrize(("scores", "won", "winner", "rules", "expected"), [
    # Game bonus 100, box bonus 25 a hand won, no shutout (Ben won hands).
    ({"Ada": 105, "Ben": 40, "Cy": 0}, {"Ada": 4, "Ben": 2, "Cy": 0}, "Ada",
     Rules(classic_bonuses=True), {"Ada": 305, "Ben": 90, "Cy": 0}),
    # A shutout doubles the winner's total.
    ({"Ada": 105, "Ben": 0, "Cy": 0}, {"Ada": 3, "Ben": 0, "Cy": 0}, "Ada",
     Rules(classic_bonuses=True), {"Ada": 560, "Ben": 0, "Cy": 0}),
    ({"Ada": 105, "Ben": 0, "Cy": 0}, {"Ada": 3, "Ben": 0, "Cy": 0}, "Ada",
     Rules(classic_bonuses=True, shutout_doubles=False), {"Ada": 280, "Ben": 0, "Cy": 0}),
    # A box bonus of 20 instead.
    ({"Ada": 10, "Ben": 101, "Cy": 30}, {"Ada": 1, "Ben": 3, "Cy": 1}, "Ben",
     Rules(classic_bonuses=True, box_bonus=20), {"Ada": 30, "Ben": 261, "Cy": 50}),
    # Without classic bonuses the scores stand.
    ({"Ada": 105, "Ben": 0, "Cy": 0}, {"Ada": 3, "Ben": 0, "Cy": 0}, "Ada",
     STANDARD, {"Ada": 105, "Ben": 0, "Cy": 0}),
    # Bonuses count only once someone reaches the target.
    ({"Ada": 50, "Ben": 0, "Cy": 0}, {"Ada": 3, "Ben": 0, "Cy": 0}, None,
     Rules(classic_bonuses=True), {"Ada": 50, "Ben": 0, "Cy": 0}),
])
def test_classic_bonuses(scores: dict[str, int], won: dict[str, int], winner: str | None,
                         rules: Rules, expected: dict[str, int]) -> None:
    assert Game(dict(scores), dict(won), winner).final_scores(rules) == expected


def test_classic_bonuses_in_a_match() -> None:
    rules = PRESETS["classic"]
    match = Match.new(PLAYERS, rules, seed=5)
    _play_out(match, 5)
    won = {p: sum(r.winner_name == p for r in match.history) for p in PLAYERS}
    winner = match.winner
    assert winner is not None
    final = {p: match.scores[p] + 25 * won[p] for p in PLAYERS}
    final[winner] += 100
    if all(won[p] == 0 for p in PLAYERS if p != winner):
        final[winner] *= 2
    assert match.final_scores() == final


def _hollywood_from_history(match: Match, target: int) -> list[dict[str, object]]:
    games: list[dict[str, Any]] = [
        {"scores": dict.fromkeys(PLAYERS, 0), "winner": None} for _ in range(3)]
    wins = dict.fromkeys(PLAYERS, 0)
    for record in match.history:
        name = record.winner_name
        if name is None:
            continue
        wins[name] += 1
        # First win: game 1; second: games 1-2; third and later: games 1-3.
        for game in games[: min(wins[name], 3)]:
            if game["winner"] is None:
                game["scores"][name] += record.result.points
                if game["scores"][name] >= target:
                    game["winner"] = name
    return games


@pytest.mark.parametrize("seed", range(6))
def test_hollywood_keeps_three_games(seed: int) -> None:
    rules = Rules(hollywood=True, target=60)
    match = Match.new(PLAYERS, rules, seed=seed)
    _play_out(match, seed)
    assert match.is_over and len(match.games) == 3
    expected = _hollywood_from_history(match, 60)
    assert [g.scores for g in match.games] == [g["scores"] for g in expected]
    assert [g.winner for g in match.games] == [g["winner"] for g in expected]
    assert match.scores == match.games[0].scores
    # The match's winner won the most games (then the most points).
    won = {p: sum(g.winner == p for g in match.games) for p in PLAYERS}
    assert won[match.winner] == max(won.values())  # type: ignore[index]


def test_hollywood_first_win_counts_in_game_one_only() -> None:
    match = Match.new(PLAYERS, Rules(hollywood=True), seed=2)
    while not match.history or match.history[-1].winner_name is None:
        _step(match, greedy_bot)
    name = match.history[-1].winner_name
    points = match.history[-1].result.points
    assert name is not None and points > 0
    assert [g.scores[name] for g in match.games] == [points, 0, 0]


def _step(match: Match, bot: Any) -> None:
    player = match.to_play
    assert player is not None
    match.apply(bot(match.view(player)))


# -- records ----------------------------------------------------------------------------

@pytest.mark.parametrize(("seed", "actions"), [
    (1, 0),          # a fresh match
    (2, 3),          # mid-hand
    (3, 40),
    (4, 200),        # several hands in, mid-hand
    (5, 10**6),      # to the end
])
def test_match_json_round_trips(seed: int, actions: int) -> None:
    rules = Rules(target=80, oklahoma=True, oklahoma_spades_double=True)
    match = Match.new(PLAYERS, rules, seed=seed)
    bot = seeded_random_bot(seed)
    for _ in range(actions):
        if match.is_over:
            break
        _step(match, greedy_bot if len(match.history) % 2 else bot)
    text = match.to_json()
    json.loads(text)                                   # plain JSON
    copy = Match.from_json(text)
    assert bf.match_state(copy) == bf.match_state(match)
    assert copy.to_json() == text
    # Both continue identically.
    if not match.is_over:
        for m in (match, copy):
            m.play({p: greedy_bot for p in PLAYERS}, max_hands=2)
        assert bf.match_state(copy) == bf.match_state(match)


def test_match_json_round_trips_between_hands() -> None:
    match = Match.new(PLAYERS, seed=9)
    match.play({p: greedy_bot for p in PLAYERS}, max_hands=3)
    assert len(match.history) == 3 and not match.hand.history
    assert bf.match_state(Match.from_json(match.to_json())) == bf.match_state(match)


def test_an_illegal_action_leaves_the_match_as_it_was() -> None:
    match = Match.new(PLAYERS, seed=10)
    match.play({p: greedy_bot for p in PLAYERS}, max_hands=1)
    before = bf.match_state(match)
    for junk in ["draw stock", "discard AS", "knock 7H", "", "big gin", "take 7H"]:
        with pytest.raises(IllegalActionError):
            match.apply(junk)
        assert bf.match_state(match) == before


def test_a_record_that_is_not_a_match_is_rejected() -> None:
    with pytest.raises(ValueError):
        Match.from_json(json.dumps({"format": 999}))


def test_role_of_and_views() -> None:
    match = Match.new(PLAYERS, seed=6)
    for role, name in match.roles.items():
        assert match.role_of(name) is role
        assert match.view(name).role is role
    with pytest.raises(IllegalActionError):
        match.role_of("Zed")
    sitter = match.roles[SITTER]
    view = match.view(sitter)
    # The sitter's view says whose it is, holds no cards of its own, and never acts; it
    # shows the captain's cards as what the sitter watches.
    assert isinstance(view, SitterView)
    assert view.role is SITTER and view.hand == () and view.legal_actions == ()
    assert view.my_turn is False
    assert view.watching == match.hand.cards(CAPTAIN)
    assert view.advising is True                     # the captain is offered the upcard
    html = view._repr_html_()
    assert "bg-sitter-view" in html and "holds no cards" in html


def test_the_sitter_advises_on_the_captains_cards() -> None:
    match = Match.new(PLAYERS, seed=6)
    captain, sitter = match.roles[CAPTAIN], match.roles[SITTER]
    assert advise(match.view(sitter)) == advise(match.view(captain))
    match.apply(greedy_bot(match.view(captain)), player=captain)
    if match.to_play != captain:
        view = match.view(sitter)
        assert isinstance(view, SitterView) and view.advising is False


# -- who acts ---------------------------------------------------------------------------

def test_apply_refuses_an_action_by_the_wrong_seat() -> None:
    match = Match.new(PLAYERS, seed=6)
    to_play = match.to_play
    assert to_play is not None
    before = bf.match_state(match)
    for wrong in (p for p in PLAYERS if p != to_play):
        with pytest.raises(IllegalActionError, match=f"player to act is {to_play}"):
            match.apply("pass", player=wrong)
        assert bf.match_state(match) == before
    with pytest.raises(IllegalActionError, match="no player named 'Zed'"):
        match.apply("pass", player="Zed")
    assert bf.match_state(match) == before
    match.apply("pass", player=to_play)
    assert match.to_play != to_play


# -- making a match: bad input ------------------------------------------------------------

def test_a_string_is_not_three_players() -> None:
    with pytest.raises(IllegalActionError, match="list of three names"):
        Match.new("Ada")          # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="list of three names"):
        Match.new("AdaBenCy")     # type: ignore[arg-type]


@pytest.mark.parametrize("players", [("Ada", "Ada ", "Cy"), (" Ada", "Ben", "Ada"),
                                     ("Ada", "ADA", "Cy")])
def test_names_differing_only_in_spaces_or_capitals_clash(players: tuple[str, ...]) -> None:
    with pytest.raises(IllegalActionError, match="same name"):
        Match.new(players)


def test_names_are_stripped_and_must_be_text() -> None:
    assert Match.new([" Ada", "Ben ", "Cy"], seed=1).players == PLAYERS
    with pytest.raises(IllegalActionError, match="name is text"):
        Match.new(["Ada", "Ben", 3])  # type: ignore[list-item]


def test_rules_may_be_a_mapping_of_options() -> None:
    match = Match.new(PLAYERS, {"target": 50}, seed=2)   # type: ignore[arg-type]
    assert match.rules == Rules(target=50)
    with pytest.raises(RulesError, match="unknown rule option: targt"):
        Match.new(PLAYERS, {"targt": 50})                   # type: ignore[arg-type]
    with pytest.raises(RulesError, match="whole number of 1 or more"):
        Match.new(PLAYERS, {"target": "50"})                # type: ignore[arg-type]
    with pytest.raises(RulesError, match="mapping of option names"):
        Match.new(PLAYERS, 50)                              # type: ignore[arg-type]


def test_spades_double_needs_oklahoma() -> None:
    with pytest.raises(RulesError, match="oklahoma_spades_double needs oklahoma"):
        Rules(oklahoma_spades_double=True)
    assert Rules(oklahoma=True, oklahoma_spades_double=True).oklahoma_spades_double


def test_a_match_without_a_seed_records_the_seed_it_drew() -> None:
    match = Match.new(PLAYERS)
    assert isinstance(match.seed, int)
    match.play({p: greedy_bot for p in PLAYERS}, max_hands=2)
    _step(match, greedy_bot)
    assert bf.match_state(Match.from_json(match.to_json())) == bf.match_state(match)
    with pytest.raises(IllegalActionError, match="seed"):
        Match.new(PLAYERS, seed="7")      # type: ignore[arg-type]


# -- records: every claim is checked ------------------------------------------------------

def _record(seed: int = 11, hands: int = 3, extra: int = 5) -> dict[str, Any]:
    match = Match.new(PLAYERS, Rules(target=60), seed=seed)
    match.play({p: greedy_bot for p in PLAYERS}, max_hands=hands)
    for _ in range(extra):
        _step(match, greedy_bot)
    data: dict[str, Any] = json.loads(match.to_json())
    return data


def _refused(data: Any) -> RecordError:
    with pytest.raises(RecordError) as info:
        Match.from_json(json.dumps(data))
    return info.value


def _scored_hand(data: dict[str, Any]) -> int:
    return next(i for i, h in enumerate(data["hands"]) if h.get("winner"))


@pytest.mark.parametrize(("edit", "field"), [
    (lambda d: d["scores"].__setitem__("Cy", d["scores"]["Cy"] + 5), "scores"),
    (lambda d: d["final_scores"].__setitem__("Ada", 999), "final_scores"),
    (lambda d: d.__setitem__("winner", "Ada"), "winner"),
    (lambda d: d["players"].__setitem__(0, "Zoe"), "hands[0].roles"),
    (lambda d: d["hands"][0]["roles"].__setitem__("box", "Zoe"), "hands[0].roles"),
    (lambda d: d["hands"][1].__setitem__("seed", d["hands"][1]["seed"] + 1), "hands[1].seed"),
    (lambda d: d["hands"][1].__setitem__("number", 7), "hands[1].number"),
    (lambda d: d["hands"][_scored_hand(d)].__setitem__("points", 1),
     "hands[{scored}].points"),
    (lambda d: d["hands"][_scored_hand(d)].__setitem__("outcome", "gin"),
     "hands[{scored}].outcome"),
    (lambda d: d["hands"][_scored_hand(d)].__setitem__("winner", "Cy"),
     "hands[{scored}].winner"),
    (lambda d: d.__setitem__("seed", d["seed"] + 1), "hands[0].roles|hands[0].seed"),
    (lambda d: d["hands"][2]["actions"].insert(0, d["hands"][1]["actions"].pop()),
     "hands[1].actions"),
    (lambda d: d["hands"][1]["actions"].append(d["hands"][2]["actions"].pop(0)),
     "hands[1].actions[{n1}]"),
    (lambda d: d["hands"][3]["actions"].__setitem__(0, "knock AS"), "hands[3].actions[0]"),
    (lambda d: d["hands"][3].__setitem__("points", 5), "hands[3].points"),
    (lambda d: d["rules"].__setitem__("target", "60"), "rules"),
    (lambda d: d["rules"].__setitem__("colour", "red"), "rules"),
    (lambda d: d.__setitem__("comment", "hi"), "comment"),
    (lambda d: d["hands"][0].__setitem__("comment", "hi"), "hands[0].comment"),
    (lambda d: d.__setitem__("format", 3), "format"),
])
def test_a_tampered_record_is_refused_naming_the_field(edit: Any, field: str) -> None:
    data = _record()
    clean = json.dumps(data)
    Match.from_json(clean)                                   # the untouched record loads
    scored, n1 = _scored_hand(data), len(data["hands"][1]["actions"])
    edit(data)
    assert json.dumps(data) != clean
    error = _refused(data)
    assert error.field in field.format(scored=scored, n1=n1).split("|"), str(error)
    assert error.field in str(error)


@pytest.mark.parametrize("key", ["players", "rules", "seed", "hands", "scores",
                                 "final_scores", "winner"])
def test_a_record_missing_a_key_is_the_kits_error(key: str) -> None:
    data = _record()
    del data[key]
    error = _refused(data)
    assert error.field == key and "missing" in str(error)


@pytest.mark.parametrize("key", ["roles", "seed", "actions", "number", "outcome", "winner",
                                 "points"])
def test_a_hand_missing_a_key_is_the_kits_error(key: str) -> None:
    data = _record()
    del data["hands"][0][key]
    error = _refused(data)
    assert error.field == f"hands[0].{key}"


@pytest.mark.parametrize(("edit", "field"), [
    (lambda d: d.__setitem__("players", "Ada"), "players"),
    (lambda d: d.__setitem__("players", ["Ada", "Ben"]), "players"),
    (lambda d: d.__setitem__("players", ["Ada", "Ben", 3]), "players"),
    (lambda d: d.__setitem__("rules", []), "rules"),
    (lambda d: d.__setitem__("seed", None), "seed"),
    (lambda d: d.__setitem__("seed", "11"), "seed"),
    (lambda d: d.__setitem__("seed", True), "seed"),
    (lambda d: d.__setitem__("hands", {}), "hands"),
    (lambda d: d["hands"].__setitem__(0, "pass"), "hands[0]"),
    (lambda d: d["hands"][0].__setitem__("actions", "pass"), "hands[0].actions"),
    (lambda d: d["hands"][0]["actions"].__setitem__(0, 7), "hands[0].actions[0]"),
    (lambda d: d["hands"][0].__setitem__("roles", ["Ada"]), "hands[0].roles"),
    (lambda d: d.__setitem__("scores", [1, 2, 3]), "scores"),
    (lambda d: d.__setitem__("winner", 3), "winner"),
])
def test_a_record_of_the_wrong_type_is_the_kits_error(edit: Any, field: str) -> None:
    data = _record()
    edit(data)
    assert _refused(data).field == field


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", "null", "7", '{"format": 2}'])
def test_a_text_that_is_no_record_is_the_kits_error(text: str) -> None:
    with pytest.raises(RecordError):
        Match.from_json(text)


def test_a_record_of_format_1_is_still_read() -> None:
    data = _record()
    old = {"format": 1, "players": data["players"], "rules": data["rules"],
           "seed": data["seed"], "hands": [h["actions"] for h in data["hands"]],
           "scores": data["scores"]}
    match = Match.from_json(json.dumps(old))
    assert json.loads(match.to_json()) == data
    old["scores"] = {"Ada": 1, "Ben": 0, "Cy": 0}
    assert _refused(old).field == "scores"


def test_a_sitters_view_has_every_field_of_a_seats_view() -> None:
    """``advise = play`` reads a sitter's view as a seat's: every field is there, the
    table's as the captain sees it, the sitter's own cards and actions empty."""
    import dataclasses

    match = Match.new(["Ada", "Ben", "Cy"], seed=5)
    sitter = match.view(match.roles[Role.SITTER])
    captain = match.view(match.roles[Role.CAPTAIN])
    assert isinstance(sitter, SitterView) and isinstance(captain, SeatView)
    own = {"role": Role.SITTER, "hand": (), "legal_actions": (), "my_turn": False}
    fields = [f.name for f in dataclasses.fields(SeatView)] + ["top_discard", "my_turn"]
    for name in fields:
        expected = own[name] if name in own else getattr(captain, name)
        assert getattr(sitter, name) == expected, name
