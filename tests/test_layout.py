"""The package's rooms stay readable (issue 33): no module over 600 lines, no private name
imported from another package, no two modules with one name where a reader would confuse
them.  Each check is shown to fail on a made-up case first."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "box_gin"
MOST_LINES = 600
#: Names several packages use on purpose, each for one role: a package's ``cli.py`` is
#: its commands (``box_gin.cli.commands`` registers them), ``core.py`` its central types;
#: ``cards.py`` is the engine's cards and ``views/cards.py`` their faces.
SHARED_NAMES = {"__init__.py": "a package", "cli.py": "a package's commands",
                "core.py": "a package's core", "cards.py": "the cards and their faces"}


def modules(root: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def too_long(paths: list[Path]) -> list[str]:
    return [f"{p.relative_to(p.parents[1])}: {n} lines" for p in paths
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES]


def private_imports(paths: list[Path], root: Path = PACKAGE) -> list[str]:
    """``from <another package> import _name`` anywhere (``_`` itself, the translation
    function, is public)."""
    found = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = path.parent
            for _level in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*(node.module or "").split(".")) if node.module else base
            package = target if target.is_dir() else target.parent
            for alias in node.names:
                name = alias.name
                if name.startswith("_") and name != "_" and not name.startswith("__") \
                        and package.resolve() != path.parent.resolve():
                    found.append(f"{path.relative_to(root.parent)} imports {name}")
    return found


def clashes(paths: list[Path]) -> list[str]:
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        by_name[path.name].append(str(path.relative_to(PACKAGE.parent)))
    return [f"{name}: {', '.join(places)}" for name, places in sorted(by_name.items())
            if len(places) > 1 and name not in SHARED_NAMES]


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    root = tmp_path / "box_gin"
    (root / "a").mkdir(parents=True)
    (root / "b").mkdir()
    (root / "a" / "report.py").write_text("from ..b.tools import _hidden, _, ok\n" +
                                          "x = 1\n" * MOST_LINES)
    (root / "b" / "tools.py").write_text("_hidden = ok = 1\n")
    (root / "b" / "report.py").write_text("")
    paths = modules(root)
    assert too_long(paths) == [f"a/report.py: {MOST_LINES + 1} lines"]
    assert private_imports(paths, root) == ["box_gin/a/report.py imports _hidden"]
    by_name: dict[str, list[Path]] = defaultdict(list)
    for p in paths:
        by_name[p.name].append(p)
    assert sorted(by_name["report.py"]) == [root / "a" / "report.py", root / "b" / "report.py"]


@pytest.mark.parametrize("check", [too_long, private_imports, clashes])
def test_the_package_passes(check) -> None:  # type: ignore[no-untyped-def]
    assert check(modules()) == []
