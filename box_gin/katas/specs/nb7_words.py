"""The bot kata's faults in words (:mod:`box_gin.katas.specs.nb7_bots`): why a decision
failed, and where, in the language in use, from the fault's plain data (which may come
from a gradebook file, so every value is read as text or a number, whatever it is)."""

from __future__ import annotations

from typing import Any

from ...hand import Role
from ...i18n import _, format_number, format_short
from ..core import gone_text, not_written


def why_text(reason: str, values: dict[str, Any], kind: str = "play") -> str:
    """A reason in words, in the language in use (``values`` may come from a gradebook
    file: each is read as text or a number, whatever it is)."""
    v = values if isinstance(values, dict) else {}

    def text(key: str, limit: int = 200) -> str:
        return str(v.get(key, ""))[:limit]

    def number(key: str) -> float:
        value = v.get(key)
        return float(value) if isinstance(value, int | float) else 0.0

    def short(key: str) -> str:
        return format_short(number(key))

    if reason == "slow" and v.get("stopped") is True:
        return _("it was still computing after {limit} s of CPU time, the limit for "
                 "one decision, and was stopped").format(limit=short("limit"))
    if reason == "slow":
        return _("it computed for {took} s to decide (CPU time); the limit is "
                 "{limit} s").format(took=format_number(number("took"), 2),
                                     limit=short("limit"))
    if reason == "stalled":
        return _("it had not decided after {limit} s on the clock: it waited, slept or "
                 "was stuck (a decision may compute for {cpu} s)").format(
            limit=short("limit"), cpu=short("cpu"))
    if reason == "gone":
        return _("its process stopped: {why}").format(why=gone_text(text("gone", 20)))
    if reason == "not_written":
        return not_written()
    if reason == "raised":
        return _("it raised {error}: {message}").format(error=text("error", 80),
                                                        message=text("message"))
    if reason == "not_action" and kind == "advise":
        return _("it returned {value}, which is not an action: return one of "
                 "view.captain.legal_actions").format(value=text("value", 80))
    if reason == "not_action":
        return _("it returned {value}, which is not an action: return one of "
                 "view.legal_actions").format(value=text("value", 80))
    if reason == "illegal":
        legal = v.get("legal")
        shown = ", ".join(str(a)[:80] for a in legal[:60]) if isinstance(legal, list) else ""
        return _("it returned {action}, which is not legal here; the legal actions were: "
                 "{legal}").format(action=text("action", 120), legal=shown)
    if reason == "slow_overall":
        return _("its decisions computed for {took} s in all (CPU time); the limit is "
                 "{limit} s for all of them: make them quicker").format(
            took=format_number(number("took"), 1), limit=short("limit"))
    if reason == "stalled_overall":
        return _("its decisions took {took} s on the clock in all; the limit is "
                 "{limit} s for all of them").format(took=format_number(number("took"), 1),
                                                     limit=short("limit"))
    return text("text", 300)



def fault_text(data: dict[str, Any]) -> str:
    """A fault (:meth:`Fault.data`, maybe read from a gradebook file) in words, in the
    language in use."""
    d = data if isinstance(data, dict) else {}
    try:
        seat = Role(str(d.get("seat"))).label
    except ValueError:
        seat = "?"
    preset = str(d.get("preset", "?"))[:40]
    decision = d.get("decision")
    n = decision + 1 if isinstance(decision, int) and not isinstance(decision, bool) else 0
    kind = "advise" if d.get("kind") == "advise" else "play"
    why = why_text(str(d.get("why", "")), d, kind)
    hand = d.get("hand")
    if isinstance(hand, str):
        return _("In the fixed hand {name} ({preset} rules), as the {seat}, decision {n}: "
                 "{why}.").format(name=hand[:40], preset=preset, seat=seat, n=n, why=why)
    return _("In hand {seed} ({preset} rules), as the {seat}, decision {n}: {why}.").format(
        seed=hand if isinstance(hand, int) else "?", preset=preset, seat=seat, n=n,
        why=why)
