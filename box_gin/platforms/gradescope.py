"""A Gradescope autograder bundle, and what runs inside Gradescope's container.

Gradescope unzips the bundle into ``/autograder/source``, runs ``setup.sh`` there once
when it builds the image, then, for each submission, copies ``run_autograder`` to
``/autograder/run_autograder`` and runs it with the student's files in
``/autograder/submission``; it reads the grade from ``/autograder/results/results.json``.

The bundle holds ``setup.sh`` (a virtual environment at ``/autograder/venv`` with the
kit and its requirements), ``run_autograder``, the kit as a wheel, and
``requirements.txt``.  ``BOX_GIN_AUTOGRADER_ROOT`` moves ``/autograder`` elsewhere (for
a test) and ``BOX_GIN_PYTHON`` names the Python to build the environment with.

Inside the container, ``python -m box_gin.platforms.gradescope`` gathers every notebook
and ``.py`` file of the submission into one submission, grades it with ``box-gin
check --gradescope``, and, if grading itself fails, still writes a ``results.json``
that says so (score 0), since Gradescope shows nothing without one.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import BoxGinError
from ..i18n import _

ROOT_VARIABLE = "BOX_GIN_AUTOGRADER_ROOT"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
#: Gradescope's documented results.json fields, at the top and for each test.
RESULT_FIELDS = frozenset({"score", "execution_time", "output", "output_format",
                           "test_output_format", "test_name_format", "visibility",
                           "stdout_visibility", "extra_data", "tests", "leaderboard"})
TEST_FIELDS = frozenset({"score", "max_score", "status", "name", "name_format", "number",
                         "output", "output_format", "tags", "visibility", "extra_data"})
VISIBILITIES = frozenset({"hidden", "after_due_date", "after_published", "visible"})

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, to build the autograder's image (box-gin bundle).
set -euo pipefail
ROOT="${{BOX_GIN_AUTOGRADER_ROOT:-/autograder}}"
SOURCE="$ROOT/source"
PY="${{BOX_GIN_PYTHON:-}}"
if [ -z "$PY" ]; then
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c \\
        'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      PY="$candidate"; break
    fi
  done
fi
if [ -z "$PY" ]; then
  # Gradescope's Ubuntu images: Ubuntu 24.04's python3 is 3.12.
  apt-get update && apt-get install -y python3 python3-venv
  PY=python3
fi
"$PY" -m venv "$ROOT/venv"
"$ROOT/venv/bin/python" -m pip install --quiet -r "$SOURCE/requirements.txt"
"$ROOT/venv/bin/python" -m pip install --quiet --no-deps "$SOURCE/{wheel}"
"$ROOT/venv/bin/box-gin" --help >/dev/null
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for each submission (box-gin bundle).
ROOT="${{BOX_GIN_AUTOGRADER_ROOT:-/autograder}}"
exec "$ROOT/venv/bin/python" -m box_gin.platforms.gradescope --root "$ROOT" \\
    --timeout {timeout} --budget {budget}
"""


class BundleError(BoxGinError):
    """A bundle that cannot be made as asked."""


def _requirements() -> list[str]:
    """box-gin's requirements, pinned to the versions installed here when there are."""
    try:
        wanted = metadata.requires("box-gin") or []
    except metadata.PackageNotFoundError:
        wanted = ["rich>=13", "babel>=2.12"]
    out = []
    for req in wanted:
        if "extra ==" in req:
            continue
        name = req.split(";")[0].strip()
        bare = name.split(">")[0].split("=")[0].split("<")[0].split("[")[0].strip()
        try:
            out.append(f"{bare}=={metadata.version(bare)}")
        except metadata.PackageNotFoundError:
            out.append(name)
    return out


def build_wheel(folder: Path) -> Path:
    """Build box-gin's wheel from a copy of its source tree into ``folder``: pure Python
    (the optional compiled path is left out, so it installs on any Python 3.11+).  The
    checkout itself is never touched: its compiled kernels stay in force."""
    from ..tools.kit import build_pure_wheel

    if not (PROJECT_ROOT / "pyproject.toml").is_file():
        raise BundleError(_("box-gin's source tree was not found next to the installed "
                            "package: give a wheel with --wheel FILE"))
    try:
        return build_pure_wheel(PROJECT_ROOT, Path(folder))
    except OSError as err:
        raise BundleError(_("building box-gin's wheel failed: {error}").format(
            error=str(err)[-800:])) from None


def _add(zf: zipfile.ZipFile, name: str, data: bytes, executable: bool = False) -> None:
    info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = (0o100755 if executable else 0o100644) << 16
    zf.writestr(info, data)


