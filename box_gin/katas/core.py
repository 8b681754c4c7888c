"""What a kata is, what running a learner's function on one input gives, and how a
whole kata is judged: public tests, then many more, then the smallest input that fails.

The same judging serves the notebook's ``check`` (the function runs in the kernel) and
the checker (it runs in a child process): only the *oracle*, the thing that calls the
learner's function on a batch of inputs, differs.  Expected answers are always computed
here, by the engine, never by the code being judged.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..cards import Card
from ..i18n import _, ngettext
from .draw import Draw, RandomDraw
from .wire import decode

Args = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Returned:
    """The learner's function returned ``value`` (decoded to plain data and cards).

    ``changed`` names the arguments the function changed in place (it must leave its
    inputs alone: the caller still needs them)."""

    value: Any
    changed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Raised:
    """The learner's function raised an exception (or is expected to)."""

    type_name: str
    value_error: bool = True
    message: str = ""


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The learner's function took longer than its time allowance."""

    seconds: float


Outcome = Returned | Raised | TimedOut
#: Runs the learner's function on each input of a batch.
Oracle = Callable[[Sequence[Args]], list[Outcome]]


@dataclass(frozen=True, eq=False)
class Kata:
    """One exercise: its function, its tests, and how an answer is judged."""

    #: The kata's name, which is also the name of the function the learner writes.
    name: str
    #: The exercise notebook the kata is in (1 to 5).
    notebook: int
    points: int
    #: A one-line summary, in the language in use.
    summary: Callable[[], str]
    #: What to think about when an answer is wrong, in the language in use.
    hint: Callable[[], str]
    #: The public examples, as argument tuples.
    public: tuple[Args, ...]
    #: Makes one random input (argument tuple).
    generate: Callable[[Draw], Args]
    #: The right answer; raising ``ValueError`` means the input must be rejected.
    reference: Callable[..., Any]
    #: Why ``got`` is wrong for ``args`` given the ``expected`` answer, or None.
    judge: Callable[[Args, Any, Any], str | None]
    #: How big an input is (cards in it, or a number): smaller counterexamples first.
    size: Callable[[Args], int]
    #: Smaller inputs close to this one, for shrinking a counterexample.
    shrink: Callable[[Args], Iterator[Args]] = field(default=lambda args: iter(()))
    #: How to show the expected answer; default: as a value.
    show_expected: Callable[[Args, Any], str] | None = None
    #: Engine names hidden while the learner's function runs, because they are the
    #: answer: ``("Card", attribute)`` or ``("cards", function)``.
    hide: tuple[tuple[str, str], ...] = ()
    #: The parameter names, for showing a call.
    params: tuple[str, ...] = ()
    #: A returned value as an arrangement, (melds, deadwood), to draw it grouped; None
    #: when the kata has no arrangements or the value is not one.
    arrangement: Callable[[Any], tuple[list[list[Card]], list[Card]] | None] | None = None
    #: The expected answer as an arrangement (one of the right ones) and its deadwood.
    expected_arrangement: Callable[[Args], tuple[list[list[Card]], list[Card]]] | None = None
    #: A line that reads the input as a player would (a cut's rounds), or None.
    describe: Callable[[Args], str] | None = None
    #: The fixed hidden tests written out by hand, one or more for each class of input
    #: the kata's text allows (each generator's module names the classes beside it):
    #: boundaries, free orderings, inputs no game produces, text at its edges.  They
    #: decide every verdict the project knows of, whatever the seed.
    corners: tuple[Args, ...] = ()
    #: How many fixed hidden tests the checker adds (the same every run): the corners,
    #: then inputs from the generator drawn from a fixed seed, up to this many.
    hidden_count: int = 100
    #: How many more the checker draws afresh from each run's secret seed.
    fresh_count: int = 50
    #: Seconds one call may take.
    call_timeout: float = 2.0

    def passed_text(self, result: KataResult) -> str | None:
        """The verdict's words when the kata passed, if the kata has words of its own
        (None: the usual ones, :func:`feedback_text`)."""
        return None

    def expected(self, args: Args) -> Any:
        """The reference answer, or :class:`Raised` when the input must be rejected."""
        try:
            return self.reference(*args)
        except ValueError as exc:
            return Raised(type(exc).__name__, True, str(exc))

    def hidden_cases(self) -> list[Args]:
        """The fixed hidden tests, the same every run: the corners, then generated ones
        (a fixed seed per kata), smallest first."""
        return _hidden_cases(self)

    def hidden_expected(self) -> list[Any]:
        """The expected answers of :meth:`hidden_cases`, computed once."""
        return _hidden_expected(self)

    def fresh_cases(self, seed: int) -> list[Args]:
        """The hidden tests drawn afresh for one grading run, from that run's ``seed``
        (secret unless the instructor sets it): a table of answers made from the
        installed package cannot know them."""
        cases = self.random_cases(self.fresh_count, seed=seed)
        return sorted(cases, key=self.size)

    def graded_cases(self, seed: int) -> list[Args]:
        """Everything a grading run with ``seed`` judges, in order: the public tests,
        the fixed hidden tests, then the fresh ones."""
        return [*self.public, *self.hidden_cases(), *self.fresh_cases(seed)]

    def random_cases(self, n: int, seed: int) -> list[Args]:
        """``n`` inputs from the generator with a seeded ``random.Random``."""
        rng = random.Random(f"{self.name}:{seed}")
        draw = RandomDraw(rng)
        return [self.generate(draw) for _ in range(n)]


