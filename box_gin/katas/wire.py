"""Plain data on the wire between the checker and the child that runs student code.

Standard library only: the child loads this file before any student code runs.  Cards
travel as their text (``{"$c": "7H"}``), tuples, sets and dicts are tagged so that they
come back as what they were, and anything else becomes a readable stand-in
(``{"$repr": ...}``) that never compares equal to an answer.

>>> encode((["7H", 3], {"box": None}), card_type=str, card_text=str)
{'$t': [['7H', 3], {'$d': [['box', None]]}]}
"""

from __future__ import annotations

from collections.abc import Callable
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
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int):
        return value if abs(value) < 2**63 else {"$repr": "a very large number"}
    if isinstance(value, float):
        return {"$f": repr(value)}
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

    if type(value) is list:
        return many(value)
    if type(value) is tuple:
        return {"$t": many(value)}
    if type(value) in (set, frozenset):
        return {"$s": many(value)}
    if type(value) is dict:
        return {"$d": many([k, v] for k, v in value.items())}
    try:
        text = repr(value)
    except BaseException:  # a hostile __repr__
        text = "?"
    return {"$repr": f"{type(value).__name__}: {text[:200]}"}


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
