"""The Gradescope bundle, end to end: `box-gin gradescope-bundle` writes the zip; it is
unpacked into a folder laid out as Gradescope's /autograder (its path given by
BOX_GIN_AUTOGRADER_ROOT), setup.sh installs the kit into a fresh virtual environment
there, run_autograder grades a submission, and results.json has Gradescope's documented
fields with the points `box-gin check` gives the same files."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from box_gin.cli import main
from box_gin.katas import KATAS
from box_gin.platforms.gradebook import load_gradebook
from box_gin.platforms.gradescope import RESULT_FIELDS, TEST_FIELDS, VISIBILITIES
from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from classroom import make_class  # noqa: E402

WRONG = ROOT / "tests" / "submissions" / "lay_off_no_chain.py"
#: Wall-clock limits far above what grading needs even on a busy machine: an honest
#: kata must never fail here for want of time (the limits themselves are tested in
#: tests/test_checker.py and the red team's tests, with hostile code).
GENEROUS = ["--timeout", "600", "--budget", "3600"]


def validate(results: dict[str, Any]) -> None:
    """results.json as Gradescope's autograder specification describes it."""
    assert isinstance(results, dict)
    assert set(results) <= RESULT_FIELDS, set(results) - RESULT_FIELDS
    assert isinstance(results["score"], int | float)
    assert isinstance(results.get("output", ""), str)
    for test in results["tests"]:
        assert set(test) <= TEST_FIELDS, set(test) - TEST_FIELDS
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert isinstance(test["score"], int | float)
        assert isinstance(test["max_score"], int | float)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["status"] in ("passed", "failed")
        assert test["visibility"] in VISIBILITIES
    assert results["score"] == sum(t["score"] for t in results["tests"])


@pytest.fixture(scope="module")
def autograder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle unpacked and set up, as Gradescope does when it builds the image."""
    folder = tmp_path_factory.mktemp("gradescope")
    bundle = folder / "autograder.zip"
    assert main(["gradescope-bundle", str(bundle), *GENEROUS]) == 0
    root = folder / "autograder"
    with zipfile.ZipFile(bundle) as zf:
        names = zf.namelist()
        assert "setup.sh" in names and "run_autograder" in names
        assert "requirements.txt" in names
        wheels = [n for n in names if n.endswith(".whl")]
        assert len(wheels) == 1 and wheels[0].endswith("-py3-none-any.whl")
        for name in ("setup.sh", "run_autograder"):
            mode = zf.getinfo(name).external_attr >> 16
            assert mode & stat.S_IXUSR, name
        zf.extractall(root / "source")
    for name in ("setup.sh", "run_autograder"):
        (root / "source" / name).chmod(0o755)
    assert "--timeout 600 --budget 3600" in (root / "source" / "run_autograder").read_text()
    proc = subprocess.run(["bash", str(root / "source" / "setup.sh")], env=_env(root),
                          capture_output=True, text=True, timeout=3600, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (root / "venv" / "bin" / "box-gin").exists()
    return root


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["BOX_GIN_AUTOGRADER_ROOT"] = str(root)
    env["BOX_GIN_PYTHON"] = sys.executable if sys.version_info >= (3, 11) else "python3"
    return env


def grade(root: Path, files: list[Path]) -> dict[str, Any]:
    """Run run_autograder on a submission of ``files``, as Gradescope does."""
    for sub in ("submission", "results"):
        shutil.rmtree(root / sub, ignore_errors=True)
        (root / sub).mkdir()
    for f in files:
        target = root / "submission" / f.name
        if f.is_dir():
            shutil.copytree(f, target)
        else:
            shutil.copyfile(f, target)
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    proc = subprocess.run([str(root / "run_autograder")], cwd=root, env=_env(root),
                          capture_output=True, text=True, timeout=7200, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    data: dict[str, Any] = json.loads((root / "results" / "results.json").read_text())
    validate(data)
    return data


def checked(files: list[Path], tmp_path: Path) -> dict[str, Any]:
    out = tmp_path / "check.json"
    assert main(["check", *map(str, files), "--json", str(out), "-q", "--no-cache",
                 *GENEROUS]) == 0
    result: dict[str, Any] = load_gradebook(out).students[0]
    return result


def test_the_solutions_get_full_marks(autograder: Path) -> None:
    data = grade(autograder, kit_files(ROOT, "solutions/*.ipynb"))
    assert data["score"] == sum(k.points for k in KATAS)
    assert [t["name"] for t in data["tests"]] == [k.name for k in KATAS]
    assert {t["status"] for t in data["tests"]} == {"passed"}


def test_a_wrong_submission_gets_the_points_box_gin_check_gives_it(
        autograder: Path, tmp_path: Path) -> None:
    student = make_class(tmp_path / "class", [WRONG])
    data = grade(autograder, student)
    expected = checked(student, tmp_path)
    assert {t["name"]: t["score"] for t in data["tests"]} == {
        name: e["points"] for name, e in expected["katas"].items()}
    assert data["score"] == expected["score"] == sum(k.points for k in KATAS) - 4
    lay_off = next(t for t in data["tests"] if t["name"] == "lay_off")
    assert lay_off["status"] == "failed" and "lay_off(" in lay_off["output"]


def test_files_in_folders_are_one_submission(autograder: Path, tmp_path: Path) -> None:
    nested = tmp_path / "upload" / "my katas"
    nested.mkdir(parents=True)
    for nb in kit_files(ROOT, "solutions/0[12]*.ipynb"):
        shutil.copyfile(nb, nested / nb.name)
    data = grade(autograder, [tmp_path / "upload"])
    passed = {t["name"] for t in data["tests"] if t["status"] == "passed"}
    assert passed == {k.name for k in KATAS if k.notebook in (1, 2)}


def test_an_empty_submission_still_gets_results(autograder: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no code here")
    data = grade(autograder, [tmp_path / "notes.txt"])
    assert data["score"] == 0 and data["tests"] == []
    assert ".ipynb" in data["output"]
