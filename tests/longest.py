"""The test files that take longest, run first (``tests/conftest.py``).

pytest-xdist hands its workers whole files (``--dist loadfile``), each worker a new
file when it is nearly done, in the order collected (``make test`` turns off xdist's own
order, by the number of tests in a file, which put the red team's four long tests and
nbgrader's eight last).  A long file handed out last runs alone at the end of a pass
while the other workers have nothing to do, so the longest go first: the longest file
first, each worker's next file the longest left."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

#: Worker-seconds of the longest files on the two-core machine (``--junit-xml`` of each
#: pass, 2026-12-05); the first pass's and the second's, which never run together.
LONGEST = {
    # the first pass (beside the notebooks)
    "tests/test_nbgrader.py": 48, "tests/test_checker.py": 35, "tests/test_verdicts.py": 30,
    "tests/test_review.py": 18, "tests/test_translation_rules.py": 18,
    "tests/test_gradescope_bundle.py": 16, "tests/test_output_surfaces.py": 16,
    "tests/test_mutants.py": 14, "tests/test_wheels.py": 10, "tests/test_i18n.py": 9,
    # the second pass (alone)
    "tests/test_redteam.py": 175, "tests/browser/test_play_app.py": 76,
    "tests/test_tournament.py": 75, "tests/browser/test_classroom_access.py": 49,
    "tests/test_bot_kata_graded.py": 44, "tests/browser/test_rtl_notebooks.py": 36,
    "tests/browser/test_first_hour.py": 33, "tests/browser/test_play_server.py": 32,
    "tests/browser/test_classroom_teacher.py": 29, "tests/browser/test_class_report.py": 28,
}


def file_of(nodeid: str) -> str:
    """The file of a test's node id (``tests/test_x.py::test_y[1]`` -> ``tests/test_x.py``)."""
    return nodeid.split("::", 1)[0]


def longest_first(items: Sequence[Any]) -> list[Any]:
    """``items`` (each file's together, as collected) with the files of :data:`LONGEST`
    first, longest first; the items of a file stay in their order, the other files in
    theirs."""
    return sorted(items, key=lambda item: -LONGEST.get(file_of(item.nodeid), 0))
