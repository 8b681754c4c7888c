"""``box-gin review RECORD``: every decision of a recorded hand or match, rated.

    box-gin review match.json --seat Ada --html review.html
    box-gin review hand.json                  # a table in the terminal
    box-gin review records.jsonl --json review.json
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import BoxGinError
from ..i18n import _, format_number, format_percent, ngettext
from .core import Review, review_hands
from .evaluate import MAX_WORLDS, MIN_WORLDS, evaluate
from .records import read_record


def add_command(sub: Any) -> None:
    """Add the ``review`` subcommand to the ``box-gin`` parser."""
    p = sub.add_parser("review", help=_("rate every decision of a recorded hand or match"))
    p.add_argument("record", type=Path, metavar="RECORD",
                   help=_("a hand or match record (JSON), or the tournament's records file"))
    p.add_argument("--seat", metavar="NAME",
                   help=_("review only the decisions of this player (in a hand record: "
                          "'captain' or 'box')"))
    p.add_argument("--seed", type=int, default=0, metavar="N",
                   help=_("the seed of the sampled deals (default 0): the same seed gives "
                          "the same review"))
    p.add_argument("--worlds", type=int, default=MAX_WORLDS, metavar="N",
                   help=_("the most deals sampled for one decision (default {n}): fewer is "
                          "quicker and rougher").format(n=MAX_WORLDS))
    p.add_argument("--html", type=Path, metavar="PAGE", help=_("write the review as a page"))
    p.add_argument("--json", type=Path, metavar="FILE",
                   help=_("write the review as JSON: every decision and every action's value"))
    p.add_argument("--lang", help=_("the language of the review (en, fr, hu, uk, id, he)"))


def terminal_table(review: Review) -> str:
    """The review as plain text: a line a decision, then each player's summary."""
    heads = [_("game"), _("hand"), _("turn"), _("player"), _("played"), _("rating"),
             _("points lost"), _("best")]
    rows = [[str(d.game), str(d.number), str(d.step + 1), d.player, d.played.label,
             d.rating.label, format_number(d.loss, 1), d.best.label]
            for d in review.decisions]
    widths = [max(len(r[i]) for r in [heads, *rows]) for i in range(len(heads))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
             for row in [heads, *rows]]
    for d in review.decisions:
        if not d.rating.fine:
            lines.append(_("game {game}, hand {number}, turn {turn}: {reason}").format(
                game=d.game, number=d.number, turn=d.step + 1, reason=d.reason))
    for s in review.summaries():
        lines.append(ngettext(
            "{player}: {n} decision, {loss} points lost per decision, accuracy {accuracy}",
            "{player}: {n} decisions, {loss} points lost per decision, accuracy {accuracy}",
            s.decisions).format(player=s.player, n=s.decisions,
                                loss=format_number(s.mean_loss, 2),
                                accuracy=format_percent(s.accuracy)))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Review the record the arguments name; the exit status (2 for bad input)."""
    from ..files import write_atomic
    from .page import review_page

    try:
        hands = read_record(args.record)
        worlds = max(1, args.worlds)
        evaluator = functools.partial(evaluate, max_worlds=worlds,
                                      min_worlds=min(MIN_WORLDS, worlds))
        review = review_hands(hands, seat=args.seat, seed=args.seed, evaluator=evaluator)
    except BoxGinError as err:
        print(_("box-gin review: {error}").format(error=err), file=sys.stderr)
        return 2
    if args.json:
        write_atomic(args.json, json.dumps(review.to_dict(), indent=1, ensure_ascii=False))
        print(_("wrote {path}").format(path=args.json))
    if args.html:
        title = _("Review of {record}").format(record=args.record.name)
        write_atomic(args.html, review_page(review, title))
        print(_("wrote {path}").format(path=args.html))
    if not args.html and not args.json:
        print(terminal_table(review))
    return 0