def write_bundle(out: Path, wheel: Path | None = None, timeout: float = 20.0,
                 budget: float = 60.0) -> list[str]:
    """Write the autograder zip; returns the names in it.  ``timeout`` and ``budget`` are
    ``box-gin check``'s: wall-clock seconds for a kata's tests, for a whole submission."""
    if timeout <= 0:
        raise BundleError(_("--timeout must be more than 0 seconds, not {value}").format(
            value=timeout))
    if budget <= 0:
        raise BundleError(_("--budget must be more than 0 seconds, not {value}").format(
            value=budget))
    with tempfile.TemporaryDirectory(prefix="box-gin-bundle-") as tmp:
        if wheel is None:
            wheel = build_wheel(Path(tmp))
        wheel = Path(wheel)
        if not wheel.is_file() or wheel.suffix != ".whl" or \
                not wheel.name.startswith("box_gin-"):
            raise BundleError(_("{file} is not a box-gin wheel (box_gin-*.whl)").format(
                file=wheel))
        if not wheel.name.endswith("-none-any.whl"):
            raise BundleError(_("{file} holds compiled code for one platform: build it with "
                                "BOX_GIN_NO_COMPILE=1 so it installs in Gradescope's "
                                "container").format(file=wheel))
        files = {
            "setup.sh": (SETUP_SH.format(wheel=wheel.name).encode(), True),
            "run_autograder": (RUN_AUTOGRADER.format(timeout=f"{timeout:g}",
                                                        budget=f"{budget:g}").encode(), True),
            "requirements.txt": (("\n".join(_requirements()) + "\n").encode(), False),
            wheel.name: (wheel.read_bytes(), False),
        }
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        partial = Path(out).with_name(Path(out).name + ".part")
        with zipfile.ZipFile(partial, "w") as zf:
            for name, (data, executable) in files.items():
                _add(zf, name, data, executable)
        os.replace(partial, out)
    return list(files)


# -- inside the container ----------------------------------------------------------


def failed_results(message: str) -> str:
    """A results.json for a run that could not grade: score 0 and why."""
    return json.dumps({"score": 0, "output": message, "tests": []}, indent=1,
                      ensure_ascii=False) + "\n"


def gather(submission: Path, into: Path) -> list[Path]:
    """Copy every notebook and ``.py`` file under ``submission`` into ``into`` (one
    folder, names made unique), so that the whole upload is one submission."""
    into.mkdir(parents=True, exist_ok=True)
    copied: list[Path] = []
    for path in sorted(submission.rglob("*")):
        rel = path.relative_to(submission)
        if any(p.startswith(".") or p in ("__pycache__",) for p in rel.parts):
            continue
        if not path.is_file() or path.suffix not in (".ipynb", ".py") or \
                path.name == "conftest.py":
            continue
        name, n = path.name, 2
        while (into / name).exists():
            name, n = f"{path.stem}-{n}{path.suffix}", n + 1
        shutil.copyfile(path, into / name)
        copied.append(into / name)
    return copied


def run_autograder(root: Path, timeout: float = 20.0, budget: float = 60.0) -> int:
    """Grade ``root/submission`` into ``root/results/results.json`` (the checker's own
    call, :func:`box_gin.checker.check.check`, its table and feedback in the log)."""
    from ..checker.check import CheckError, CheckSettings
    from ..checker.terminal import Consoles, check_with_progress, show
    from ..files import write_atomic

    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="box-gin-gs-") as tmp:
        flat = Path(tmp) / "submission"
        if not gather(root / "submission", flat):
            write_atomic(results / "results.json", failed_results(_(
                "No notebook or .py file was found in the submission: upload your kata "
                "notebooks (.ipynb).")))
            return 0
        consoles = Consoles.make()
        try:
            settings = CheckSettings(paths=[flat], gradescope=results, cache=False,
                                     timeout=timeout, budget=budget)
            outcome = check_with_progress(settings, consoles)
            show(outcome, consoles, verbose=True)
            status = outcome.status
        except CheckError as exc:
            consoles.fail.print(str(exc), markup=False)
            status = 2
        except Exception as exc:  # still tell Gradescope something
            status = 1
            write_atomic(results / "results.json", failed_results(_(
                "The autograder failed: {error}").format(error=exc)))
        if status != 0 and not (results / "results.json").exists():
            write_atomic(results / "results.json", failed_results(_(
                "The autograder failed: {error}").format(error=status)))
    _keep_documented(results / "results.json")
    return 0


def documented(data: dict[str, Any]) -> dict[str, Any]:
    """A results.json's data with only the fields Gradescope documents."""
    out = {k: v for k, v in data.items() if k in RESULT_FIELDS}
    if isinstance(out.get("tests"), list):
        out["tests"] = [{k: v for k, v in t.items() if k in TEST_FIELDS}
                        for t in out["tests"] if isinstance(t, dict)]
    return out


def _keep_documented(path: Path) -> None:
    from ..files import write_atomic

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        write_atomic(path, failed_results(_("The autograder wrote no readable results.")))
        return
    if isinstance(data, dict):
        write_atomic(path, json.dumps(documented(data), indent=1, ensure_ascii=False) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m box_gin.platforms.gradescope [--root DIR]``."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m box_gin.platforms.gradescope")
    parser.add_argument("--root", type=Path,
                        default=Path(os.environ.get(ROOT_VARIABLE, "/autograder")))
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--budget", type=float, default=60.0)
    args = parser.parse_args(argv)
    return run_autograder(args.root, args.timeout, args.budget)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
