"""The longest test files run first (tests/longest.py): every file it names is still
there, and the order keeps each file's tests together and in their order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from longest import LONGEST, file_of, longest_first

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Item:
    nodeid: str


def test_every_longest_file_is_a_test_file_of_the_kit() -> None:
    for name in LONGEST:
        assert (ROOT / name).is_file(), name
        assert Path(name).name.startswith("test_"), name


def test_the_longest_files_come_first_each_file_whole_and_in_order() -> None:
    ids = ["notebooks/01_cards.ipynb::Cell 0", "notebooks/01_cards.ipynb::Cell 1",
           "tests/test_cards.py::test_a", "tests/test_cards.py::test_b",
           "tests/test_nbgrader.py::test_a", "tests/test_nbgrader.py::test_b",
           "tests/test_redteam.py::test_a[1]", "tests/test_redteam.py::test_b"]
    order = [item.nodeid for item in longest_first([Item(i) for i in ids])]
    assert order == ["tests/test_redteam.py::test_a[1]", "tests/test_redteam.py::test_b",
                     "tests/test_nbgrader.py::test_a", "tests/test_nbgrader.py::test_b",
                     "notebooks/01_cards.ipynb::Cell 0", "notebooks/01_cards.ipynb::Cell 1",
                     "tests/test_cards.py::test_a", "tests/test_cards.py::test_b"]
    assert file_of("tests/test_x.py::test_y[a::b]") == "tests/test_x.py"
