"""``check(fn)``: run a kata's tests on the learner's function, in the notebook.

The public tests run first; then a property-based search (hypothesis, when installed,
else seeded random inputs) looks for an input on which the answer is wrong and shrinks
it to the smallest it can find.  The result shows cards, not a traceback.
"""

from __future__ import annotations

import html
import json
import re
import secrets
import time
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from .. import cards as cards_module
from ..cards import Card, full_deck
from ..i18n import _, is_rtl
from .core import (
    Args,
    Failure,
    Kata,
    KataResult,
    Outcome,
    Raised,
    Returned,
    TimedOut,
    expected_text,
    failure_intro,
    feedback_text,
    fmt,
    judge_cases,
    outcome_text,
    problem,
    read_outcome,
    shrink_failure,
    shrink_key,
)
from .specs import BY_NAME, KATAS
from .specs.nb7_bots import BotKata, legality, result_of
from .timer import Rang, arm, disarm, timers
from .wire import answer, encode

#: The parts of ``box_gin`` a learner's function may use; the rest is the answers.
ALLOWED_MODULES = frozenset({"box_gin", "box_gin.cards", "box_gin.display", "box_gin.views",
                             "box_gin.views.cards", "box_gin.errors",
                             "box_gin.i18n", "box_gin.katas"})
#: Random inputs tried by ``check`` after the public tests, and its time allowance.
SEARCH_EXAMPLES = 100
SEARCH_SECONDS = 1.5
#: The time a correct answer's whole check aims to stay within: the search gets what
#: the public, fixed and fresh cases left of it (at least 0.2 s).
CHECK_SECONDS = 1.5


# -- running the learner's function in the kernel ------------------------------------


@contextmanager
def engine_answers_hidden(hide: Sequence[tuple[str, str]]) -> Iterator[None]:
    """Remove the engine's own answer to a kata (``Card.value``...) for a while."""
    saved: list[tuple[object, str, Any]] = []
    for owner_name, attr in hide:
        owner: object = Card if owner_name == "Card" else cards_module
        if attr in vars(owner):
            saved.append((owner, attr, vars(owner)[attr]))
            delattr(owner, attr)
    try:
        yield
    finally:
        for owner, attr, value in reversed(saved):
            setattr(owner, attr, value)


def engine_uses(fn: Callable[..., Any]) -> list[str]:
    """The engine functions, outside what a learner may use, that ``fn`` refers to."""
    found: list[str] = []
    code = getattr(fn, "__code__", None)
    if code is None:
        return found
    names: set[str] = set()
    stack = [code]
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    globs = getattr(fn, "__globals__", {})
    import box_gin

    for name in sorted(names):
        value = globs.get(name)
        if isinstance(value, types.ModuleType):
            mod = value.__name__
            if mod.startswith("box_gin") and mod not in ALLOWED_MODULES:
                found.append(mod)
            elif value is box_gin:
                found += [f"box_gin.{n}" for n in sorted(names & set(box_gin.__all__))
                          if _origin(getattr(box_gin, n)) not in ALLOWED_MODULES]
            continue
        origin = _origin(value)
        if origin.startswith("box_gin") and origin not in ALLOWED_MODULES:
            found.append(f"{origin}.{name}")
    return sorted(set(found))


def _origin(value: Any) -> str:
    if isinstance(value, types.ModuleType):
        return value.__name__
    mod = getattr(value, "__module__", None)
    return mod if isinstance(mod, str) else ""


_CARD_BY_TEXT = {repr(c): c for c in full_deck()}


def sent(cases: Sequence[Args]) -> list[Any]:
    """The cases as the grader sends them to its child: encoded, through JSON, decoded
    there afresh (strings and numbers are new objects, never the generator's own)."""
    return list(json.loads(json.dumps([encode(list(a), card_type=Card, card_text=repr)
                                       for a in cases])))


