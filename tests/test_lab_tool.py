"""``make lab``'s command (``box_gin.tools.lab``): the whole kit, the landing page first,
the kit's own Jupyter settings added without touching the home folder."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from box_gin.tools.kit import KERNEL_STARTS, kit_files, retry_kernel_starts
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


@pytest.mark.skipif(os.name != "posix", reason="local sockets are POSIX's")
def test_kernels_use_local_sockets_only_where_their_paths_fit(tmp_path: Path):
    """A socket's path is at most 107 bytes: in a deep runtime folder (here 80 characters
    long) an ipc kernel could never start, so the kernels talk over TCP there."""
    short = {"JUPYTER_RUNTIME_DIR": "/tmp/rt", "HOME": str(tmp_path)}
    deep = {"JUPYTER_RUNTIME_DIR": "/tmp/" + "d" * 75, "HOME": str(tmp_path)}
    in_home = {"HOME": "/home/" + "h" * 60}  # the default folder, under a long home
    assert "--KernelManager.transport=ipc" in lab_command(ROOT, [], short)[0]
    assert "--KernelManager.transport=ipc" not in lab_command(ROOT, [], deep)[0]
    assert "--KernelManager.transport=ipc" not in lab_command(ROOT, [], in_home)[0]
    assert lab_command(ROOT, [], deep)[1]["JUPYTER_RUNTIME_DIR"] == deep["JUPYTER_RUNTIME_DIR"]


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
        for path in kit_files(ROOT, f"{folder}/0*.ipynb"):
            assert f"]({folder}/{path.name})" in text, path
    assert "](notebooks/play.ipynb)" in text


RECAP_LINK = re.compile(r"\]\(([^)#]+\.ipynb)\)")


def broken_links(paths: list[Path]) -> list[str]:
    """The relative notebook links of ``paths`` that lead to no file."""
    broken = []
    for path in paths:
        cells = json.loads(path.read_text("utf-8"))["cells"]
        for target in RECAP_LINK.findall("".join("".join(c["source"]) for c in cells)):
            if not (path.parent / target).resolve().is_file():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    return broken


def test_every_recap_link_points_at_a_file_of_the_kit():
    assert broken_links(kit_files(ROOT, "START.ipynb", "notebooks/**/*.ipynb")) == []


def test_checkpoints_and_scratch_notebooks_are_not_the_kits(tmp_path: Path):
    """After a `make lab` session: JupyterLab's checkpoint copies (one folder down, so
    their relative links break) and a learner's Untitled notebook are never read."""
    tag = f"box-gin-test-{os.getpid()}"
    checkpoints = ROOT / "notebooks" / ".ipynb_checkpoints"
    made_folder = not checkpoints.exists()
    checkpoint = checkpoints / f"01_{tag}-checkpoint.ipynb"
    scratch = ROOT / "notebooks" / f"Untitled-{tag}.ipynb"
    broken = {"cells": [{"cell_type": "markdown", "metadata": {},
                         "source": ["Back: [01](01_cards_and_dealing.ipynb)"]}],
              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    try:
        checkpoints.mkdir(exist_ok=True)
        for path in (checkpoint, scratch):
            path.write_text(json.dumps(broken), "utf-8")
        naive = sorted((ROOT / "notebooks").rglob("*.ipynb"))
        assert checkpoint in naive and broken_links([checkpoint])  # what a glob would read
        listed = kit_files(ROOT, "START.ipynb", "notebooks/**/*.ipynb", "notebooks/*.ipynb")
        assert checkpoint not in listed and scratch not in listed
        assert broken_links(listed) == []
        assert ROOT / "notebooks" / "01_cards_and_dealing.ipynb" in listed
    finally:
        checkpoint.unlink(missing_ok=True)
        scratch.unlink(missing_ok=True)
        if made_folder:
            shutil.rmtree(checkpoints, ignore_errors=True)


def test_outside_git_the_kit_is_what_is_not_hidden_cached_or_scratch(tmp_path: Path):
    for name in ("notebooks/01_a.ipynb", "notebooks/fr/01_a.ipynb",
                 "notebooks/.ipynb_checkpoints/01_a-checkpoint.ipynb",
                 "notebooks/__pycache__/x.ipynb", "notebooks/Untitled1.ipynb",
                 "notebooks/.hypothesis/x.ipynb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}")
    assert [p.relative_to(tmp_path).as_posix() for p in
            kit_files(tmp_path, "notebooks/**/*.ipynb")] == [
        "notebooks/01_a.ipynb", "notebooks/fr/01_a.ipynb"]


def test_a_folder_without_the_landing_page_is_refused(tmp_path: Path, capsys):
    with pytest.raises(FileNotFoundError):
        lab_command(tmp_path)
    assert main([str(tmp_path)]) == 2
    assert LANDING in capsys.readouterr().err


def test_a_kernel_that_dies_at_its_start_is_started_again_but_not_forever(
        monkeypatch: pytest.MonkeyPatch) -> None:
    nbval_kernel = pytest.importorskip("nbval.kernel")
    calls: list[str] = []

    def starts(failures: int, error: str) -> Callable[..., str]:
        """A kernel start that fails ``failures`` times with ``error``, then starts."""
        def start(*args: object, **kwargs: object) -> str:
            calls.append(error)
            if len(calls) <= failures:
                raise RuntimeError(error)
            return "started"
        return start

    died = "Kernel died before replying to kernel_info"
    for failures, error, expected, tries in (
            (2, died, "started", 3),                        # started again, twice
            (KERNEL_STARTS, died, died, KERNEL_STARTS),     # but not forever
            (1, "Kernel didn't respond in 60 seconds", "respond", 1)):  # only a death
        calls.clear()
        monkeypatch.setattr(nbval_kernel, "start_new_kernel", starts(failures, error))
        retry_kernel_starts()
        retry_kernel_starts()  # once is enough: not wrapped twice
        if expected == "started":
            assert nbval_kernel.start_new_kernel(kernel_name="python") == "started"
        else:
            with pytest.raises(RuntimeError, match=expected):
                nbval_kernel.start_new_kernel()
        assert len(calls) == tries, error
