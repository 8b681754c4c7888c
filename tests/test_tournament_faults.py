"""A tournament of broken and hostile bots, as a class hands them in: every submission
is listed with its reason in the terminal, the JSON results and the leaderboard page
(never dropped), a learner whose folder is empty as not handed in, and a crashing bot
with what it raised, the function and the line in its file, and the first game and
hand where it crashed (docs/tournament.md)."""

from __future__ import annotations

import html
import json
import shutil
from pathlib import Path

import pytest

needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None,
                                 reason="bubblewrap is not installed")

HONEST = "def play(view):\n    return view.legal_actions[0]\n"
# Line 5 raises, in play, on the first decision of every kind.
CRASHER = ("def helper(view):\n"
           "    return view.legal_actions[0]\n"
           "\n"
           "def play(view):\n"
           "    return 1 // (len(view.hand) - len(view.hand))\n")
# A sitter's view is not a seat's: a natural `advise = play` that takes a seat's first
# legal action, where the sitter's own list is empty (its captain's: view.captain).
ADVISE_PLAY = ("def play(view):\n"
               "    return view.legal_actions[0]\n"
               "advise = play\n")


@needs_bwrap
@pytest.mark.timeout(600)
def test_every_broken_bot_is_explained_everywhere(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from box_gin.cli import main

    root = tmp_path / "class"
    bots = {"ada": HONEST, "crasher": CRASHER, "advisor": ADVISE_PLAY,
            "syntax": "def play(view):\n    return (\n",
            "typo": HONEST.replace("def play(", "def paly(")}
    for name, source in bots.items():
        (root / name).mkdir(parents=True)
        (root / name / "bot.py").write_text(source)
    (root / "nobody").mkdir()  # a learner who handed nothing in
    out = tmp_path / "out"
    status = main(["tournament", str(root), "--matches", "1", "--seed", "4",
                   "--json", str(out / "r.json"), "--html", str(out / "r.html")])
    assert status == 0
    said = capsys.readouterr().out
    data = json.loads((out / "r.json").read_text())
    page = (out / "r.html").read_text()

    # Not handed in: in every output, not as a failure.
    assert data["not_handed_in"] == ["nobody"]
    assert "nobody: not handed in" in said
    assert 'id="not-handed-in"' in page and 'data-bot="nobody"' in page
    # Cannot enter: each with its reason.
    missing = {m["name"]: m["reason"] for m in data["not_entered"]}
    assert set(missing) == {"syntax", "typo"}
    for name, reason in missing.items():
        assert f"{name}: not entered: {reason}" in said
        assert html.escape(reason) in page

    by = {b["name"]: b for b in data["bots"]}
    assert {"ada", "crasher", "advisor"} <= set(by)
    crash = by["crasher"]["first_crash"]
    assert by["crasher"]["crashes"] > 0
    assert crash["type"] == "ZeroDivisionError" and "division" in crash["message"]
    assert (crash["function"], crash["line"]) == ("play", 5)
    assert "bot.py" in crash["cell"]
    first_game = min(g["index"] for g in data["games"]
                     if g["faults"].get("crasher", {}).get("crash"))
    assert crash["game"] == first_game and crash["hand"] == 1
    line = next(x for x in said.splitlines() if x.startswith("crasher: "))
    for part in ("ZeroDivisionError", "play", "line 5", f"game {first_game + 1}", "hand 1"):
        assert part in line, line
    assert 'id="crashes"' in page
    assert html.escape(f"ZeroDivisionError: {crash['message']}") in page
    # advise = play: it crashes as sitter only, and says where.
    advisor = by["advisor"]["first_crash"]
    assert by["advisor"]["crashes"] > 0 and advisor["role"] == "sitter"
    assert (advisor["type"], advisor["function"], advisor["line"]) == ("IndexError", "play", 2)
    assert by["ada"]["crashes"] == 0 and by["ada"]["first_crash"] is None