def call_once(fn: Callable[..., Any], data: list[Any], timeout: float,
              params: Sequence[str] = ()) -> Outcome:
    """Call ``fn`` on one case as sent (:func:`sent`), the way the grader's child does
    (:func:`wire.answer`); its reply read back through JSON as the grader reads it."""
    with timers() as usable:
        # CPU seconds, as in the grader's child; the wall clock as a safety.
        def start() -> None:
            if usable:
                arm(timeout)

        def stop() -> None:
            if usable:
                disarm()

        try:
            reply = answer(fn, data, card_type=Card, card_text=repr,
                           card_of=_CARD_BY_TEXT.__getitem__, start=start, stop=stop)
            return read_outcome(json.loads(json.dumps(reply)), params,
                                card_of=_CARD_BY_TEXT.__getitem__)
        except Rang:
            return TimedOut(timeout)
        except RecursionError:
            return Raised("RecursionError", False, _("maximum recursion depth exceeded"))
        except Exception as exc:
            return Raised(type(exc).__name__, isinstance(exc, ValueError), str(exc)[:300])


def local_oracle(fn: Callable[..., Any], kata: Kata, stop_at_timeout: bool = False
                 ) -> Callable[[Sequence[Args]], list[Outcome]]:
    """Runs ``fn`` here, in this process, with the kata's engine answers hidden, on the
    cases as the grader's child gets them.  With ``stop_at_timeout``, once a call runs
    out of time no later one runs: each is answered :data:`NOT_RUN` (a learner whose
    function loops waits for one call's time, not one for every case)."""
    stopped = [False]

    def oracle(cases: Sequence[Args]) -> list[Outcome]:
        batch = sent(cases)
        out: list[Outcome] = []
        with engine_answers_hidden(kata.hide):
            for data in batch:
                if stopped[0]:
                    out.append(NOT_RUN)
                    continue
                outcome = call_once(fn, data, kata.call_timeout, kata.params)
                stopped[0] = stop_at_timeout and isinstance(outcome, TimedOut)
                out.append(outcome)
        return out

    return oracle


#: The outcome of a case not run, after a call that ran out of time: never judged.
NOT_RUN = TimedOut(-1.0)


# -- the search -----------------------------------------------------------------------


class _Found(Exception):
    pass


def search(kata: Kata, oracle: Callable[[Sequence[Args]], list[Outcome]],
           examples: int = SEARCH_EXAMPLES, seconds: float = SEARCH_SECONDS
           ) -> tuple[int, Failure | None]:
    """Look for a failing input: (how many inputs were tried, the smallest failure)."""
    try:
        from hypothesis import HealthCheck, Phase, given, settings
        from hypothesis import strategies as st
    except ImportError:  # pragma: no cover - hypothesis is a test dependency
        return _search_random(kata, oracle, examples)
    from .draw import HypothesisDraw

    found: list[Failure] = []
    tried = [0]
    start = time.monotonic()

    @st.composite
    def inputs(draw: Any) -> Args:
        return kata.generate(HypothesisDraw(draw))

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
              phases=[Phase.generate, Phase.shrink], print_blob=False)
    @given(inputs())
    def prop(args: Args) -> None:
        elapsed = time.monotonic() - start
        if (elapsed > seconds and not found) or elapsed > 4 * seconds:
            return  # out of time: stop searching (or shrinking)
        tried[0] += 1
        outcome = oracle([args])[0]
        why = problem(kata, args, kata.expected(args), outcome)
        if why is not None:
            found.append(Failure(args, outcome, kata.expected(args), why))
            raise _Found()

    try:
        prop()
    except _Found:
        pass
    except Exception:  # hypothesis itself complained (a flaky function...)
        if not found:
            return _search_random(kata, oracle, examples)
    if not found:
        return min(tried[0], examples), None
    best = min(found, key=lambda f: kata.size(f.args))
    return min(tried[0], examples), best


def _search_random(kata: Kata, oracle: Callable[[Sequence[Args]], list[Outcome]],
                   examples: int) -> tuple[int, Failure | None]:
    cases = sorted(kata.random_cases(examples, seed=7), key=kata.size)
    failures = judge_cases(kata, cases, oracle(cases))
    return len(cases), (min(failures, key=lambda f: kata.size(f.args)) if failures else None)


