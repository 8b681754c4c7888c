"""The ``make play`` tool without a browser: seating by the cut, settings from the
environment, and the server it starts and stops (with its whole process group)."""

from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from box_gin import PRESETS, STANDARD, Match, Role
from box_gin.tools.play import Settings, main, seat_players

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seed", [1, 7, 12, 99])
@pytest.mark.parametrize("seat", ["box", "captain", "sitter"])
def test_seat_players_puts_you_where_the_cut_makes_that_role(seed: int, seat: str) -> None:
    players = seat_players("Dana", ("Ada", "Ben"), seat, STANDARD, seed)
    assert sorted(players) == ["Ada", "Ben", "Dana"]
    assert Match.new(players, STANDARD, seed).role_of("Dana") is Role(seat)


def test_seat_by_the_cut_keeps_the_order_and_bad_seats_are_refused() -> None:
    assert seat_players("Dana", ("Ada", "Ben"), "cut", STANDARD, 3) == ("Dana", "Ada", "Ben")
    with pytest.raises(ValueError, match="seat"):
        seat_players("Dana", ("Ada", "Ben"), "dealer", STANDARD, 3)


def test_settings_from_the_environment() -> None:
    s = Settings.from_env({"BOX_GIN_SEED": "42", "BOX_GIN_NAME": "Ada", "BOX_GIN_SEAT": "Box",
                           "BOX_GIN_BOTS": "random,greedy", "BOX_GIN_RULES": "oklahoma",
                           "BOX_GIN_TARGET": "50"})
    assert s == Settings(name="Ada", seat="box", bots=("random", "greedy"), seed=42,
                         rules="oklahoma", target=50)
    assert s.bot_names() == ("Ben", "Cy")
    assert s.rules_value() == PRESETS["oklahoma"].replace(target=50)
    fallback = Settings.from_env({"BOX_GIN_SEAT": "nowhere", "BOX_GIN_RULES": "chess",
                                  "BOX_GIN_BOTS": "clever"})
    assert (fallback.seat, fallback.rules, fallback.bots) == ("cut", "standard",
                                                              ("greedy", "greedy"))
    assert 1 <= fallback.seed < 10_000


def test_missing_notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--no-browser", "--notebook", str(tmp_path / "none.ipynb")]) == 2
    assert "none.ipynb" in capsys.readouterr().err


@pytest.mark.skipif(importlib.util.find_spec("voila") is None, reason="voila not installed")
def test_serves_the_app_and_stops_with_its_kernels_on_ctrl_c() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), CI="1", BOX_GIN_LANG="en")
    proc = subprocess.Popen([sys.executable, "-m", "box_gin.tools.play", "--seed", "5"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert proc.stdout is not None
        url = ""
        deadline = time.monotonic() + 300
        while not url and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("Play at "):
                url = line.split()[2]
        assert url.startswith("http://127.0.0.1:"), "the URL is printed"
        with urllib.request.urlopen(url + "voila/static/favicon.ico", timeout=120) as answer:
            assert answer.status == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(300) == 0
        with pytest.raises(OSError):
            urllib.request.urlopen(url + "voila/static/favicon.ico", timeout=2)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_the_server_speaks_the_language_it_is_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from box_gin.catalogs import read
    from box_gin.i18n import get_language, set_language

    before = get_language()
    try:
        assert main(["--lang", "fr", "--no-browser",
                     "--notebook", str(tmp_path / "none.ipynb")]) == 2
        message = read("fr").get("No app notebook at {path}: run this from a box-gin "
                                 "checkout.")
        assert message is not None and message.string
        french = str(message.string).split("{path}")[0]
        assert capsys.readouterr().err.startswith(french)
    finally:
        set_language(before)


def test_the_presets_have_names_in_every_language() -> None:
    from box_gin.i18n import LANGUAGES, get_language, set_language
    from box_gin.tools.play import preset_names

    before = get_language()
    try:
        for lang in LANGUAGES:
            set_language(lang)
            names = preset_names()
            assert set(names) == set(PRESETS)
            assert len(set(names.values())) == len(PRESETS)
            if lang == "he":
                assert all(any("\u0590" <= ch <= "\u05ff" for ch in n)
                           for n in names.values())
    finally:
        set_language(before)