@cache
def _hidden_cases(kata: Kata) -> list[Args]:
    corners = list(kata.corners)
    cases = corners + kata.random_cases(max(0, kata.hidden_count - len(corners)), seed=2024)
    return sorted(cases, key=kata.size)


@cache
def _hidden_expected(kata: Kata) -> list[Any]:
    return [kata.expected(a) for a in kata.hidden_cases()]


def read_outcome(data: Any, params: Sequence[str] = (), *,
                 card_of: Callable[[str], Any]) -> Outcome:
    """A reply of :func:`wire.answer` (or a raised exception or time-out, as the grader's
    child reports them) as an outcome; anything malformed is a failure.  ``params``: the
    kata's parameter names, to name an argument changed in place."""
    if isinstance(data, dict) and "ok" in data:
        changed = data.get("changed")
        names: tuple[str, ...] = ()
        if isinstance(changed, list) and changed:
            names = tuple(params[i] if type(i) is int and 0 <= i < len(params) else "?"
                          for i in changed[:8])
        return Returned(decode(data["ok"], card_of=card_of), names)
    return Raised("ProtocolError", False, _("the answer could not be read"))


# -- showing values -----------------------------------------------------------------


def fmt(value: Any) -> str:
    """A value as text, cards as ``7H``: ``[7H 8H 9H]``."""
    if isinstance(value, Card):
        return repr(value)
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=_order) if isinstance(value, set | frozenset) else value
        if items and all(isinstance(c, Card) for c in items):
            inner = " ".join(repr(c) for c in items)
        else:
            inner = ", ".join(fmt(v) for v in items)
        if isinstance(value, tuple):
            return f"({inner}{',' if len(value) == 1 else ''})"
        if isinstance(value, set | frozenset):
            return "{" + inner + "}"
        return f"[{inner}]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{fmt(k)}: {fmt(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Raised):
        return _("raises {error}").format(error=value.type_name)
    return repr(value)


def _order(value: Any) -> tuple[int, str]:
    return (value.index, "") if isinstance(value, Card) else (99, repr(value))


def call_text(kata: Kata, args: Args) -> str:
    """The call as a learner would type it: ``best_melds([5H 6H 7H])``."""
    return f"{kata.name}({', '.join(fmt(a) for a in args)})"


def arrangement_text(melds: Sequence[Sequence[Card]], deadwood: Sequence[Card]) -> str:
    """An arrangement grouped: each meld in brackets, then the deadwood."""
    shown = " ".join(fmt(list(m)) for m in melds) or _("no melds")
    return _("{melds}, deadwood {deadwood}").format(
        melds=shown, deadwood=" ".join(map(repr, deadwood)) or "-")


def outcome_text(outcome: Outcome, kata: Kata | None = None) -> str:
    """What the learner's function did, in words (an arrangement grouped)."""
    if isinstance(outcome, Returned):
        grouped = kata.arrangement(outcome.value) if kata and kata.arrangement else None
        if grouped is not None:
            return arrangement_text(*grouped)
        return fmt(outcome.value)
    if isinstance(outcome, Raised):
        msg = f": {outcome.message}" if outcome.message else ""
        return _("raised {error}{message}").format(error=outcome.type_name, message=msg)
    return _("did not finish within {seconds} s").format(seconds=f"{outcome.seconds:g}")


def expected_text(kata: Kata, args: Args, expected: Any) -> str:
    """The expected answer, in words."""
    if isinstance(expected, Raised):
        return _("a ValueError (this is not a valid input)")
    if kata.show_expected is not None:
        return kata.show_expected(args, expected)
    return fmt(expected)


# -- judging -----------------------------------------------------------------------


def not_written() -> str:
    """Why a function that still raises ``NotImplementedError`` fails, in words."""
    return _("the function is not written yet: replace "
             "`raise NotImplementedError()` with your code")


