"""``make lab``'s command (``box_gin.tools.lab``): the whole kit, the landing page first,
the kit's own Jupyter settings added without touching the home folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from box_gin.tools.lab import CONFIG, LANDING, lab_command, main

ROOT = Path(__file__).resolve().parents[1]


def test_the_command_serves_the_kit_and_opens_the_landing_page():
    command, env = lab_command(ROOT, ["--port=9999"], {"JUPYTER_CONFIG_PATH": "/elsewhere"})
    assert command[1:4] == ["-m", "jupyter", "lab"]
    assert f"--ServerApp.root_dir={ROOT}" in command
    assert f"--LabApp.default_url=/lab/tree/{LANDING}" in command
    assert command[-1] == "--port=9999"
    assert ("--ServerApp.allow_root=True" in command) == (os.getuid() == 0)
    assert env["JUPYTER_CONFIG_PATH"].split(os.pathsep) == [str(ROOT / CONFIG), "/elsewhere"]
    assert not any("token" in part.lower() for part in command)


def test_the_kits_settings_silence_the_news_question_and_notebook_shim():
    overrides = json.loads((ROOT / CONFIG / "labconfig" /
                            "default_setting_overrides.json").read_text("utf-8"))
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"
    server = json.loads((ROOT / CONFIG / "jupyter_server_config.json").read_text("utf-8"))
    assert server["ServerApp"]["jpserver_extensions"] == {"notebook_shim": False}


def test_the_landing_page_links_every_notebook_and_its_katas():
    landing = json.loads((ROOT / LANDING).read_text("utf-8"))
    text = "".join("".join(c["source"]) for c in landing["cells"])
    for folder in ("notebooks", "exercises"):
        for path in sorted((ROOT / folder).glob("0*.ipynb")):
            assert f"]({folder}/{path.name})" in text, path
    assert "](notebooks/play.ipynb)" in text


def test_every_recap_link_points_at_a_file_of_the_kit():
    import re

    for path in [ROOT / "START.ipynb", *sorted((ROOT / "notebooks").rglob("*.ipynb"))]:
        cells = json.loads(path.read_text("utf-8"))["cells"]
        for target in re.findall(r"\]\(([^)#]+\.ipynb)\)",
                                 "".join("".join(c["source"]) for c in cells)):
            assert (path.parent / target).resolve().is_file(), f"{path.name}: {target}"


def test_a_folder_without_the_landing_page_is_refused(tmp_path: Path, capsys):
    with pytest.raises(FileNotFoundError):
        lab_command(tmp_path)
    assert main([str(tmp_path)]) == 2
    assert LANDING in capsys.readouterr().err
