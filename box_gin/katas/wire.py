"""Plain data on the wire between the checker and the child that runs student code.

Standard library only: the child loads this file before any student code runs.  Cards
travel as their text (``{"$c": "7H"}``), tuples, sets and dicts are tagged so that they
come back as what they were, and anything else becomes a readable stand-in
(``{"$repr": ...}``) that never compares equal to an answer.

What a kata may return is written in its text ("a pair: any tuple of two", "a dict, or
any mapping", "any sequence of cards"), and the wire carries exactly those kinds, as
plain values: a subclass of ``tuple`` (a ``namedtuple``) comes back a ``tuple``, of
``list`` a ``list``, of ``dict`` (an ``OrderedDict``) or any other
``collections.abc.Mapping`` a ``dict``, any other ``collections.abc.Sequence`` a
``list``, any ``collections.abc.Set`` a ``frozenset``, a subclass of ``str`` or ``int``
(a ``str`` enum, an ``IntEnum``) a plain ``str`` or ``int``.  The judges then see plain
values only.

Both sides of a call go through here, in the grader's child and in the notebook's
``check`` alike (:func:`answer`): the learner's function gets arguments decoded from what
was sent, equal to the case but never the very same objects, and what it returns, or
changes in place, is read back the same way.

>>> encode((["7H", 3], {"box": None}), card_type=str, card_text=str)
{'$t': [['7H', 3], {'$d': [['box', None]]}]}
>>> from collections import OrderedDict, namedtuple
>>> encode(namedtuple("Pair", "melds deadwood")([], ["7H"]), card_type=int, card_text=str)
{'$t': [[], ['7H']]}
>>> encode(OrderedDict(box="Ada"), card_type=int, card_text=str)
{'$d': [['box', 'Ada']]}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from typing import Any

#: The deepest nesting and the most items a value may have; beyond, it is cut short.
MAX_DEPTH = 8
MAX_ITEMS = 2000

class Opaque:
    """A value the child could not send as plain data (a class the kata does not know)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__


def encode(value: Any, *, card_type: type, card_text: Callable[[Any], str],
           depth: int = 0) -> Any:
    """``value`` as JSON-able data; cards (instances of ``card_type``) as text."""
    if depth > MAX_DEPTH:
        return {"$repr": "..."}
    if value is None or type(value) is bool or type(value) is str:
        return value
    if isinstance(value, str):  # a str subclass (a str enum): its text
        return str.__str__(value)
    if isinstance(value, int) and not isinstance(value, bool):
        number = int.__int__(value)  # an IntEnum or other int subclass: the number
        return number if abs(number) < 2**63 else {"$repr": "a very large number"}
    if isinstance(value, float):
        return {"$f": float.__repr__(value)}
    if type(value) is card_type:
        return {"$c": card_text(value)}

    def many(items: Any) -> list[Any]:
        out = []
        for i, item in enumerate(items):
            if i >= MAX_ITEMS:
                out.append({"$repr": "..."})
                break
            out.append(encode(item, card_type=card_type, card_text=card_text, depth=depth + 1))
        return out

    if isinstance(value, list):
        return many(list.__iter__(value))
    if isinstance(value, tuple):
        return {"$t": many(tuple.__iter__(value))}
    if isinstance(value, set | frozenset | Set):
        return {"$s": many(value)}
    if isinstance(value, dict | Mapping):
        return {"$d": many([k, v] for k, v in value.items())}
    if isinstance(value, Sequence) and not isinstance(value, bytes | bytearray | memoryview):
        return many(value)
    try:
        text = repr(value)
    except BaseException:  # a hostile __repr__
        text = "?"
    return {"$repr": f"{type(value).__name__}: {text[:200]}"}


def answer(fn: Callable[..., Any], data: list[Any], *, card_type: type,
           card_text: Callable[[Any], str], card_of: Callable[[str], Any],
           start: Callable[[], Any] = lambda: None, stop: Callable[[], Any] = lambda: None
           ) -> dict[str, Any]:
    """Call ``fn`` on the arguments sent as ``data`` (one case, as a list), the one way
    both checks call a learner's function: the arguments are decoded afresh, ``start``
    and ``stop`` bracket the call (a timer), and the reply is ``{"ok": the value
    encoded}``, with ``"changed"``: the positions of the arguments it changed in place.
    Whatever the function raises is left to the caller."""
    args = decode(data, card_of=card_of)
    start()
    try:
        value = fn(*args)
    finally:
        stop()
    reply: dict[str, Any] = {"ok": encode(value, card_type=card_type, card_text=card_text)}
    changed = [i for i, (arg, sent) in enumerate(zip(args, data, strict=True))
               if encode(arg, card_type=card_type, card_text=card_text) != sent]
    if changed:
        reply["changed"] = changed
    return reply


def decode(data: Any, *, card_of: Callable[[str], Any]) -> Any:
    """The inverse of :func:`encode`; ``card_of`` turns a card's text into a card."""
    if isinstance(data, list):
        return [decode(d, card_of=card_of) for d in data]
    if not isinstance(data, dict):
        return data
    if "$c" in data:
        return card_of(str(data["$c"]))
    if "$t" in data:
        return tuple(decode(d, card_of=card_of) for d in data["$t"])
    if "$s" in data:
        items = [decode(d, card_of=card_of) for d in data["$s"]]
        try:
            return frozenset(items)
        except TypeError:
            return Opaque("a set of unhashable values")
    if "$d" in data:
        pairs = [decode(d, card_of=card_of) for d in data["$d"]]
        try:
            return {k: v for k, v in pairs}
        except TypeError:
            return Opaque("a dict with unhashable keys")
    if "$f" in data:
        return float(data["$f"])
    return Opaque(str(data.get("$repr", "?")))
