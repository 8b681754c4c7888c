"""A class report: one self-contained HTML page made from a gradebook.

``box-gin report GRADEBOOK.json --html report.html`` draws the score distribution (an
inline SVG histogram), each kata's pass rate, each kata's most common failure with its
smallest counterexample drawn as cards, and a section per student with their feedback.
The page loads nothing: its style is inline, its cards are the kit's own card HTML and
CSS (``box_gin.display``), so it opens offline, reads on a projector (large type, high
contrast) and prints (a student per page section, no backgrounds needed).

Everything it says is read from the gradebook's structured verdicts
(:mod:`box_gin.checker.verdicts`) and rendered in the report's own language: nothing is
parsed out of feedback text.  Each student's section folds (``<details>``), and so does a
long input after its first cards; printing opens every fold.
"""

from __future__ import annotations

import html
import math
import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..checker.safe import visible
from ..checker.verdicts import reason_text, verdict_text, written_yet
from ..i18n import _, format_number, get_language, is_rtl, ngettext, points
from ..katas.feedback import code_html
from ..views.cards import STYLE, card_html
from .gradebook import Gradebook, failure_call

#: Cards of an input shown before the rest folds away.
FIRST_CARDS = 10

_CARD = re.compile(r"\b(?:10|[A2-9TJQK])[CDHS]\b")

PAGE_STYLE = """<style>
:root{--ink:#111;--muted:#555;--ok:#1b5e20;--bad:#b71c1c;--line:#bbb;--bar:#1f6feb}
*{box-sizing:border-box}
body{font:18px/1.45 system-ui,sans-serif;color:var(--ink);background:#fff;margin:0 auto;
 max-width:1200px;padding:1.2em 1.6em}
h1{font-size:2em;margin:.2em 0}h2{font-size:1.5em;margin:1.4em 0 .5em;
 border-bottom:3px solid var(--ink)}h3{font-size:1.2em;margin:.8em 0 .3em}
.bg-summary{display:flex;flex-wrap:wrap;gap:1em;margin:.6em 0}
.bg-stat{border:2px solid var(--line);border-radius:.5em;padding:.4em .9em;min-width:8em}
.bg-stat b{display:block;font-size:1.8em}
.bg-histogram{width:100%;max-width:900px;height:auto;display:block}
table.bg-rates{border-collapse:collapse;width:100%}
.bg-rates th,.bg-rates td{border-bottom:1px solid var(--line);padding:.3em .5em;
 text-align:start;vertical-align:middle}
.bg-rate{display:flex;align-items:center;gap:.5em}
.bg-rate-bar{height:1em;background:var(--bar);border-radius:.2em;
 -webkit-print-color-adjust:exact;print-color-adjust:exact}
.bg-rate-track{flex:1;background:#e8eef7;border-radius:.2em;min-width:6em;
 -webkit-print-color-adjust:exact;print-color-adjust:exact}
.bg-failure{border:2px solid var(--line);border-radius:.6em;padding:.5em .9em;margin:.6em 0;
 break-inside:avoid}
.bg-call{direction:ltr;text-align:left;display:flex;flex-wrap:wrap;align-items:center;gap:3px;
 font:1em ui-monospace,monospace;margin:.3em 0}
.bg-call .bg-card{font-size:.8em}
.bg-student{border-top:2px solid var(--ink);padding:.3em 0 .3em;break-inside:avoid}
.bg-student>summary{display:flex;flex-wrap:wrap;align-items:center;gap:.3em 1em;
 cursor:pointer;font-size:1.2em;font-weight:bold;padding:.2em 0}
.bg-student>summary .bg-name{flex:1}
.bg-student>summary .bg-chip{font-size:.7em}
.bg-more{display:inline}.bg-more>summary{display:inline;cursor:pointer;
 font:.85em system-ui,sans-serif;color:var(--bar);text-decoration:underline}
.bg-more[open]>summary{display:none}
.bg-chips{display:flex;flex-wrap:wrap;gap:.3em;margin:.3em 0}
.bg-chip{border:2px solid;border-radius:1em;padding:0 .6em;font-size:.85em}
.bg-chip.bg-pass{color:var(--ok)}.bg-chip.bg-fail{color:var(--bad);font-weight:bold}
.bg-chip.bg-missing{color:var(--muted)}
pre.bg-feedback{white-space:pre-wrap;font:.9em/1.35 ui-monospace,monospace;background:#f5f5f5;
 border-inline-start:4px solid var(--bad);padding:.4em .7em;margin:.3em 0}
.bg-muted{color:var(--muted)}
pre.bg-feedback code{font-weight:bold}
@media print{body{font-size:12pt;max-width:none;padding:0}
 details>summary{list-style:none}.bg-more>summary{display:none}
 h2{break-after:avoid}.bg-student{break-inside:avoid-page}
 pre.bg-feedback{background:none;border:1px solid #999}}
</style>"""