def gone_text(why: str) -> str:
    """Why the process that ran a learner's function stopped, from its id (the checker's
    words for ``timeout``, ``exited``, ``too_much``, anything else)."""
    if why == "timeout":
        return _("it did not finish in time")
    if why == "exited":
        return _("the process exited or was killed: a crash, os._exit, or a limit on "
                 "memory or CPU time")
    if why == "too_much":
        return _("it sent far too much output")
    return _("it broke the checker's protocol")


def problem(kata: Kata, args: Args, expected: Any, outcome: Outcome) -> str | None:
    """Why ``outcome`` is wrong for ``args``, or None when it is right."""
    if isinstance(outcome, Raised) and outcome.type_name == "NotImplementedError":
        return not_written()
    if isinstance(expected, Raised):
        if isinstance(outcome, Raised) and outcome.value_error:
            return None
        if isinstance(outcome, Raised):
            return _("it should raise a ValueError (or a subclass), not {error}").format(
                error=outcome.type_name)
        if isinstance(outcome, TimedOut):
            return _("it took too long")
        return _("the input is not valid, so the function should raise a ValueError")
    if isinstance(outcome, TimedOut):
        return _("it took too long: look for a loop that never ends, or a search that "
                 "tries far too many possibilities")
    if isinstance(outcome, Raised):
        return _("it raised an exception on a valid input")
    if outcome.changed:
        return _("your function changed its argument {name}: leave the inputs as they "
                 "are, since the caller still needs them").format(name=outcome.changed[0])
    return kata.judge(args, expected, outcome.value)


@dataclass(frozen=True)
class Failure:
    """An input on which the learner's answer is wrong, and why."""

    args: Args
    outcome: Outcome
    expected: Any
    problem: str
    public: bool = False


@dataclass
class KataResult:
    """The verdict on one kata."""

    kata: Kata
    passed: bool
    #: Public tests run, and further tests run (random in the notebook, hidden in the
    #: checker).
    public_tests: int = 0
    more_tests: int = 0
    #: Whether the further tests were the checker's hidden tests.
    hidden: bool = False
    failure: Failure | None = None
    #: A problem that is not about one input: the function is missing, or uses the
    #: engine's own answer, or the submission could not run.
    note: str | None = None

    @property
    def points(self) -> int:
        """The points earned: all of the kata's, or none."""
        return self.kata.points if self.passed else 0

    def feedback(self) -> str:
        """The verdict in words, for a learner or an instructor (plain text)."""
        return feedback_text(self)


def feedback_text(result: KataResult) -> str:
    """The verdict on a kata in plain text."""
    kata = result.kata
    own = kata.passed_text(result) if result.passed else None
    if own is not None:
        return own
    if result.passed:
        if result.hidden:
            # TRANSLATORS: {more} is the number of hidden tests; {public} of public ones.
            return ngettext("✔ {name}: passed {public} public and {more} hidden test.",
                            "✔ {name}: passed {public} public and {more} hidden tests.",
                            result.more_tests).format(
                name=kata.name, public=result.public_tests, more=result.more_tests)
        # TRANSLATORS: {hidden} is the number of the checker's hidden tests (100).
        return ngettext(
            "✔ {name}: passed {public} public test, the checker's {hidden} hidden tests and "
            "{fresh} fresh ones; a search of random inputs found no counterexample either.",
            "✔ {name}: passed {public} public tests, the checker's {hidden} hidden tests and "
            "{fresh} fresh ones; a search of random inputs found no counterexample either.",
            result.public_tests).format(name=kata.name, public=result.public_tests,
                                        hidden=kata.hidden_count, fresh=kata.fresh_count)
    lines = [_("✘ {name}: not passed.").format(name=kata.name)]
    if result.note:
        lines.append("  " + result.note)
    f = result.failure
    if f is not None:
        lines.append("  " + failure_intro(f))
        lines.append("    " + call_text(kata, f.args))
        if kata.describe is not None:
            lines.append("    " + kata.describe(f.args))
        lines.append("  " + _("returned: {value}").format(value=outcome_text(f.outcome, kata)))
        lines.append("  " + _("expected: {value}").format(
            value=expected_text(kata, f.args, f.expected)))
        lines.append("  " + _("why: {reason}").format(reason=f.problem))
        lines.append("  " + _("hint: {hint}").format(hint=kata.hint()))
    return "\n".join(lines)


def failure_intro(f: Failure) -> str:
    """The line that introduces a failing input (public test or not)."""
    if f.public:
        return _("Failed a public test. The smallest input found on which your answer is "
                 "wrong:")
    return _("The smallest input found on which your answer is wrong:")


def judge_cases(kata: Kata, cases: Sequence[Args], outcomes: Sequence[Outcome],
                expected: Sequence[Any] | None = None, *, public: int = 0
                ) -> list[Failure]:
    """The failures among ``cases`` (the first ``public`` of them are public tests)."""
    out = []
    for i, (args, outcome) in enumerate(zip(cases, outcomes, strict=True)):
        exp = expected[i] if expected is not None else kata.expected(args)
        why = problem(kata, args, exp, outcome)
        if why is not None:
            out.append(Failure(args, outcome, exp, why, public=i < public))
    return out


