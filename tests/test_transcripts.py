"""Saved transcripts: seeded matches under several presets, kept in tests/transcripts/ and
replayed action by action and score by score, so that any change in the engine's or the
bots' behaviour shows as a failing test and a diff of the file (as OpenSpiel keeps its
playthroughs).

Each file holds the players' bots and the match record (:meth:`Match.to_dict`).  Two
checks per file: the record loads (``Match.from_json`` replays it and verifies every claim:
roles, deal seeds, outcomes, winners, points, scores), and the same bots from the same seed
play exactly the same actions and scores again.

After a deliberate change of behaviour, regenerate them and review the diff:

    PYTHONPATH=. .venv/bin/python tests/test_transcripts.py --regenerate
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from box_gin import PRESETS, Match, greedy_bot, seeded_random_bot
from box_gin.bots import Bot

HERE = Path(__file__).resolve().parent / "transcripts"
PLAYERS = ("Ada", "Ben", "Cy")
#: (file name, preset, target, seed, the bot of each player: "greedy" or "random:<seed>").
CASES: list[tuple[str, str, int, int, tuple[str, str, str]]] = [
    # Seed 15 deals a gin, an undercut and a knock: the same deals under several rules.
    ("standard-greedy", "standard", 100, 15, ("greedy", "greedy", "greedy")),
    ("gin-20", "gin-20", 100, 15, ("greedy", "greedy", "greedy")),
    ("big-gin", "big-gin", 100, 15, ("greedy", "greedy", "greedy")),
    ("classic", "classic", 100, 15, ("greedy", "greedy", "greedy")),
    ("hollywood", "hollywood", 100, 15, ("greedy", "greedy", "greedy")),
    # With a random bot: a drawn hand, a gin and knocks.
    ("standard-mixed", "standard", 60, 8, ("greedy", "random:8", "greedy")),
    ("oklahoma", "oklahoma", 80, 68, ("greedy", "greedy", "greedy")),
    ("oklahoma-spades", "oklahoma-spades", 80, 60, ("greedy", "random:60", "greedy")),
    ("discard-taken", "discard-taken", 60, 57, ("random:57", "greedy", "greedy")),
]


def _bot(spec: str) -> Bot:
    if spec == "greedy":
        return greedy_bot
    kind, _sep, seed = spec.partition(":")
    assert kind == "random" and seed.isdigit(), spec
    return seeded_random_bot(int(seed))


def play(preset: str, target: int, seed: int, bots: tuple[str, str, str]) -> Match:
    """The match these bots play from this seed."""
    match = Match.new(PLAYERS, PRESETS[preset].replace(target=target), seed=seed)
    match.play({name: _bot(spec) for name, spec in zip(PLAYERS, bots, strict=True)})
    assert match.is_over
    return match


def transcript(preset: str, target: int, seed: int, bots: tuple[str, str, str]) -> str:
    """The text of one transcript file."""
    match = play(preset, target, seed, bots)
    data = {"transcript": 1, "preset": preset,
            "bots": dict(zip(PLAYERS, bots, strict=True)), "match": match.to_dict()}
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(("name", "preset", "target", "seed", "bots"), CASES,
                         ids=[c[0] for c in CASES])
def test_a_saved_record_replays_with_every_claim_verified(
        name: str, preset: str, target: int, seed: int, bots: tuple[str, str, str]) -> None:
    saved = _load(name)
    match = Match.from_json(json.dumps(saved["match"]))
    assert match.is_over and match.to_dict() == saved["match"]
    assert match.rules == PRESETS[preset].replace(target=target) and match.seed == seed


@pytest.mark.parametrize(("name", "preset", "target", "seed", "bots"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_same_bots_play_the_same_match_again(
        name: str, preset: str, target: int, seed: int, bots: tuple[str, str, str]) -> None:
    saved = _load(name)
    assert saved["bots"] == dict(zip(PLAYERS, bots, strict=True))
    now = play(preset, target, seed, bots).to_dict()
    for i, (was, is_) in enumerate(zip(saved["match"]["hands"], now["hands"], strict=False)):
        for j, (a, b) in enumerate(zip(was["actions"], is_["actions"], strict=False)):
            assert a == b, f"hand {i + 1}, action {j + 1}: saved {a!r}, now {b!r}"
        assert len(was["actions"]) == len(is_["actions"]), f"hand {i + 1}: length"
        for key in ("roles", "seed", "outcome", "winner", "points"):
            assert was[key] == is_[key], f"hand {i + 1}, {key}: saved {was[key]!r}, " \
                                         f"now {is_[key]!r}"
    assert len(saved["match"]["hands"]) == len(now["hands"]), "number of hands"
    for key in ("scores", "final_scores", "winner"):
        assert saved["match"][key] == now[key], key


def test_every_preset_is_covered_and_no_file_is_stray() -> None:
    assert {c[1] for c in CASES} == set(PRESETS)
    assert sorted(p.stem for p in HERE.glob("*.json")) == sorted(c[0] for c in CASES)


def regenerate() -> None:
    """Write every transcript file anew (review the diff before committing it)."""
    HERE.mkdir(exist_ok=True)
    for name, preset, target, seed, bots in CASES:
        (HERE / f"{name}.json").write_text(transcript(preset, target, seed, bots),
                                           encoding="utf-8")
        print(f"wrote {HERE / name}.json")


if __name__ == "__main__":
    if sys.argv[1:] != ["--regenerate"]:
        sys.exit("usage: python tests/test_transcripts.py --regenerate")
    regenerate()