@dataclass
class KataSummary:
    """How the class did on one kata."""

    name: str
    points: int
    passed: int
    graded: int
    #: The most common reason for failing, how many failed for it, and the smallest
    #: failing call seen with that reason.
    reason: str | None = None
    reason_count: int = 0
    call: str | None = None
    #: Failures with no counterexample: the function missing, not written yet (the
    #: stub's NotImplementedError), blocked, or not run.
    without_call: int = 0
    #: Students who did not hand in this kata's notebook: not graded, not failed.
    not_handed_in: int = 0


def _notebook_of(name: str) -> int | str:
    """The notebook a kata belongs to (an unknown kata is a notebook of its own)."""
    from ..katas.specs import BY_NAME

    kata = BY_NAME.get(name)
    return kata.notebook if kata is not None else name


def handed_in(student: dict[str, Any], name: str) -> bool:
    """Whether ``student`` handed in the notebook of kata ``name``: a function of one of
    that notebook's katas was found in what they handed in (a gradebook that does not
    say, an older one, counts every kata as handed in)."""
    notebook = _notebook_of(name)
    return any(entry.get("found", True) for kata, entry in student["katas"].items()
               if _notebook_of(kata) == notebook)


#: Opens every fold before the page prints (the page loads nothing: this is inline).
PRINT_SCRIPT = ("<script>(function(){function o(){document.querySelectorAll('details')"
                ".forEach(function(d){d.open=true})}addEventListener('beforeprint',o);"
                "var m=matchMedia('print');if(m.matches)o();m.addEventListener('change',"
                "function(e){if(e.matches)o()})})()</script>")


def _verdict(entry: dict[str, Any]) -> dict[str, Any] | None:
    verdict = entry.get("verdict")
    return verdict if isinstance(verdict, dict) else None


def _why(entry: dict[str, Any]) -> str:
    """Why a kata failed, in one line, from the structured verdict (in the language in
    use); an entry without one (an older gradebook) has no reason to show."""
    verdict = _verdict(entry)
    return reason_text(verdict) if verdict is not None else ""


def _counterexample(name: str, entry: dict[str, Any]) -> str | None:
    """The failing call of an entry whose function is there and written, else None."""
    verdict = _verdict(entry)
    if verdict is not None and not written_yet(verdict):
        return None
    return failure_call(name, entry)


def _feedback(entry: dict[str, Any]) -> str:
    verdict = _verdict(entry)
    fallback = str(entry.get("feedback", ""))
    return verdict_text(verdict, 4000, fallback, plain=False) if verdict is not None \
        else fallback


def _size(entry: dict[str, Any], call: str) -> int:
    failure = entry.get("failure")
    if isinstance(failure, dict) and isinstance(failure.get("size"), int):
        size: int = failure["size"]
        return size
    return len(_CARD.findall(call)) * 1000 + len(call)


def summarise(book: Gradebook) -> list[KataSummary]:
    """Each kata's pass rate and most common failure."""
    out = []
    for name in book.kata_names():
        students = [s for s in book.students if name in s["katas"]]
        entries = [s["katas"][name] for s in students if handed_in(s, name)]
        points = max((int(s["katas"][name]["points"]) for s in students), default=0)
        summary = KataSummary(name, points, sum(e["passed"] for e in entries), len(entries),
                              not_handed_in=len(students) - len(entries))
        failing = [e for e in entries if not e["passed"]]
        # Each failing student counted once: with a counterexample, or without one.
        with_call = [e for e in failing if _counterexample(name, e) is not None]
        summary.without_call = len(failing) - len(with_call)
        pool = with_call or failing
        if pool:
            reasons = Counter(_why(e) for e in pool)
            reason, count = max(reasons.items(), key=lambda kv: (kv[1], -len(kv[0])))
            summary.reason, summary.reason_count = reason, count
            calls = [(c, e) for e in with_call if _why(e) == reason
                     and (c := _counterexample(name, e)) is not None]
            if calls:
                summary.call = min(calls, key=lambda ce: (_size(ce[1], ce[0]), ce[0]))[0]
        out.append(summary)
    return out


