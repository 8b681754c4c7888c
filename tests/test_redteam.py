"""The red team: every hostile submission of tests/submissions/attacks/ graded in one run
beside honest students and a victim, as root and as an unprivileged user.

Each run asserts: every attack scores 0, every honest student (and the victim) full
marks, no file outside the run's temporary folder changed (the course folder, the
package, the gradebook folder hold exactly what they should), no secret reached any
output, nothing was sent over the network, no process outlives the run, and the run
stays within its time bound."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from box_gin.checker.sandbox import UID_BASE, uid_processes
from box_gin.katas import BY_NAME, KATAS

ROOT = Path(__file__).resolve().parent.parent
ATTACKS = ROOT / "tests" / "submissions" / "attacks"
SOLUTIONS = ROOT / "solutions"
HONEST = ("honest_ada", "honest_ben", "victim")
JOBS = 2
#: The stated bound on one red-team run (seconds): budget 6 s per submission, -j 2.
BOUND = 150
NOBODY = 65534
#: What the notebook attacks try (their JSON is the attack: no room for a docstring).
NOTEBOOK_ATTACKS = {"invalid_json": "a notebook whose JSON is cut short, to crash the reader"}


def attack_files() -> list[Path]:
    return sorted(p for p in ATTACKS.iterdir() if p.suffix in (".py", ".ipynb"))


def test_there_are_at_least_forty_attacks_each_saying_what_it_tries():
    files = attack_files()
    assert len(files) >= 40
    for path in files:
        text = path.read_text()
        if path.suffix == ".py":  # a docstring first (read as text: some do not parse)
            assert text.startswith('"""') and text.index('"""', 3) > 10, path.name
        else:  # a notebook cannot hold a docstring when its JSON is the attack
            assert path.stem in NOTEBOOK_ATTACKS, path.name


def _tree_digest(folder: Path) -> dict[str, str]:
    out = {}
    for top, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            path = Path(top) / name
            rel = str(path.relative_to(folder))
            if path.is_symlink():
                out[rel] = "link:" + os.readlink(path)
            elif stat_is_fifo(path):
                out[rel] = "fifo"
            else:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(path.lstat().st_mode)


def _table() -> str:
    table = {}
    for name in ("is_set", "is_run", "card_value", "is_gin"):
        kata = BY_NAME[name]
        answers = {}
        for args in [*kata.public, *kata.hidden_cases()]:
            expected = kata.expected(args)
            if not hasattr(expected, "type_name"):
                answers[repr(args)] = expected
        table[name] = answers
    return repr(table)


def build_course(top: Path, gradebook: Path, port: int, secret: str) -> Path:
    """The course folder: nbgrader's layout with the reference in source/."""
    course = top / "course"
    source = course / "source" / "ps1"
    shutil.copytree(SOLUTIONS, source, ignore=shutil.ignore_patterns(".*"))
    (source / "SECRET.txt").write_text(secret + "-reference")
    submitted = course / "submitted"
    for student in HONEST:
        shutil.copytree(SOLUTIONS, submitted / student, ignore=shutil.ignore_patterns(".*"))
    (submitted / "victim" / "canary.txt").write_text(secret + "-victim")
    victim = submitted / "victim"
    table = _table()
    for path in attack_files():
        folder = submitted / path.stem
        folder.mkdir()
        text = path.read_text(encoding="utf-8")
        text = (text.replace("GRADEBOOK_PATH", str(gradebook))
                .replace("VICTIM_DIR", str(victim)).replace("LISTEN_PORT", str(port))
                .replace("TABLE = {}  # TABLE_HERE", f"TABLE = {table}"))
        target = folder / path.name
        if path.stem == "symlink_to_victim":
            (folder / "05_the_three_player_game.ipynb").symlink_to(
                victim / "05_the_three_player_game.ipynb")
            continue
        target.write_text(text, encoding="utf-8")
        if path.stem == "fifo_submission":
            os.mkfifo(folder / "01_cards_and_dealing.ipynb")
        if path.stem == "big_file":
            with target.open("a") as f:
                f.write("#" * (6 * 1024 * 1024) + "\n")
        if path.stem == "hang_in_many_files":
            for i in range(20):
                shutil.copy(target, folder / f"02_melds_{i:02d}.py")
    for top_dir, _dirs, files in os.walk(top):
        os.chmod(top_dir, 0o755)
        for name in files:
            p = Path(top_dir) / name
            if not p.is_symlink() and not stat_is_fifo(p):
                os.chmod(p, 0o644)
    return course


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _addr = self.sock.accept()
                self.connections += 1
                conn.close()
            except OSError:
                continue

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


