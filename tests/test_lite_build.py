"""The pieces of the JupyterLite build (box_gin/tools/lite.py) that need no network, and
box_gin.compat, which the notebooks use to run without matplotlib in the browser."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from box_gin import compat
from box_gin.i18n import set_language
from box_gin.tools import lite


def touch_notebooks(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"cells": [], "metadata": {"kernelspec": {
            "name": "python3", "display_name": "Python 3", "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}))


def test_pages_start_with_the_first_landing_notebook_found(tmp_path: Path) -> None:
    touch_notebooks(tmp_path, "notebooks/00_start_here.ipynb", "notebooks/01_a.ipynb",
                    "exercises/01_a.ipynb")
    pages = lite.select_pages(tmp_path, ["START.ipynb", "notebooks/00_*.ipynb"],
                              ["notebooks/*.ipynb", "exercises/*.ipynb"])
    assert [p.as_posix() for p in pages] == [
        "notebooks/00_start_here.ipynb", "notebooks/01_a.ipynb", "exercises/01_a.ipynb"]


def test_without_a_landing_notebook_the_pages_are_the_globs(tmp_path: Path) -> None:
    touch_notebooks(tmp_path, "notebooks/02_b.ipynb", "notebooks/01_a.ipynb")
    pages = lite.select_pages(tmp_path, ["START.ipynb"], ["notebooks/*.ipynb"])
    assert [p.as_posix() for p in pages] == ["notebooks/01_a.ipynb", "notebooks/02_b.ipynb"]


def test_staged_notebooks_use_the_pyodide_kernel(tmp_path: Path) -> None:
    touch_notebooks(tmp_path, "notebooks/01_a.ipynb")
    lite.stage_contents(tmp_path, [Path("notebooks/01_a.ipynb")], tmp_path / "out")
    staged = json.loads((tmp_path / "out" / "notebooks" / "01_a.ipynb").read_text())
    assert staged["metadata"]["kernelspec"] == lite.PYODIDE_KERNELSPEC


def test_closure_follows_depends_and_names_what_is_missing() -> None:
    packages: dict[str, dict[str, Any]] = {"a": {"depends": ["B_c"]}, "b-c": {"depends": []},
                "d": {"depends": ["nowhere"]}}
    assert lite.closure(["A"], packages) == ["a", "b-c"]
    with pytest.raises(lite.LiteBuildError, match="`nowhere`"):
        lite.closure(["d"], packages)


def test_markers_are_evaluated_for_the_browser() -> None:
    assert lite.marker_holds('sys_platform == "emscripten"')
    assert not lite.marker_holds('python_version < "3.11"')
    assert not lite.marker_holds('extra == "test"')


def make_wheel(path: Path, metadata: str, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as whl:
        whl.writestr("demo-1.0.dist-info/METADATA", metadata)
        for name, text in files.items():
            whl.writestr(name, text)
    return path


def test_lock_entry_reads_the_wheel(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "demo_pkg-1.0-py3-none-any.whl",
                       "Metadata-Version: 2.1\nName: Demo_Pkg\nVersion: 1.0\n"
                       "Requires-Dist: rich>=13\n"
                       "Requires-Dist: pytest; extra == \"test\"\n"
                       "Requires-Dist: tomli; python_version < \"3.11\"\n",
                       {"demo/__init__.py": "", "demo_single.py": ""})
    entry = lite.lock_entry(wheel)
    assert entry["name"] == "demo-pkg"
    assert entry["version"] == "1.0"
    assert entry["depends"] == ["rich"]
    assert entry["imports"] == ["demo", "demo_single"]
    assert entry["file_name"] == wheel.name and len(entry["sha256"]) == 64


def test_the_front_page_opens_the_landing_notebook(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<html><head><script>x()</script></head></html>")
    lite.write_landing_redirect(tmp_path, Path("notebooks/00_start_here.ipynb"))
    html = (tmp_path / "index.html").read_text()
    assert html.index("location.replace") < html.index("x()")
    assert '"./lab/index.html?path=notebooks/00_start_here.ipynb"' in html


def test_a_site_that_points_the_kernel_at_a_cdn_is_refused(tmp_path: Path) -> None:
    settings = {"pyodideUrl": "https://cdn.example/pyodide.mjs"}
    (tmp_path / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {
        "litePluginSettings": {lite.KERNEL_PLUGIN: settings}}}))
    with pytest.raises(lite.LiteBuildError, match="outside the site"):
        lite.check_offline(tmp_path)
    settings["pyodideUrl"] = "./static/pyodide/pyodide.mjs"
    (tmp_path / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": {
        "litePluginSettings": {lite.KERNEL_PLUGIN: settings}}}))
    lite.check_offline(tmp_path)


def test_have_matplotlib_sees_a_missing_matplotlib(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    assert compat.have_matplotlib()
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what `import` then refuses
    assert not compat.have_matplotlib()


def test_the_chart_message_is_translated() -> None:
    try:
        set_language("fr")
        assert compat.chart_needs_full_install().startswith("Ce graphique a besoin de")
    finally:
        set_language("en")
    assert "matplotlib" in compat.chart_needs_full_install()
    assert not compat.in_browser()


def test_the_browser_wheel_loses_its_catalog_sources_only(tmp_path: Path) -> None:
    files = {"box_gin/__init__.py": "", "box_gin/locale/fr/LC_MESSAGES/box_gin.po": "po",
             "box_gin/locale/fr/LC_MESSAGES/box_gin.mo": "mo",
             "box_gin/locale/box_gin.pot": "pot"}
    record = "".join(f"{name},sha256=x,1\n" for name in files) + "demo-1.0.dist-info/RECORD,,\n"
    wheel = make_wheel(tmp_path / "box_gin-0.1.0-py3-none-any.whl",
                       "Metadata-Version: 2.1\nName: box-gin\nVersion: 0.1.0\n",
                       {**files, "demo-1.0.dist-info/RECORD": record})
    lite.drop_catalog_sources(wheel)
    with zipfile.ZipFile(wheel) as whl:
        names = sorted(whl.namelist())
        kept_record = whl.read("demo-1.0.dist-info/RECORD").decode()
    assert names == ["box_gin/__init__.py", "box_gin/locale/fr/LC_MESSAGES/box_gin.mo",
                     "demo-1.0.dist-info/METADATA", "demo-1.0.dist-info/RECORD"]
    assert ".po," not in kept_record and ".pot," not in kept_record
    assert "box_gin/locale/fr/LC_MESSAGES/box_gin.mo,sha256=x,1" in kept_record