def call_html(call: str, first: int = FIRST_CARDS) -> str:
    """A call as text with every card in it drawn as a card; after its ``first`` cards
    the rest folds (``<details>``: a click opens it, and so does printing)."""
    parts: list[str] = []
    last = 0
    matches = list(_CARD.finditer(call))
    for i, m in enumerate(matches):
        if i == first and len(matches) > first + 2:
            more = len(matches) - first
            label = ngettext("{n} more card", "{n} more cards", more).format(n=more)
            parts.append(f'<details class="bg-more"><summary>+ {html.escape(label)}'
                         "</summary>")
        if m.start() > last:
            parts.append(f"<code>{html.escape(call[last:m.start()])}</code>")
        parts.append(card_html(Card.parse(m.group())))
        last = m.end()
    if last < len(call):
        parts.append(f"<code>{html.escape(call[last:])}</code>")
    if len(matches) > first + 2:
        parts.append("</details>")
    return f'<div class="bg-call" dir="ltr">{"".join(parts)}</div>'


def histogram_svg(scores: Sequence[float], max_score: float, bins: int = 12) -> str:
    """The score distribution as an inline SVG bar chart."""
    bins = max(1, min(bins, int(max_score) + 1 if max_score else 1))
    width = max_score / bins if max_score else 1
    counts = [0] * bins
    for s in scores:
        counts[min(bins - 1, int(s / width)) if width else 0] += 1
    top = max(counts, default=0) or 1
    w, h, left, bottom, pad = 900, 300, 50, 50, 10
    bar = (w - left - pad) / bins
    label_text, axis_text = html.escape(_("Score distribution")), html.escape(_("points"))
    parts = [f'<svg class="bg-histogram" viewBox="0 0 {w} {h}" role="img" '
             f'aria-label="{label_text}" '
             f'xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif" '
             f'direction="ltr" style="direction:ltr">']
    base = h - bottom
    parts.append(f'<line x1="{left}" y1="{base}" x2="{w - pad}" y2="{base}" '
                 f'stroke="#111" stroke-width="2"/>')
    for i, n in enumerate(counts):
        height = (base - 30) * n / top
        x = left + i * bar
        # Points are whole numbers: bin i holds [i * width, (i + 1) * width).
        lo = math.ceil(i * width - 1e-9)
        hi = math.ceil((i + 1) * width - 1e-9) - 1 if i < bins - 1 else int(max_score)
        label = f"{lo}–{hi}" if hi > lo else f"{lo}"
        parts.append(f'<rect x="{x + 3:.1f}" y="{base - height:.1f}" width="{bar - 6:.1f}" '
                     f'height="{height:.1f}" fill="#1f6feb" data-count="{n}">'
                     f"<title>{html.escape(label)}: {n}</title></rect>")
        if n:
            parts.append(f'<text x="{x + bar / 2:.1f}" y="{base - height - 6:.1f}" '
                         f'text-anchor="middle" font-size="20" font-weight="bold">{n}</text>')
        parts.append(f'<text x="{x + bar / 2:.1f}" y="{base + 24}" text-anchor="middle" '
                     f'font-size="16">{html.escape(label)}</text>')
    parts.append(f'<text x="{left + (w - left) / 2}" y="{h - 4}" text-anchor="middle" '
                 f'font-size="16">{axis_text}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _number(value: float) -> str:
    return points(value)


def _h(text: str) -> str:
    return html.escape(text)


def report_html(book: Gradebook, title: str | None = None) -> str:
    """The class report as one HTML page (a string)."""
    heads = {"distribution": _("Score distribution"), "katas": _("Pass rate per kata"),
             "failures": _("Most common failure per kata"), "students": _("Students")}
    smallest, all_passed = _("Smallest counterexample:"), _("Every kata passed.")
    students = book.students
    scores = [float(s["score"]) for s in students]
    max_score = max((float(s["max_score"]) for s in students), default=0.0)
    title = title or _("box-gin class report")
    direction = "rtl" if is_rtl() else "ltr"
    out = [f'<!DOCTYPE html><html lang="{html.escape(get_language())}" dir="{direction}">'
           f'<head><meta charset="utf-8"><meta name="viewport" '
           f'content="width=device-width, initial-scale=1">'
           f"<title>{html.escape(title)}</title>{PAGE_STYLE}{STYLE}</head><body>"]
    out.append(f"<h1>{html.escape(title)}</h1>")
    stats = [(_("students"), str(len(students)))]
    if scores:
        stats += [(_("mean"), format_number(statistics.mean(scores), 1)),
                  (_("median"), _number(statistics.median(scores))),
                  (_("full marks"), str(sum(s == max_score for s in scores)))]
    stats.append((_("points possible"), _number(max_score)))
    if book.seed is not None:
        stats.append((_("seed"), html.escape(str(book.seed))))
    out.append('<section class="bg-summary">' + "".join(
        f'<div class="bg-stat"><span>{html.escape(k)}</span><b>{v}</b></div>'
        for k, v in stats) + "</section>")

    out.append(f'<h2 id="distribution">{_h(heads["distribution"])}</h2>')
    out.append(histogram_svg(scores, max_score))

    katas = summarise(book)
    out.append(f'<h2 id="katas">{_h(heads["katas"])}</h2>')
    columns = (_("kata"), _("points possible"), _("passed"), _("not handed in"),
               _("pass rate"))
    out.append('<table class="bg-rates"><thead><tr>' + "".join(
        f"<th>{html.escape(h)}</th>" for h in columns) + "</tr></thead><tbody>")
    for k in katas:
        rate = k.passed / k.graded if k.graded else 0.0
        out.append(
            f'<tr data-kata="{html.escape(k.name)}"><td><code>{html.escape(k.name)}</code></td>'
            f"<td>{k.points}</td><td>{k.passed}/{k.graded}</td><td>{k.not_handed_in}</td>"
            f'<td><div class="bg-rate"><div class="bg-rate-track"><div class="bg-rate-bar" '
            f'style="width:{100 * rate:.0f}%"></div></div>'
            f'<span class="bg-rate-value">{100 * rate:.0f}%</span></div></td></tr>')
    out.append("</tbody></table>")

    out.append(f'<h2 id="failures">{_h(heads["failures"])}</h2>')
    failing = [k for k in katas if k.reason is not None]
    if not failing:
        out.append(f'<p class="bg-muted">{_h(all_passed)}</p>')
    for k in failing:
        count = ngettext("{n} of {total} student", "{n} of {total} students",
                         k.graded).format(n=k.reason_count, total=k.graded)
        out.append(f'<div class="bg-failure" data-kata="{html.escape(k.name)}">'
                   f"<h3><code>{html.escape(k.name)}</code> · {html.escape(count)}</h3>"
                   f"<p>{code_html(k.reason or '')}</p>")
        if k.call:
            out.append(f'<p class="bg-muted">{_h(smallest)}</p>'
                       + call_html(k.call))
        if k.call and k.without_call:
            other = ngettext("and {n} more student with no counterexample (the function "
                             "missing, not written yet, or not run)",
                             "and {n} more students with no counterexample (the function "
                             "missing, not written yet, or not run)", k.without_call).format(
                n=k.without_call)
            out.append(f'<p class="bg-muted">{html.escape(other)}</p>')
        out.append("</div>")

    out.append(f'<h2 id="students">{_h(heads["students"])}</h2>')
    for s in students:
        name_text = visible(s["student"])
        missing = {n for n in s["katas"] if not handed_in(s, n)}
        failed = [n for n, e in s["katas"].items() if not e["passed"] and n not in missing]
        out.append(f'<details class="bg-student" data-student="{html.escape(name_text)}">'
                   f'<summary><span class="bg-name">{html.escape(name_text)}</span>'
                   + "".join(f'<span class="bg-chip bg-fail">✘ {html.escape(n)}</span>'
                             for n in failed[:6])
                   + (f'<span class="bg-chip bg-fail">+{len(failed) - 6}</span>'
                      if len(failed) > 6 else "")
                   + f'<span class="bg-score">{_number(s["score"])}/'
                   f'{_number(s["max_score"])}</span></summary><div class="bg-chips">')
        not_in = _h(_("not handed in"))
        for name, entry in s["katas"].items():
            if name in missing:
                out.append(f'<span class="bg-chip bg-missing">– {html.escape(name)} '
                           f"({not_in})</span>")
                continue
            cls = "bg-pass" if entry["passed"] else "bg-fail"
            mark = "✔" if entry["passed"] else "✘"
            out.append(f'<span class="bg-chip {cls}">{mark} {html.escape(name)}</span>')
        out.append("</div>")
        for problem in s.get("problems") or []:
            out.append(f'<p class="bg-muted bg-problem" dir="auto">'
                       f"{html.escape(visible(problem))}</p>")
        for name, entry in s["katas"].items():
            if entry["passed"] or name in missing:
                continue
            call = failure_call(name, entry)
            if call:
                out.append(call_html(call))
            text = "\n".join(visible(line) for line in _feedback(entry).splitlines())
            out.append(f'<pre class="bg-feedback" dir="auto">{code_html(text)}</pre>')
        out.append("</details>")
    out.append(PRINT_SCRIPT + "</body></html>\n")
    return "".join(out)
