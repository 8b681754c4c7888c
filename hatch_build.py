"""Build hook: compile the gettext catalogs (.po sources) into .mo files with Babel, and
the optional C extension box_gin/_speedups.c when a C compiler is at hand.

The hook never deletes a compiled extension it was not asked to build:
``BOX_GIN_NO_COMPILE=1`` (a pure wheel) leaves any ``box_gin/_speedups*.so`` where it is
and out of the wheel (the wheel takes the extension only from a build that just made
it).  Pure wheels are built from a copy anyway (``box_gin.tools.kit.build_pure_wheel``)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any


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


def no_compile() -> bool:
    """Whether BOX_GIN_NO_COMPILE=1 asks for a pure build."""
    return os.environ.get("BOX_GIN_NO_COMPILE", "").strip() == "1"


def _compiler() -> list[str] | None:
    """The C compiler command: $CC, else the one Python was built with, else cc."""
    for candidate in (os.environ.get("CC"), sysconfig.get_config_var("CC"), "cc"):
        if candidate:
            command = shlex.split(candidate)
            if command and shutil.which(command[0]):
                return command
    return None


def compile_speedups(root: Path, warn: Any = print, into: Path | None = None) -> Path | None:
    """Compile box_gin/_speedups.c into the folder ``into``, by default next to itself
    (where an editable install finds it); return the extension, or None (after a warning)
    when there is no compiler or it fails: the package then runs on its pure-Python path
    only.  BOX_GIN_NO_COMPILE=1 skips it, and leaves an extension built earlier in place
    (the checkout's editable install uses it)."""
    source = root / "box_gin" / "_speedups.c"
    target = (into or source.parent) / (
        "_speedups" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    if no_compile():
        return None
    compiler = _compiler()
    problem = None
    if not source.exists():
        problem = f"{source} is missing"
    elif sys.platform == "win32":
        problem = "building it on Windows is not supported by this hook"
    elif compiler is None:
        problem = "no C compiler found (set CC, or install cc/gcc/clang)"
    if problem is None:
        assert compiler is not None
        link = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" \
            else ["-shared"]
        partial = target.with_name(target.name + ".part")
        command = [*compiler, "-O2", "-fPIC", *link,
                   "-I", sysconfig.get_paths()["include"], str(source), "-o", str(partial)]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        except (OSError, subprocess.SubprocessError) as err:
            problem = f"{shlex.join(command)} failed: {err}"
        else:
            if done.returncode == 0:
                partial.replace(target)
                return target
            problem = f"{shlex.join(command)} failed:\n{done.stderr.strip()}"
        partial.unlink(missing_ok=True)
    if into is None:
        # Asked to build it in place and failed: an older build no longer matches the source.
        target.unlink(missing_ok=True)
    warn(f"box-gin: the optional compiled extension was not built ({problem}); "
         "box-gin works without it, on its pure-Python path")
    return None


try:
    from hatchling.builders.hooks.plugin.interface import BuildHookInterface
except ImportError:  # imported for its compile functions alone (no build under way)
    pass
else:
    class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
        _scratch: str | None = None

        def initialize(self, version: str, build_data: dict[str, Any]) -> None:
            compile_catalogs(Path(self.root))
            if self.target_name != "wheel":
                return
            # An editable install runs from the tree, so its extension is built there; a
            # wheel's is built aside and added to the wheel (pyproject.toml excludes
            # box_gin/_speedups*.so: a leftover in the tree never enters a wheel), so a
            # wheel's build never replaces nor deletes the tree's own.
            into = None
            if version != "editable":
                self._scratch = tempfile.mkdtemp(prefix="box-gin-speedups-")
                into = Path(self._scratch)
            built = compile_speedups(Path(self.root), self.app.display_warning, into)
            if built is not None:
                # The wheel now holds a compiled file: tag it for this Python and platform.
                build_data["pure_python"] = False
                build_data["infer_tag"] = True
                if into is not None:
                    build_data["force_include"][str(built)] = f"box_gin/{built.name}"

        def finalize(self, version: str, build_data: dict[str, Any], artifact: str) -> None:
            if self._scratch is not None:
                shutil.rmtree(self._scratch, ignore_errors=True)
                self._scratch = None
