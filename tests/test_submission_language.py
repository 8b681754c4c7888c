"""The learner's language is read from the submission itself: the translated notebooks
carry it in their metadata and their file name, so a Hungarian kata notebook handed in
as nbgrader (or an LMS download) lays it out, in a folder of the learner's own, gets its
feedback in Hungarian (issue 38)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from box_gin.checker.submissions import find_submissions, language_of
from box_gin.cli import main
from box_gin.tools import translate_notebooks as tn

ROOT = Path(__file__).resolve().parents[1]
KATA = ROOT / "solutions" / "hu" / "02_melds.hu.ipynb"


@pytest.fixture(autouse=True)
def _cache_key_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOX_GIN_KEY_DIR", str(tmp_path / "key"))


def notebook(language: str | None) -> bytes:
    meta = {"box_gin": {"language": language}} if language else {}
    return json.dumps({"cells": [], "metadata": meta, "nbformat": 4,
                       "nbformat_minor": 5}).encode()


@pytest.mark.parametrize(("files", "data", "expected"), [
    # the metadata first, whatever the name and the folder
    (["alice/02_melds.ipynb"], {"alice/02_melds.ipynb": notebook("hu")}, "hu"),
    (["fr/02_melds.uk.ipynb"], {"fr/02_melds.uk.ipynb": notebook("id")}, "id"),
    # then the file name
    (["alice/katas/02_melds.hu.ipynb"], {}, "hu"),
    (["alice/02_melds.he.ipynb", "alice/03_knocking.he.ipynb"], {}, "he"),
    # then the folder
    (["exercises/fr/02_melds.ipynb"], {}, "fr"),
    # nothing says, or the files disagree: none
    (["alice/02_melds.ipynb"], {"alice/02_melds.ipynb": notebook(None)}, None),
    (["alice/02_melds.hu.ipynb", "alice/03_knocking.fr.ipynb"], {}, None),
    (["alice/bot.v2.py"], {}, None),
])
def test_the_language_comes_from_metadata_then_name_then_folder(
        files: list[str], data: dict[str, bytes], expected: str | None) -> None:
    paths = [Path(f) for f in files]
    assert language_of(paths, {Path(k): v for k, v in data.items()}) == expected


@pytest.mark.parametrize("lang", [lang for lang in tn.languages() if tn.started(lang, ROOT)])
def test_every_generated_notebook_carries_its_language(lang: str) -> None:
    for source in tn.sources(ROOT):
        for path in (source.target(ROOT, lang), source.exercise(ROOT, lang)):
            if path is not None:
                meta = tn.read_notebook(path)["metadata"]
                assert meta.get("box_gin", {}).get("language") == lang, path


def test_a_hungarian_kata_in_nbgraders_layout_gets_hungarian_feedback(tmp_path: Path) -> None:
    course = tmp_path / "course"
    mine = course / "submitted" / "alice" / "katas"
    mine.mkdir(parents=True)
    # a wrong answer, so that the feedback says something
    nb = json.loads(KATA.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        text = tn.cell_source(cell)
        if cell["cell_type"] == "code" and "def is_set(" in text:
            cell["source"] = "def is_set(cards):\n    return True\n"
    (mine / KATA.name).write_text(json.dumps(nb), encoding="utf-8")
    found = find_submissions([course])
    assert [(s.student, s.language) for s in found] == [("alice", "hu")]
    out = tmp_path / "grades.json"
    assert main(["check", str(course), "--json", str(out), "-q"]) == 0
    (alice,) = json.loads(out.read_text(encoding="utf-8"))["students"]
    assert alice["language"] == "hu"
    feedback = alice["katas"]["is_set"]["feedback"]
    assert not alice["katas"]["is_set"]["passed"]
    # said in Hungarian: what was got and expected, and the glossary's word for a set
    assert "kapott: True" in feedback and "várt: False" in feedback
    assert "csoport" in feedback and "expected" not in feedback
    # the same submission without its language says it in English: the two differ
    plain = tmp_path / "plain" / "submitted" / "alice" / "katas"
    plain.mkdir(parents=True)
    nb["metadata"].pop("box_gin", None)
    (plain / "02_melds.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    out2 = tmp_path / "grades2.json"
    assert main(["check", str(tmp_path / "plain"), "--json", str(out2), "-q"]) == 0
    (english,) = json.loads(out2.read_text(encoding="utf-8"))["students"]
    assert english["language"] is None
    assert english["katas"]["is_set"]["feedback"] != feedback
    shutil.rmtree(tmp_path / "plain")
