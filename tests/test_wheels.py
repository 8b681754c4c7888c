"""Every wheel is built from a copy, and no build deletes the checkout's compiled kernels
(box_gin/_speedups*.so): a pure wheel (BOX_GIN_NO_COMPILE=1) leaves a built extension in
place and out of the wheel, and `box-gin gradescope-bundle` leaves the checkout as it was."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from box_gin.cli import main
from box_gin.tools.kit import build_pure_wheel, not_source

ROOT = Path(__file__).resolve().parents[1]
EXTENSION = "_speedups" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def extensions(root: Path) -> dict[str, tuple[int, int, int]]:
    """The compiled kernels in ``root``'s package: name -> (inode, size, mtime)."""
    found = {}
    for path in sorted((root / "box_gin").glob("_speedups*")):
        if path.suffix in (".so", ".pyd"):
            st = path.stat()
            found[path.name] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return found


def implementation() -> str:
    """Which kernels a fresh interpreter of this checkout uses."""
    done = subprocess.run([sys.executable, "-c",
                           "import box_gin.kernels as k; print(k.IMPLEMENTATION)"],
                          capture_output=True, text=True, check=True, cwd=ROOT,
                          env={k: v for k, v in os.environ.items() if k != "BOX_GIN_PURE"})
    return done.stdout.strip()


def test_a_pure_build_in_the_tree_keeps_its_extension_and_leaves_it_out(tmp_path: Path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=not_source)
    planted = tree / "box_gin" / EXTENSION
    planted.write_bytes(b"an extension built earlier")
    before = extensions(tree)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                           "--wheel-dir", str(tmp_path / "out"), str(tree)],
                          env={**os.environ, "BOX_GIN_NO_COMPILE": "1"},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert extensions(tree) == before
    assert planted.read_bytes() == b"an extension built earlier"
    (wheel,) = (tmp_path / "out").glob("box_gin-*.whl")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as whl:
        assert not [n for n in whl.namelist() if n.endswith((".so", ".pyd", ".part"))]


def test_the_wheel_copy_leaves_out_builds_caches_and_checkpoints(tmp_path: Path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT, tree, ignore=not_source)
    for junk in ("box_gin/__pycache__/x.pyc", "box_gin/.ipynb_checkpoints/a.py",
                 "box_gin/" + EXTENSION, ".hypothesis/examples/x", "notebooks/x.ipynb"):
        (tree / junk).parent.mkdir(parents=True, exist_ok=True)
        (tree / junk).write_text("junk")
    copy = tmp_path / "copy"
    shutil.copytree(tree, copy, ignore=not_source)
    assert (copy / "box_gin" / "cards.py").is_file()
    assert (copy / "pyproject.toml").is_file() and (copy / "hatch_build.py").is_file()
    for junk in ("box_gin/__pycache__", "box_gin/.ipynb_checkpoints", "box_gin/" + EXTENSION,
                 ".hypothesis", "notebooks"):
        assert not (copy / junk).exists(), junk


def test_building_the_bundle_leaves_the_checkouts_compiled_kernels(tmp_path: Path):
    before, running = extensions(ROOT), implementation()
    assert main(["gradescope-bundle", str(tmp_path / "autograder.zip")]) == 0
    assert extensions(ROOT) == before
    assert implementation() == running
    with zipfile.ZipFile(tmp_path / "autograder.zip") as zf:
        (wheel,) = [n for n in zf.namelist() if n.endswith(".whl")]
    assert wheel.endswith("-py3-none-any.whl")


def test_a_pure_wheel_is_built_aside(tmp_path: Path):
    wheel = build_pure_wheel(ROOT, tmp_path / "wheels")
    assert wheel.parent == tmp_path / "wheels" and wheel.name.endswith("-py3-none-any.whl")
    assert sorted(p.name for p in (tmp_path / "wheels").iterdir()) == [wheel.name]
