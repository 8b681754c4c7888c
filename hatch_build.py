"""Build hook: compile the gettext catalogs (.po sources) into .mo files with Babel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def compile_catalogs(root: Path) -> list[Path]:
    """Compile every box_gin/locale/*/LC_MESSAGES/*.po next to itself; return the .mo files."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted((root / "box_gin" / "locale").glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        with po.open("rb") as source:
            catalog = read_po(source)
        with mo.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        compile_catalogs(Path(self.root))
