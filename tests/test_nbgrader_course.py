"""`box-gin nbgrader COURSE` without nbgrader: the next steps it prints are the real ones
(install nbgrader when it is missing, then the commands the course's own
nbgrader_config.py lists), and a course in another language is made from
solutions/<lang>/."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from box_gin.cli import main
from box_gin.platforms.nbgrader import INSTALL, commands
from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parents[1]


def printed_commands(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.startswith("    nbgrader ")]


@pytest.mark.parametrize("installed", [True, False])
def test_the_next_steps_are_the_configs_own(tmp_path: Path, capsys, monkeypatch,
                                             installed: bool) -> None:
    real_which = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: (
        "/usr/bin/nbgrader" if installed else None) if name == "nbgrader"
        else real_which(name, *a, **k))
    assert main(["nbgrader", str(tmp_path / "course"), "--assignment", "week2"]) == 0
    out = capsys.readouterr().out
    config = (tmp_path / "course" / "nbgrader_config.py").read_text("utf-8")
    listed = [line.strip() for line in config.splitlines()
              if line.strip().startswith("nbgrader ")]
    assert printed_commands(out) == listed == commands("week2")
    assert "nbgrader generate_assignment week2 --force" in listed
    assert (INSTALL in out) is not installed
    if not installed:   # installing comes first
        assert out.index(INSTALL) < out.index("nbgrader generate_assignment")


def test_a_course_in_hungarian(tmp_path: Path, capsys) -> None:
    assert main(["nbgrader", str(tmp_path / "kurzus"), "--solutions",
                 str(ROOT / "solutions" / "hu")]) == 0
    made = sorted((tmp_path / "kurzus" / "source" / "katas").glob("*.ipynb"))
    assert [p.name for p in made] == [p.name for p in kit_files(ROOT, "solutions/hu/*.ipynb")]
    first = json.loads(made[0].read_text("utf-8"))
    code = "".join("".join(c["source"]) for c in first["cells"] if c["cell_type"] == "code")
    assert "set_language(\"hu\")" in code or "set_language('hu')" in code