def cards_of(value: Any) -> Iterator[Card]:
    """Every card in a value, in order (inside lists, tuples and dicts)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, list | tuple):
        for v in value:
            yield from cards_of(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from cards_of(v)


def plainness(args: Args) -> tuple[int, int, int]:
    """How plain an input's cards are, the plainest least: lower ranks, then the
    earlier suits, then fewer cards out of order; a dict's keys out of order count too."""
    cards = list(cards_of(args))
    ranks = sum(c.rank for c in cards)
    suits = sum(int(c.suit) for c in cards)
    order = [c.index for c in cards]
    for a in args:
        if isinstance(a, dict):
            keys = [str(k) for k in a]
            order += [sorted(keys).index(k) + 100 for k in keys]
    inversions = sum(1 for i, x in enumerate(order) for y in order[i + 1:] if x > y)
    return ranks, suits, inversions


def shrink_key(kata: Kata, args: Args) -> tuple[int, tuple[int, int, int]]:
    """Which of two inputs is simpler: fewer cards first, then plainer cards."""
    return kata.size(args), plainness(args)


#: Candidates tried at most in one round of shrinking.
SHRINK_BATCH = 120
#: How many times a stuck shrink starts again from small fresh inputs.
RESTARTS = 3


def shrink_failure(kata: Kata, failure: Failure, oracle: Oracle, *, rounds: int = 40
                   ) -> Failure:
    """A simpler input that still fails, found greedily: try the candidates of
    ``kata.shrink`` (cards removed, cards made plainer, cards reordered), simplest
    first, keep the simplest that fails, repeat.  An input that must be rejected
    is only shrunk to another that must be, a valid one to a valid one.  A failed
    public test stays marked public (its input is then the smallest found from it)."""
    best = failure
    rejected = isinstance(failure.expected, Raised)
    restarts = 0
    for _round in range(rounds):
        key = shrink_key(kata, best.args)
        seen: set[str] = set()
        candidates: list[Args] = []
        for c in kata.shrink(best.args):
            text = repr(c)
            if text not in seen and shrink_key(kata, c) < key:
                seen.add(text)
                candidates.append(c)
        smaller = _simplest_failing(kata, candidates, oracle, rejected)
        while smaller is None and restarts < RESTARTS:
            # Stuck where every step alone passes: try small fresh inputs instead.
            restarts += 1
            smaller = _simplest_failing(kata, _small_cases(kata, key, restarts), oracle,
                                        rejected)
        if smaller is None:
            break
        best = Failure(smaller.args, smaller.outcome, smaller.expected, smaller.problem,
                       public=failure.public)
    return best


def _small_cases(kata: Kata, key: tuple[int, tuple[int, int, int]], seed: int
                 ) -> list[Args]:
    """Generated inputs simpler than ``key``, a few of each size, smallest first."""
    per_size: dict[int, int] = {}
    out = []
    for case_key, case in _small_pool(kata, seed):
        if case_key < key:
            n = per_size.get(case_key[0], 0)
            if n < 30:
                per_size[case_key[0]] = n + 1
                out.append(case)
    return out


@cache
def _small_pool(kata: Kata, seed: int
                ) -> tuple[tuple[tuple[int, tuple[int, int, int]], Args], ...]:
    """The generated inputs a stuck shrink starts again from, with their shrink keys,
    simplest first: the same for every submission, so made once per kata and restart
    (most of a wrong submission's shrinking was making them again)."""
    cases = kata.random_cases(400, seed=10 + seed)
    return tuple(sorted(((shrink_key(kata, c), c) for c in cases), key=lambda kc: kc[0]))


def _simplest_failing(kata: Kata, candidates: list[Args], oracle: Oracle, rejected: bool
                      ) -> Failure | None:
    candidates = sorted(candidates, key=lambda c: shrink_key(kata, c))
    expected = [kata.expected(c) for c in candidates]
    keep = [i for i, e in enumerate(expected) if isinstance(e, Raised) == rejected]
    candidates = [candidates[i] for i in keep][:SHRINK_BATCH]
    expected = [expected[i] for i in keep][:SHRINK_BATCH]
    if not candidates:
        return None
    found = judge_cases(kata, candidates, oracle(candidates), expected)
    return min(found, key=lambda f: shrink_key(kata, f.args)) if found else None


def hidden_count_text(kata: Kata) -> str:
    """How many hidden tests the checker adds."""
    return ngettext("The checker adds {n} hidden test.",
                    "The checker adds {n} hidden tests.", kata.hidden_count).format(
                        n=kata.hidden_count)