def _processes_of(uids: set[int]) -> list[int]:
    return sorted(p for uid in uids for p in uid_processes(uid))


def red_team_run(unprivileged: bool) -> None:
    top = Path(tempfile.mkdtemp(prefix="box-gin-redteam-"))
    os.chmod(top, 0o755)
    listener = Listener()
    secret = "canary-" + os.urandom(8).hex()
    try:
        out = top / "out"
        out.mkdir()
        gradebook = out / "grades.csv"
        course = build_course(top, gradebook, listener.port, secret)
        package = top / "pkg"
        shutil.copytree(ROOT / "box_gin", package / "box_gin",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        for top_dir, _dirs, files in os.walk(package):
            os.chmod(top_dir, 0o755)
            for name in files:
                os.chmod(Path(top_dir) / name, 0o644)
        home = top / "home"
        home.mkdir()
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(package), "HOME": str(home),
               "BOX_GIN_KEY_DIR": str(home / "key"), "BOX_GIN_CANARY": secret,
               "LANG": "C.UTF-8", "COLUMNS": "200",
               "BOX_GIN_SANDBOX_UID": str(UID_BASE)}  # the uids watched below
        command = [sys.executable, "-m", "box_gin.cli", "check", str(course), "--csv",
                   str(gradebook), "--json", str(out / "grades.json"), "-j", str(JOBS),
                   "--budget", "6", "--timeout", "3", "-v"]
        if unprivileged:
            for p in (out, home):
                os.chown(p, NOBODY, NOBODY)
            command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
                       "--clear-groups", *command]
            watched = {NOBODY}
        else:
            watched = {UID_BASE + i for i in range(JOBS)}
        assert not _processes_of(watched), "processes of the sandbox uids before the run"
        before = {"course": _tree_digest(course), "package": _tree_digest(package),
                  "repo": _tree_digest(ROOT / "box_gin")}
        start = time.monotonic()
        done = subprocess.run(command, env=env, capture_output=True, timeout=BOUND + 60,
                              cwd=str(top))
        elapsed = time.monotonic() - start
        time.sleep(0.5)
        stdout = done.stdout.decode("utf-8", "replace")
        stderr = done.stderr.decode("utf-8", "replace")
        assert done.returncode == 0, stdout[-3000:] + stderr[-3000:]
        assert "bubblewrap" in stderr, stderr  # the isolation in force is said

        data = json.loads((out / "grades.json").read_text())
        scores = {s["student"]: s["score"] for s in data["students"]}
        total = sum(k.points for k in KATAS)
        expected = {p.stem: 0 for p in attack_files()} | {s: total for s in HONEST}
        assert scores == expected
        assert isinstance(data["seed"], int) and "bubblewrap" in data["isolation"]

        # Nothing outside the run's folder changed; the gradebook folder holds only ours.
        assert _tree_digest(course) == before["course"]
        assert _tree_digest(package) == before["package"]
        assert _tree_digest(ROOT / "box_gin") == before["repo"]
        assert sorted(os.listdir(out)) == ["grades.csv", "grades.csv.box-gin-cache",
                                           "grades.json"]
        assert not Path("/tmp/box-gin-owned").exists()
        assert not Path("/tmp/box-gin-litter.txt").exists()
        assert not list(Path(tempfile.gettempdir()).glob("box-gin-sandbox-*")) or all(
            p.stat().st_mtime < start for p in Path(tempfile.gettempdir()).glob(
                "box-gin-sandbox-*"))

        # No secret in any output; every feedback capped; the gradebook stays small.
        outputs = stdout + stderr + "".join(p.read_text(errors="replace")
                                            for p in out.iterdir())
        assert secret not in outputs
        assert (out / "grades.json").stat().st_size < 2_000_000
        for student in data["students"]:
            for entry in student["katas"].values():
                assert len(entry["feedback"]) <= 4001
        assert listener.connections == 0

        # No process outlives the run; within the stated bound.
        assert not _processes_of(watched)
        assert elapsed < BOUND, elapsed
    finally:
        listener.close()
        shutil.rmtree(top, ignore_errors=True)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
@pytest.mark.skipif(os.geteuid() != 0, reason="the grader as root: run as root (CI does)")
def test_red_team_as_root():
    red_team_run(unprivileged=False)


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to switch to an unprivileged user")
def test_red_team_as_an_unprivileged_user():
    red_team_run(unprivileged=True)
