"""The katas: reference solutions pass, stubs and wrong answers fail, feedback is readable."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest

from box_gin import Card, best_melds
from box_gin.katas import BY_NAME, CASE_KATAS, KATAS, check
from box_gin.katas.core import Kata, Raised, Returned, cards_of, fmt, problem
from box_gin.katas.feedback import CheckResult, engine_uses, run_check
from box_gin.katas.wire import Opaque, decode, encode
from box_gin.melds import is_run as engine_is_run
from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parent.parent


@cache
def solutions() -> dict[str, object]:
    """Every function of the solution notebooks, run here as a learner's kernel would:
    each notebook in a namespace of its own, as each is its own kernel (one notebook's
    imports never stand in for another's helpers).  Run when a test first asks (their
    graded cells play the bot kata's hands), not at collection in each xdist worker."""
    found: dict[str, object] = {}
    for path in kit_files(ROOT, "solutions/*.ipynb"):
        ns: dict[str, object] = {}
        for cell in json.loads(path.read_text())["cells"]:
            src = "".join(cell["source"])
            if cell["cell_type"] == "code" and not src.startswith("check("):
                exec(compile(src, str(path), "exec"), ns)
        found.update({k.name: ns[k.name] for k in KATAS if k.name in ns and k.name not in found})
    return found



def C(text: str) -> list[Card]:
    return [Card.parse(w) for w in text.split()]


def test_at_least_fifteen_katas_in_five_notebooks_with_points():
    assert len(CASE_KATAS) >= 15
    assert {k.notebook for k in CASE_KATAS} == {1, 2, 3, 4, 5}
    assert len({k.name for k in KATAS}) == len(KATAS)
    assert all(k.points > 0 and k.public and k.hidden_count > 0 for k in CASE_KATAS)
    # and the bot kata's two functions, graded by playing (tests/test_bot_kata_graded.py)
    assert [(k.name, k.notebook) for k in KATAS if k not in CASE_KATAS] == [
        ("play", 7), ("advise", 7)]


@pytest.mark.parametrize("kata", CASE_KATAS, ids=lambda k: k.name)
def test_the_reference_solution_passes_in_the_notebook(kata):
    result = run_check(solutions()[kata.name], kata)
    assert result.passed, result.feedback()


@pytest.mark.parametrize("kata", CASE_KATAS, ids=lambda k: k.name)
def test_a_stub_fails_and_says_it_is_not_written(kata):
    def stub(*args):
        raise NotImplementedError()

    result = run_check(stub, kata)
    assert not result.passed
    assert "not written yet" in result.feedback()


def _digest_of_hidden_cases() -> str:
    return hashlib.sha256(repr([k.hidden_cases() for k in KATAS]).encode()).hexdigest()


def test_fixed_hidden_cases_are_the_same_in_another_process():
    code = ("import hashlib; from box_gin.katas import KATAS; print(hashlib.sha256(repr("
            "[k.hidden_cases() for k in KATAS]).encode()).hexdigest())")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.strip()
    assert out == _digest_of_hidden_cases()


@pytest.mark.parametrize("kata", CASE_KATAS, ids=lambda k: k.name)
def test_fresh_cases_differ_by_seed_and_are_valid(kata):
    one, two = kata.fresh_cases(1), kata.fresh_cases(2)
    assert len(one) == len(two) == kata.fresh_count
    assert one == kata.fresh_cases(1)
    if kata.name != "card_value":  # 52 cards: two seeds may draw alike
        assert repr(one) != repr(two)
    assert kata.graded_cases(1) == [*kata.public, *kata.hidden_cases(), *one]
    for args in [*kata.hidden_cases(), *one]:
        if kata.name != "roles_from_cut":  # re-cuts come from a fresh deck
            cards = list(cards_of(args))
            assert len(set(cards)) == len(cards), args
        kata.expected(args)  # the reference answers, or rejects with a ValueError


def test_a_function_that_changes_its_argument_fails():
    solution = solutions()["lay_off"]

    def lay_off(knocker_melds, cards, gin=False):
        answer = solution(knocker_melds, cards, gin)
        knocker_melds[0].reverse()  # sorts the caller's meld its own way
        return answer

    result = run_check(lay_off, BY_NAME["lay_off"])
    assert not result.passed and result.failure is not None
    assert "changed its argument knocker_melds" in result.failure.problem


@pytest.mark.parametrize(("kata", "corner"), [
    ("next_roles", lambda a: list(a[0]) != ["box", "captain", "sitter"]),
    ("is_set", lambda a: len(a[0]) == 4 and len({c.rank for c in a[0][:3]}) == 1
     and a[0][3].rank != a[0][0].rank),
    ("is_set", lambda a: len(a[0]) >= 3 and len({c.rank for c in a[0]}) > 1
     and len({c.value for c in a[0]}) == 1),
    ("is_run", lambda a: len(a[0]) > 3 and engine_is_run(a[0][:3]) and not engine_is_run(a[0])),
    ("is_run", lambda a: a[0] != sorted(a[0]) and engine_is_run(a[0])),
    ("best_melds", lambda a: len(a[0]) >= 12),
    ("best_melds", lambda a: len(a[0]) == 0),
    ("best_melds", lambda a: len(a[0]) >= 6 and all(c.rank <= 7 for c in a[0])),
    ("lay_off", lambda a: any(len(m) == 3 and len({c.rank for c in m}) == 1 for m in a[0])
     and any(c.rank == a[0][0][0].rank for c in a[1])),
    ("lay_off", lambda a: len(a[0]) == 2 and {c.rank for c in a[0][0]} & {
        c.rank + 1 for c in a[0][1]}),
    ("lay_off", lambda a: any(sum(c.rank == r for c in a[1]) == 4 for r in range(1, 14))),
])
def test_the_fixed_hidden_cases_reach_the_corners(kata, corner):
    hits = sum(1 for args in BY_NAME[kata].hidden_cases() if corner(args))
    assert hits >= 3, hits


def test_check_finds_a_small_counterexample_for_greedy_runs():
    ns: dict[str, object] = {}
    exec((ROOT / "tests/submissions/best_melds_runs_first.py").read_text(), ns)
    best_melds = ns["best_melds"]
    shown = check(best_melds)
    assert isinstance(shown, CheckResult) and not shown.passed
    text = repr(shown)
    assert "Traceback" not in text and "hint:" in text and "why:" in text
    failure = shown.result.failure
    assert failure is not None and len(failure.args[0]) <= 6
    assert 'class="bg-card' in shown._repr_html_()


def test_check_search_shrinks_a_failure_beyond_the_public_tests():
    def is_run(cards):  # forgets the suit, but the public examples are all one suit but one
        ranks = sorted(c.rank for c in cards)
        return len(cards) >= 3 and ranks == list(range(ranks[0], ranks[0] + len(ranks))) \
            and len(cards) < 6

    result = run_check(is_run, BY_NAME["is_run"])
    assert not result.passed and result.failure is not None
    assert len(result.failure.args[0]) <= 6


def test_check_passes_and_says_how_many_hidden_tests():
    text = repr(check(solutions()["score_hand"]))
    assert text.startswith("✔ score_hand")
    assert "the checker's 100 hidden tests and 50 fresh ones" in text


def test_check_by_name_and_unknown_names():
    assert check(solutions()["is_set"], kata="is_set").passed
    assert "No kata is called" in repr(check(lambda x: x))


def test_calling_the_engines_answer_does_not_pass():
    def best_melds_copy(cards):
        a = best_melds(cards)
        return [list(m.cards) for m in a.melds], list(a.deadwood)

    assert engine_uses(best_melds_copy) == ["box_gin.melds.best_melds"]
    result = run_check(best_melds_copy, BY_NAME["best_melds"])
    assert not result.passed and "not available" in result.feedback()


def test_the_engines_card_value_is_hidden_while_card_value_runs():
    def card_value(card):
        return card.value

    result = run_check(card_value, BY_NAME["card_value"])
    assert not result.passed and "AttributeError" in result.feedback()
    assert Card.parse("KH").value == 10  # and is back afterwards


@contextmanager
def call_timeout(name: str, seconds: float) -> Iterator[Kata]:
    """The kata ``name`` with a call's time shortened to ``seconds`` (a loop then costs
    the test little), put back after."""
    kata = BY_NAME[name]
    before = kata.call_timeout
    object.__setattr__(kata, "call_timeout", seconds)
    try:
        yield kata
    finally:
        object.__setattr__(kata, "call_timeout", before)


def test_an_infinite_loop_times_out_in_the_notebook():
    def is_drawn(stock_size, knocked):
        while True:
            pass

    with call_timeout("is_drawn", 0.2) as kata:
        result = run_check(is_drawn, kata)
    assert not result.passed and "did not finish" in result.feedback()


def test_a_function_that_runs_out_of_time_is_run_no_more():
    """check() of a loop waits for one call's time, not one for every case (hundreds),
    and shows the case it ran out of time on; the cases before it are still judged."""
    calls = []

    def is_drawn(stock_size, knocked):
        calls.append((stock_size, knocked))
        if len(calls) == 3:
            while True:
                pass
        return not knocked and stock_size <= 2

    with call_timeout("is_drawn", 0.2) as kata:
        result = run_check(is_drawn, kata)
    assert len(calls) == 3
    assert not result.passed and "did not finish" in result.feedback()
    assert result.failure is not None and result.failure.args == calls[2]


def test_best_melds_accepts_any_arrangement_of_least_deadwood():
    kata = BY_NAME["best_melds"]
    args = (C("TC TD TH JH QH"),)
    expected = kata.expected(args)
    for answer in (([C("TC TD TH")], C("JH QH")), ([C("TH JH QH")], C("TC TD"))):
        assert problem(kata, args, expected, Returned(answer)) is None
    twice = ([C("TC TD TH"), C("TH JH QH")], [])
    assert "two melds" in problem(kata, args, expected, Returned(twice))


def test_parse_card_must_raise_value_error_on_bad_text():
    kata = BY_NAME["parse_card"]
    expected = kata.expected(("7X",))
    assert isinstance(expected, Raised)
    assert problem(kata, ("7X",), expected, Raised("InvalidCardError", True)) is None
    assert problem(kata, ("7X",), expected, Raised("KeyError", False)) is not None
    assert problem(kata, ("7X",), expected, Returned(None)) is not None


def test_values_cross_the_wire_as_plain_data():
    value = ([C("7H 8H")], {"box": None}, frozenset(C("AS")), 3, True)
    data = encode(value, card_type=Card, card_text=repr)
    json.dumps(data)
    table = {repr(c): c for c in C("7H 8H AS")}
    assert decode(data, card_of=table.__getitem__) == value
    odd = decode(encode(object(), card_type=Card, card_text=repr), card_of=table.get)
    assert isinstance(odd, Opaque) and odd != odd
    assert fmt(C("7H 8H")) == "[7H 8H]"


def test_check_feedback_reads_right_to_left_in_hebrew_with_code_left_to_right():
    from box_gin.i18n import set_language

    ns: dict[str, object] = {}
    exec((ROOT / "tests/submissions/best_melds_runs_first.py").read_text(), ns)
    set_language("he")
    try:
        shown = check(ns["best_melds"])._repr_html_()
    finally:
        set_language("en")
    assert '<div class="bg-check" dir="rtl">' in shown
    assert '<div dir="ltr"><code>best_melds(' in shown
    english = check(ns["best_melds"])._repr_html_()
    assert 'dir="rtl"' not in english


def _wrong(name: str) -> dict[str, object]:
    ns: dict[str, object] = {}
    exec((ROOT / f"tests/submissions/{name}.py").read_text(), ns)
    return ns


def test_an_arrangement_is_drawn_grouped_returned_and_expected():
    kata = BY_NAME["best_melds"]
    result = run_check(_wrong("best_melds_runs_first")["best_melds"], kata, seed=3)
    text = result.feedback()
    assert "Failed a public test." in text  # and the input shown is the smallest found
    assert result.failure is not None and len(result.failure.args[0]) == 5
    assert "returned: [AC 2C 3C], deadwood 3D 3H" in text
    assert "expected: deadwood 3, for example: [3C 3D 3H], deadwood AC 2C" in text
    shown = CheckResult(result)._repr_html_()
    expected_part = shown[shown.index(">expected<"):]
    returned_part = shown[shown.index(">returned<"):shown.index(">expected<")]
    for part in (returned_part, expected_part):
        assert part.count('class="bg-meld"') == 1 and 'class="bg-deadwood"' in part


def test_a_cut_counterexample_reads_as_rounds_from_fresh_decks():
    result = run_check(_wrong("cut_suits_break_ties")["roles_from_cut"], BY_NAME["roles_from_cut"],
                       seed=3)
    failure = result.failure
    assert failure is not None
    lines = result.feedback().splitlines()
    rounds = next(line for line in lines if line.strip().startswith("round 1:"))
    assert "round 2, from a fresh deck:" in rounds
    for j in range(max(len(v) for v in failure.args[0].values())):
        in_round = [cards[j] for cards in failure.args[0].values() if len(cards) > j]
        assert len(set(in_round)) == len(in_round)  # no card twice within a round
    assert "suits never break a tie" in failure.problem


@pytest.mark.parametrize(("name", "kata", "words"), [
    ("run_ace_high", "is_run", "the ace is always low"),
    ("set_equal_values", "is_set", "have the same value but not the same rank"),
    ("lay_off_no_chain", "lay_off", "5C can be laid off above AC 2C 3C, but your answer kept it"),
    ("lay_off_on_gin", "lay_off", "after gin nothing may be laid off"),
    ("can_knock_strictly_below", "can_knock", "within the limit"),
    ("score_tie_not_undercut", "score_hand", "K >= D is an undercut"),
    ("drawn_ignores_knock", "is_drawn", "a knock always ends the hand"),
    ("card_value_ace_eleven", "card_value", "AC is worth 1 in deadwood"),
])
def test_the_why_names_the_rule_and_the_cards(name, kata, words):
    result = run_check(_wrong(name)[kata], BY_NAME[kata], seed=3)
    assert result.failure is not None
    assert words in result.failure.problem, result.failure.problem
    assert "the answer is" not in result.failure.problem


@pytest.mark.parametrize(("name", "kata", "most"), [
    ("is_gin_runs_of_three_only", "is_gin", 5),  # fails an 11-card public test first
    ("run_first_three_only", "is_run", 4),  # needs its wrong card beyond the third
    ("roles_values_in_key_order", "next_roles", 0),  # needs keys out of order
])
def test_a_failure_is_shrunk_public_tests_too(name, kata, most):
    result = run_check(_wrong(name)[kata], BY_NAME[kata], seed=3)
    failure = result.failure
    assert failure is not None
    assert BY_NAME[kata].size(failure.args) <= most, result.feedback()
    if kata == "next_roles":
        assert list(failure.args[0]) != ["box", "captain", "sitter"]


def _round_trip(value):
    return decode(json.loads(json.dumps(encode(value, card_type=Card, card_text=repr))),
                  card_of=lambda t: Card.parse(t))


def test_the_wire_carries_what_the_katas_allow_as_plain_values():
    from collections import OrderedDict, deque, namedtuple
    from enum import Enum, IntEnum
    from types import MappingProxyType

    class Side(str, Enum):  # noqa: UP042 - as a learner writes it
        KNOCKER = "knocker"

    class Hand(list):
        pass

    pair = namedtuple("Pair", "melds deadwood")([C("5H 6H 7H")], Hand(C("KS")))
    got = _round_trip(pair)
    assert type(got) is tuple and got == ([C("5H 6H 7H")], C("KS"))
    assert type(got[1]) is list
    assert _round_trip(OrderedDict(box="Ada")) == {"box": "Ada"}
    assert type(_round_trip(MappingProxyType({"box": "Ada"}))) is dict
    assert _round_trip(deque(C("2C 3C"))) == C("2C 3C")
    assert _round_trip({"a": 1}.keys()) == frozenset({"a"})
    side = _round_trip((Side.KNOCKER, IntEnum("V", "ONE")(1)))
    assert side == ("knocker", 1) and type(side[0]) is str and type(side[1]) is int
    for opaque in ((c for c in C("2C")), b"7H", {"a": 1}.values()):
        assert isinstance(_round_trip(opaque), Opaque)


def test_check_gives_the_function_equal_values_never_the_cases_own():
    """As in the grader, whose child decodes every case from JSON: `is` finds nothing."""
    kata = BY_NAME["next_roles"]
    seen = []

    def next_roles(roles, scorer):
        seen.append((roles, scorer))
        return solutions()["next_roles"](roles, scorer)

    assert run_check(next_roles, kata, fresh=False, search_more=False).passed
    sent = dict(zip(map(id, [a[0] for a in kata.public]), kata.public, strict=True))
    assert seen[0][0] == kata.public[0][0] and id(seen[0][0]) not in sent
    assert seen[0][0]["box"] == "Ada" and seen[0][0]["box"] is not kata.public[0][0]["box"]
    assert seen[0][1] == "box" and seen[0][1] is not kata.public[0][1]


@pytest.mark.parametrize("kata", CASE_KATAS, ids=lambda k: k.name)
def test_the_corners_are_valid_inputs_and_lead_the_fixed_hidden_tests(kata):
    assert kata.corners, kata.name
    assert len(kata.hidden_cases()) == kata.hidden_count >= len(kata.corners)
    hidden = [repr(a) for a in kata.hidden_cases()]
    for args in kata.corners:
        assert repr(args) in hidden
        kata.expected(args)  # a right answer or a rejection, never a crash
        cards = list(cards_of(args))
        if kata.name not in ("roles_from_cut",):  # each round of a cut is a fresh deck
            assert len(cards) == len(set(cards)), args


def test_check_and_the_grader_read_a_reply_alike():
    """The child's reply (``wire.answer``) read by ``check`` and by the grader."""
    from box_gin.checker.grader import decode_outcome
    from box_gin.katas.core import read_outcome
    from box_gin.katas.wire import answer

    def pops(deck):
        deck.pop()
        return {"upcard": deck[0], "rest": tuple(deck[1:])}

    data = json.loads(json.dumps([encode(C("2C 3C 4C"), card_type=Card, card_text=repr)]))
    reply = json.loads(json.dumps(answer(pops, data, card_type=Card, card_text=repr,
                                         card_of=Card.parse)))
    ours = read_outcome(reply, ("deck",), card_of=Card.parse)
    assert ours == decode_outcome(reply, ("deck",))
    assert ours == Returned({"upcard": Card.parse("2C"), "rest": (Card.parse("3C"),)},
                            ("deck",))


def test_a_wait_in_the_notebook_is_not_a_time_out_but_computing_too_long_is():
    # As in the grader's child, the limit is CPU time: a call that waits longer than it
    # on the wall clock (a busy machine) passes; one that computes past it does not.
    import time

    calls = [0]

    def waits(stock_size, knocked):
        calls[0] += 1
        if calls[0] == 1:
            time.sleep(0.6)
        return not knocked and stock_size <= 2

    def computes(stock_size, knocked):
        while True:
            pass

    with call_timeout("is_drawn", 0.3) as kata:
        waited, computed = run_check(waits, kata), run_check(computes, kata)
    assert calls[0] > 1 and waited.passed, waited.feedback()
    assert not computed.passed and "did not finish" in computed.feedback()
