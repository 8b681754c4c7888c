"""The red team: every hostile submission of tests/submissions/attacks/ graded in one run
beside honest students and a victim, as root and as an unprivileged user.

Each run asserts: every attack scores 0, every honest student (and the victim) full
marks, no file outside the run's temporary folder changed (the course folder, the
package, the gradebook folder hold exactly what they should), no secret reached any
output, nothing was sent over the network, no process outlives the run, and the run
stays within its time bound."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from runas import NOBODY, open_temp_folder, runtime

from box_gin.checker.caps import Limits
from box_gin.checker.cgroups import Cgroups
from box_gin.checker.uids import uid_processes
from box_gin.katas import BY_NAME, KATAS

ROOT = Path(__file__).resolve().parent.parent
ATTACKS = ROOT / "tests" / "submissions" / "attacks"
SOLUTIONS = ROOT / "solutions"
HONEST = ("honest_ada", "honest_ben", "honest_cy", "victim")
JOBS = 2
#: The budget of one submission in the red team (seconds): an honest student needs about
#: 2 s on a quiet machine; 15 s keeps its marks on a shared, loaded one (load 15 on 2
#: cores was seen), while a hanging attack costs no more than that.
BUDGET = 15
#: The stated bound on one red-team run (seconds): BUDGET per submission, -j 2.
BOUND = 300
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


class Fence:
    """A cgroup of the test's own around the grader it starts (where the machine gives
    one): everything the run starts is in it, so "no process outlives the run" is read
    there, whatever other graders of the same uids run beside."""

    def __init__(self, uid: int | None) -> None:
        self.groups = Cgroups.open()
        self.folders = self.groups.make(uid, Limits(memory_bytes=8 << 30, sandbox_pids=4096)
                                        ) if self.groups is not None else []

    def wrap(self, command: list[str]) -> list[str]:
        if not self.folders:
            return command
        join = 'while [ "$1" != -- ]; do echo $$ >"$1" || exit 125; shift; done; shift; ' \
               'exec "$@"'
        return ["/bin/sh", "-c", join, "sh", *[str(f / "cgroup.procs") for f in self.folders],
                "--", *command]

    def processes(self) -> list[int]:
        """Every process in the fence, in its own cgroup or below it (the grader makes
        its children's cgroups inside its own, so under the fence)."""
        found: set[int] = set()
        for folder in self.folders:
            for procs in folder.rglob("cgroup.procs"):
                with contextlib.suppress(FileNotFoundError):  # a cgroup removed meanwhile
                    found.update(int(p) for p in procs.read_text().split())
        return sorted(found)

    def close(self) -> None:
        if self.groups is not None:
            Cgroups.remove(self.folders)
            self.groups.close()


def grader_command(top: Path, course: Path, out: Path, *, unprivileged: bool, jobs: int = JOBS,
                   budget: int = BUDGET) -> tuple[list[str], dict[str, str], Path]:
    """The command that grades ``course`` into ``out`` (and its environment); and the
    folder holding the ``box_gin`` it runs."""
    home = top / "home"
    home.mkdir(exist_ok=True)
    private = top / "tmp"  # the run's own TMPDIR, where its stage goes
    private.mkdir(exist_ok=True)
    os.chmod(private, 0o755)
    if unprivileged:
        # Another user: an interpreter and packages it can read, wherever the checkout is.
        python, packages = runtime()
    else:
        python, packages = sys.executable, top / "pkg"
        shutil.copytree(ROOT / "box_gin", packages / "box_gin",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(packages), "HOME": str(home),
           "BOX_GIN_KEY_DIR": str(home / "key"), "LANG": "C.UTF-8", "COLUMNS": "200",
           "TMPDIR": str(private),
           # a uid range of this run's own (graders of another version may run beside)
           "BOX_GIN_SANDBOX_UID": str(3_300_000 + secrets.randbelow(500) * 1024)}
    command = [python, "-m", "box_gin.cli", "check", str(course), "--csv",
               str(out / "grades.csv"), "--json", str(out / "grades.json"), "-j", str(jobs),
               "--budget", str(budget), "--timeout", "3", "-v"]
    if unprivileged:
        for p in (out, home, private):
            os.chown(p, NOBODY, NOBODY)
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}",
                   "--clear-groups", *command]
    return command, env, packages / "box_gin"


def honest_troubles(data: dict) -> str:
    """What went wrong for the honest students (for a failing assertion's message)."""
    lines = []
    for student in data["students"]:
        if student["student"] in HONEST:
            lines += [f"{student['student']}: {p}" for p in student["problems"]]
            lines += [f"{student['student']} {name}: {entry['feedback'][:300]}"
                      for name, entry in student["katas"].items() if not entry["passed"]]
    return "\n".join(lines)