def run_check(fn: Callable[..., Any], kata: Kata, *, examples: int = SEARCH_EXAMPLES,
              seed: int | None = None, fresh: bool = True, search_more: bool = True
              ) -> KataResult:
    """Judge ``fn`` as an answer to ``kata``, in this process, as the checker would: the
    public tests, the checker's fixed hidden tests, fresh ones drawn from the same
    generators (from ``seed``, a new random one by default), then a search.  The
    simplest failure is shrunk and shown (marked public when a public test failed).

    Without ``fresh`` and ``search_more`` only the parts that decide every known
    verdict run, the public and fixed hidden tests: the same result every time."""
    start = time.monotonic()
    uses = engine_uses(fn)
    if uses:
        return KataResult(kata, False, note=blocked_note(uses))
    oracle = local_oracle(fn, kata)
    public = list(kata.public)
    drawn = kata.fresh_cases(secrets.randbits(32) if seed is None else seed) if fresh else []
    cases = public + kata.hidden_cases() + drawn
    expected = [kata.expected(a) for a in public] + kata.hidden_expected() + [
        kata.expected(a) for a in drawn]
    # A function that runs out of time on one case is not run on the others: the cases
    # it did run are judged, the time-out among them (never shrunk: each try would cost
    # a call's time again).
    outcomes = local_oracle(fn, kata, stop_at_timeout=True)(cases)
    ran = [i for i, o in enumerate(outcomes) if o is not NOT_RUN]
    failures = judge_cases(kata, [cases[i] for i in ran], [outcomes[i] for i in ran],
                           [expected[i] for i in ran],
                           public=sum(1 for i in ran if i < len(public)))
    if failures:  # the simplest failure, shrunk; a failed public test is said
        first = min(failures, key=lambda f: shrink_key(kata, f.args))
        if any(f.public for f in failures):
            first = replace(first, public=True)
        timed_out = isinstance(first.outcome, TimedOut)
        return KataResult(kata, False, len(public), len(cases) - len(public), False,
                          first if timed_out else shrink_failure(kata, first, oracle))
    if not search_more:
        return KataResult(kata, True, len(public), len(cases) - len(public), False)
    left = max(0.2, CHECK_SECONDS - (time.monotonic() - start))
    tried, failure = search(kata, oracle, examples, min(SEARCH_SECONDS, left))
    if failure is not None:
        failure = shrink_failure(kata, failure, oracle)
        return KataResult(kata, False, len(public), len(cases) - len(public) + tried, False,
                          failure)
    return KataResult(kata, True, len(public), len(cases) - len(public) + tried, False)


def blocked_note(uses: Sequence[str]) -> str:
    """Why a function that calls the engine's answers cannot pass."""
    return _("This function uses {names} from the box_gin engine. The engine's answers "
             "are not available to the checker: only box_gin.cards (Card, Suit) and "
             "box_gin.display are. Write the kata with your own code.").format(
                 names=", ".join(uses))


# -- showing the verdict --------------------------------------------------------------

#: A code span in a message: ```raise NotImplementedError()```.
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def plain_text(text: str) -> str:
    """A message for a terminal or a plain file: code spans without their backticks."""
    return _CODE_SPAN.sub(r"\1", text) if "`" in text else text


def code_html(text: str) -> str:
    """A message as HTML: escaped, its code spans as ``<code>``."""
    return _CODE_SPAN.sub(r"<code>\1</code>", html.escape(text))



def _arrangement_html(melds: Sequence[Sequence[Card]], deadwood: Sequence[Card]) -> str:
    """An arrangement drawn grouped: each meld framed, then the deadwood."""
    from ..views.cards import cards_html

    parts = [f'<span class="bg-meld" style="display:inline-block;border:2px solid #2e7d32;'
             f'border-radius:6px;padding:1px;margin-inline-end:6px">'
             f"{cards_html(list(m), style=False)}</span>" for m in melds]
    if not parts:
        none = html.escape(_("no melds"))
        parts.append(f"<code>{none}</code> ")
    label = html.escape(_("deadwood"))
    dead = cards_html(list(deadwood), style=False) if deadwood else "<code>-</code>"
    return (f'<span dir="ltr">{"".join(parts)}<span class="bg-deadwood">'
            f"<code>{label}</code> {dead}</span></span>")


def _value_html(value: Any) -> str:
    from ..views.cards import cards_html

    if isinstance(value, Card):
        return cards_html([value], style=False)
    if isinstance(value, list | tuple | set | frozenset) and value and all(
            isinstance(c, Card) for c in value):
        items = sorted(value) if isinstance(value, set | frozenset) else list(value)
        return cards_html(items, style=False)
    if isinstance(value, list | tuple) and value and all(
            isinstance(v, list | tuple | set | frozenset) for v in value):
        inner = " ".join(_value_html(v) for v in value)
        return f"<span class=\"bg-cards\">{inner}</span>"
    return f"<code>{html.escape(fmt(value))}</code>"


def feedback_html(result: KataResult) -> str:
    """The verdict on a kata as HTML, cards drawn as cards."""
    from ..views.cards import STYLE

    kata = result.kata
    text = feedback_text(result).splitlines()
    # Right-to-left languages turn the box; code and cards keep their left-to-right order.
    direction = ' dir="rtl"' if is_rtl() else ""
    if result.passed:  # no cards to draw: plain, and stable across style changes
        return (f'<div class="bg-check"{direction} style="font-weight:bold;color:#2e7d32">'
                f"{code_html(text[0])}</div>")
    head = (f'<div class="bg-readout" style="font-weight:bold;color:#c62828">'
            f"{code_html(text[0])}</div>")
    rows = []
    if result.note:
        rows.append(f"<p>{code_html(result.note)}</p>")
    f = result.failure
    if f is not None:
        intro = failure_intro(f)
        args = ", ".join(_value_html(a) for a in f.args)
        grouped = kata.arrangement(f.outcome.value) if kata.arrangement is not None and \
            isinstance(f.outcome, Returned) else None
        if grouped is not None:
            got = _arrangement_html(*grouped)
        elif isinstance(f.outcome, Returned):
            got = _value_html(f.outcome.value)
        else:
            got = f"<code>{html.escape(outcome_text(f.outcome))}</code>"
        if kata.expected_arrangement is not None and not isinstance(f.expected, Raised):
            want = html.escape(_("deadwood {value}, for example:").format(
                value=f.expected)) + " " + _arrangement_html(*kata.expected_arrangement(f.args))
        else:
            want = html.escape(expected_text(kata, f.args, f.expected))
        rows.append(f"<p>{html.escape(intro)}</p>")
        rows.append(f'<div dir="ltr"><code>{html.escape(kata.name)}(</code>{args}'
                    f"<code>)</code></div>")
        if kata.describe is not None:
            rows.append(f'<div dir="ltr"><code>{html.escape(kata.describe(f.args))}</code>'
                        "</div>")
        table = [(_("returned"), got), (_("expected"), want),
                 (_("why"), code_html(f.problem)), (_("hint"), code_html(kata.hint()))]
        rows.append("<table>" + "".join(
            f"<tr><th style=\"text-align:start\">{html.escape(k)}</th><td style=\"text-align:"
            f"start\">{v}</td></tr>" for k, v in table) + "</table>")
    return f'{STYLE}<div class="bg-check"{direction}>{head}{"".join(rows)}</div>'


class CheckResult:
    """What ``check`` shows: HTML in Jupyter, plain text elsewhere."""

    def __init__(self, result: KataResult) -> None:
        self.result = result

    @property
    def passed(self) -> bool:
        """Whether the kata passed."""
        return self.result.passed

    def __repr__(self) -> str:
        return plain_text(feedback_text(self.result))

    def _repr_html_(self) -> str:
        return feedback_html(self.result)


class _Message:
    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def check(fn: Callable[..., Any], kata: str | None = None) -> CheckResult | _Message:
    """Test your function for a kata: ``check(best_melds)``.

    The kata is found from the function's name, or given as ``kata="best_melds"``.
    """
    name = str(kata or getattr(fn, "__name__", ""))
    spec = BY_NAME.get(name)
    if spec is None:
        return _Message(_("No kata is called {name!r}. The katas are: {names}.").format(
            name=name, names=", ".join(k.name for k in KATAS)))
    if not callable(fn):
        return _Message(_("check() takes your function, as in check({name})").format(
            name=spec.name))
    if isinstance(spec, BotKata):  # played, not tested on cases: legality, as graded
        return CheckResult(result_of(spec, legality(
            fn, spec.kind, hands=spec.hands, seed=secrets.randbits(32), timing=spec.timing)))
    return CheckResult(run_check(fn, spec))


__all__ = [
    "CheckResult",
    "Raised",
    "TimedOut",
    "check",
    "code_html",
    "feedback_html",
    "feedback_text",
    "plain_text",
    "run_check",
]