def red_team_run(unprivileged: bool) -> None:
    top = open_temp_folder("box-gin-redteam-")
    listener = Listener()
    secret = "canary-" + os.urandom(8).hex()
    fence = Fence(NOBODY if unprivileged else None)
    try:
        out = top / "out"
        out.mkdir()
        gradebook = out / "grades.csv"
        course = build_course(top, gradebook, listener.port, secret)
        command, env, package = grader_command(top, course, out, unprivileged=unprivileged)
        env["BOX_GIN_CANARY"] = secret
        base = int(env["BOX_GIN_SANDBOX_UID"])
        watched = {base + i for i in range(64)} if not unprivileged else set()
        if unprivileged and not fence.folders:
            watched = {NOBODY}
        assert not _processes_of(watched), "processes of the sandbox uids before the run"
        before = {"course": _tree_digest(course), "package": _tree_digest(package),
                  "repo": _tree_digest(ROOT / "box_gin")}
        start = time.monotonic()
        done = subprocess.run(fence.wrap(command), env=env, capture_output=True,
                              timeout=BOUND + 60, cwd=str(top))
        elapsed = time.monotonic() - start
        time.sleep(0.5)
        stdout = done.stdout.decode("utf-8", "replace")
        stderr = done.stderr.decode("utf-8", "replace")
        assert done.returncode == 0, stdout[-3000:] + stderr[-3000:]
        assert "bubblewrap" in stderr, stderr  # the isolation in force is said
        assert "limits in force: read-only root and /dev" in stderr, stderr

        data = json.loads((out / "grades.json").read_text())
        scores = {s["student"]: s["score"] for s in data["students"]}
        total = sum(k.points for k in KATAS)
        expected = {p.stem: 0 for p in attack_files()} | {s: total for s in HONEST}
        assert scores == expected, honest_troubles(data)
        assert isinstance(data["seed"], int) and "bubblewrap" in data["isolation"]

        # Nothing outside the run's folder changed; the gradebook folder holds only ours.
        assert _tree_digest(course) == before["course"]
        assert _tree_digest(package) == before["package"]
        assert _tree_digest(ROOT / "box_gin") == before["repo"]
        assert sorted(os.listdir(out)) == ["grades.csv", "grades.csv.box-gin-cache",
                                           "grades.json"]
        assert not Path("/tmp/box-gin-owned").exists()
        assert not Path("/tmp/box-gin-litter.txt").exists()
        for planted in ("/box-gin-sbx-root", "/dev/box-gin-sbx-dev", "/tmp/box-gin-sbx-tmp"):
            assert not os.path.lexists(planted), planted
        assert sorted(os.listdir(top / "tmp")) == []  # the run's TMPDIR: its stage is gone

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
        assert not fence.processes()
        assert not _processes_of(watched)
        assert elapsed < BOUND, elapsed
    finally:
        fence.close()
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


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
@pytest.mark.skipif(os.geteuid() != 0, reason="two root graders side by side")
def test_two_root_graders_at_once_with_private_tmpdirs_keep_every_honest_mark():
    """Two courses graded at the same time on one machine, each with its own private
    TMPDIR (mode 700, as ``mktemp -d`` makes it), from the same uid range, over the same
    small class holding attacks that kill everything they see and grab the uid locks:
    every honest student keeps full marks in both, and neither run leaves a process."""
    top = open_temp_folder("box-gin-two-graders-")
    fences: list[Fence] = []
    try:
        course = top / "course"
        for student in ("honest_ada", "honest_ben", "honest_cy"):
            (course / student).mkdir(parents=True)
            for notebook in SOLUTIONS.glob("*.ipynb"):
                shutil.copy(notebook, course / student / notebook.name)
        for attack in ("kill_siblings", "sbx_second_grader", "sbx_socket_memory"):
            (course / attack).mkdir()
            shutil.copy(ATTACKS / f"{attack}.py", course / attack / f"{attack}.py")
        base = str(3_300_000 + secrets.randbelow(500) * 1024)
        runs = []
        for name in ("one", "two"):
            folder = top / name
            folder.mkdir()
            out = folder / "out"
            out.mkdir()
            # The whole default budget: two graders share a busy machine; no attack here
            # hangs, so it costs no time.
            command, env, _package = grader_command(folder, course, out, unprivileged=False,
                                                    budget=60)
            private = Path(tempfile.mkdtemp(prefix="box-gin-private-"))  # mode 700
            env.update(TMPDIR=str(private), BOX_GIN_SANDBOX_UID=base)
            fence = Fence(None)
            fences.append(fence)
            runs.append((out, private, fence, subprocess.Popen(
                fence.wrap(command), env=env, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, cwd=str(folder))))
        total = sum(k.points for k in KATAS)
        for out, private, fence, proc in runs:
            stdout, stderr = proc.communicate(timeout=BOUND + 60)
            text = stderr.decode("utf-8", "replace")
            assert proc.returncode == 0, stdout.decode()[-2000:] + text[-2000:]
            data = json.loads((out / "grades.json").read_text())
            scores = {s["student"]: s["score"] for s in data["students"]}
            assert scores == {"honest_ada": total, "honest_ben": total, "honest_cy": total,
                              "kill_siblings": 0, "sbx_second_grader": 0,
                              "sbx_socket_memory": 0}, honest_troubles(data)
            assert "bubblewrap" in data["isolation"]
            assert sorted(os.listdir(private)) == []  # nothing left in its TMPDIR
            private.rmdir()
            assert not fence.processes()
    finally:
        for fence in fences:
            fence.close()
        shutil.rmtree(top, ignore_errors=True)
