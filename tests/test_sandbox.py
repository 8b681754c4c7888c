"""The sandbox itself: what a child can see and do in each isolation mode, and the
fallbacks when bubblewrap is missing."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from classroom import english
from runas import NOBODY, open_copy, open_temp_folder, runtime

from box_gin.checker.caps import Limits, SandboxError
from box_gin.checker.cgroups import CLOCK_TICKS, Cgroups, _descendants_by_parent, descendants
from box_gin.checker.sandbox import Sandbox, open_sandbox
from box_gin.checker.staging import (
    STAGED,
    bytecode_name,
    closed_folder,
    with_bytecode,
    write_stage,
)
from box_gin.checker.uids import lock_folder, processes_of, uid_base, uid_processes
from box_gin.cli import main
from box_gin.katas import KATAS

ROOT = Path(__file__).resolve().parent.parent
#: What a kata's child may load: the staged modules and each one's bytecode.
STAGED_FILES = sorted([f"box_gin/{name}" for name in STAGED] +
                      [f"box_gin/{bytecode_name(name)}" for name in STAGED])
#: Every kata's points: the solutions' score (the bot kata's two functions included).
TOTAL = sum(k.points for k in KATAS)


@pytest.fixture(autouse=True)
def own_uids(monkeypatch):
    """A uid range of this test's own: other graders run beside (on a shared machine, some
    of another version, whose claims this one cannot see)."""
    base = 3_300_000 + secrets.randbelow(500) * 1024
    monkeypatch.setenv("BOX_GIN_SANDBOX_UID", str(base))
    return base

PROBE = """
import json, os, socket, sys
seen = {"root": sorted(os.listdir("/")), "uid": os.getuid(),
        "ids": [os.getresuid(), os.getresgid(), os.getgroups()],
        "repo": os.path.exists(sys.argv[1]), "staged": []}
for top, dirs, files in os.walk(os.path.join(sys.argv[2], "box_gin")):
    seen["staged"] += [os.path.relpath(os.path.join(top, f), sys.argv[2]) for f in files]
try:
    with open(os.path.join(sys.argv[2], "box_gin", "cards.py"), "a") as f:
        f.write("#")
    seen["package_writable"] = True
except OSError:
    seen["package_writable"] = False
with open("/proc/net/dev") as f:
    seen["interfaces"] = sorted(line.split(":")[0].strip() for line in f if ":" in line)
pids = [p for p in os.listdir("/proc") if p.isdigit()]
seen["pids"] = len(pids)
# The staged modules load from the staged bytecode: none is compiled from source here.
compiled = []
sys.addaudithook(lambda event, args: compiled.append(str(args[1]))
                 if event == "compile" else None)
sys.path.insert(0, sys.argv[2])
import box_gin.cards, box_gin.katas.wire, box_gin.views.cards
seen["compiled"] = [name for name in compiled if "box_gin" in name]
seen["loaded"] = len(box_gin.cards.RANK_TEXT) == 13
print(json.dumps(seen))
"""


def _run_in(box: Sandbox, code: str, *args: str, limits: Limits | None = None,
            peak: list[int] | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run ``code`` in a child of ``box`` (set up as the checker's children are), its
    stdout captured; ``peak`` gets the most memory its cgroup held."""
    limits = limits or box.limits
    uid = box.take_uid()
    setup = ("import sys, json; sys.path.insert(0, sys.argv[1] + '/box_gin/checker'); "
             "import runtime; assert runtime.setup_sandbox(json.loads(sys.argv[2])); "
             "del sys.path[0]; sys.argv[1:3] = []; exec(compile(" + repr(code) +
             ", 'probe', 'exec'))")
    try:
        proc, folder = box.spawn(uid, ["-I", "-S", "-c", setup, "{box}",
                                       json.dumps(box.child_limits(limits)), *args],
                                 limits, (), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=60)
            if peak is not None:
                peak.append(box.peak_memory(proc) or 0)
        finally:
            box.release(proc)
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    finally:
        box.give_uid(uid)


def _probe(kind: str, uid_by: str = "setpriv") -> dict:
    box = open_sandbox(kind)
    if uid_by == "fork":  # the uid given by this process (user=), as without setpriv
        box.setpriv = None
    elif box.setpriv is None and os.geteuid() == 0:
        box.close()
        pytest.skip("no setpriv owned by root here: the uid is given by fork")
    try:
        box_path = "/box" if box.kind == "bubblewrap" else str(box.stage)
        done = _run_in(box, PROBE, str(ROOT), box_path)
        assert done.returncode == 0, done.stderr
        seen = json.loads(done.stdout)
        seen["sandbox_uids"] = sorted(box.uids.queue)
        return seen
    finally:
        box.close()


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
@pytest.mark.parametrize("uid_by", ["setpriv", "fork"])
def test_bubblewrap_child_sees_only_the_system_and_the_staged_modules(uid_by):
    seen = _probe("bubblewrap", uid_by)
    assert not seen["repo"]  # no course folder, no package, no gradebook
    assert set(seen["root"]) <= {"usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32",
                                 "box", "proc", "dev", "tmp", "root", "opt", "home", "work"}
    assert "etc" not in seen["root"] and "home" not in seen["root"]
    assert sorted(seen["staged"]) == STAGED_FILES
    assert seen["loaded"] and seen["compiled"] == []  # the staged bytecode was used
    assert not seen["package_writable"]
    assert seen["interfaces"] in ([], ["lo"])  # a network namespace of its own
    assert seen["pids"] <= 3  # its own pid namespace: init and itself
    if os.geteuid() == 0:
        assert seen["uid"] in seen["sandbox_uids"]
        _assert_dropped(seen)


def _assert_dropped(seen: dict) -> None:
    """Every id of the child is its sandbox uid (real, effective, saved: no way back to
    root), and it is in no group of the checker's."""
    uid = seen["uid"]
    assert seen["ids"] == [[uid] * 3, [uid] * 3, []]


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid fallback is for a root checker")
@pytest.mark.parametrize("uid_by", ["setpriv", "fork"])
def test_uid_fallback_runs_as_a_uid_of_its_own_that_cannot_write_the_package(uid_by):
    seen = _probe("uid", uid_by)
    assert seen["uid"] in seen["sandbox_uids"] and seen["uid"] >= uid_base()
    _assert_dropped(seen)
    assert seen["loaded"] and seen["compiled"] == []
    assert not seen["package_writable"]
    assert not uid_processes(seen["uid"])


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid fallback is for a root checker")
def test_uid_fallback_grades_the_solutions_and_says_so(tmp_path, capsys):
    out = tmp_path / "g.json"
    code = main(["check", str(english(ROOT / "solutions", tmp_path)), "--json", str(out),
                 "--isolation", "uid", "--no-cache"])
    assert code == 0
    book = json.loads(out.read_text())
    assert [s["score"] for s in book["students"]] == [TOTAL]
    err = capsys.readouterr().err
    assert "install bubblewrap" in err and "install bubblewrap" in book["isolation"]


def test_no_isolation_is_refused_as_root_and_said_when_not_root():
    if os.geteuid() == 0:
        with pytest.raises(SandboxError, match="never run as root"):
            open_sandbox("none")
    top = open_temp_folder("box-gin-none-")
    try:
        _grade_without_isolation(top)
    finally:
        shutil.rmtree(top, ignore_errors=True)


def _grade_without_isolation(top: Path) -> None:
    # As root, graded as another user: its interpreter and packages are copies it can read
    # (tests/runas.py), wherever this checkout lives.
    open_copy(english(ROOT / "solutions", top / "english"), top / "solutions")
    os.chmod(top, 0o777)
    python, packages = runtime() if os.geteuid() == 0 else (sys.executable, ROOT)
    command = [python, "-m", "box_gin.cli", "check", str(top / "solutions"),
               "--json", str(top / "g.json"), "--isolation", "none", "--no-cache"]
    if os.geteuid() == 0:
        command = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                   *command]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(packages), "HOME": str(top),
           "BOX_GIN_KEY_DIR": str(top / "key"), "TMPDIR": str(top)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300,
                          cwd=str(top))
    assert done.returncode == 0, done.stderr
    assert "install bubblewrap" in done.stderr
    book = json.loads((top / "g.json").read_text())
    assert [s["score"] for s in book["students"]] == [TOTAL]
    assert "install bubblewrap" in book["isolation"]


def test_an_unknown_isolation_is_a_clear_error():
    with pytest.raises(SandboxError, match="unknown isolation"):
        open_sandbox("chroot")


def test_the_grader_is_not_dumpable():
    code = ("import ctypes; from box_gin.checker.sandbox import harden_grader; "
            "harden_grader(); print(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
    assert done.stdout.strip() == "0"


def test_no_private_folder_is_left_when_an_interpreter_cannot_start(tmp_path):
    box = open_sandbox("uid" if os.geteuid() == 0 else "none")  # the modes with a folder
    stage, groups = box.stage, box.cgroups
    try:
        private = tmp_path / "tmp"
        private.mkdir()
        # Private folders go beside the stage: here, only this spawn's.  Without the
        # cgroup step (a shell that then execs), the interpreter's exec is Popen's own.
        box.stage, box.cgroups = private / "stage", None
        with pytest.raises(OSError):
            box.spawn(None, ["-c", "pass"], Limits(), (), "/nonexistent/python3")
        assert list(private.iterdir()) == []
    finally:
        box.stage, box.cgroups = stage, groups
        box.close()


_IMPORT_COUNTING_COMPILES = """
import json, sys
compiled = []
sys.addaudithook(lambda event, args: compiled.append(str(args[1]))
                 if event == "compile" else None)
sys.path.insert(0, sys.argv[1])
import pkg.mod
print(json.dumps({"x": pkg.mod.X, "compiled": [n for n in compiled if "mod" in n]}))
"""


def _import_staged(tmp_path: Path, source: bytes, compiled_from: bytes) -> dict:
    """Import ``pkg/mod.py`` holding ``source`` beside the staged bytecode of
    ``compiled_from``, read-only and with ``-B`` as a child does: its ``X``, and which
    files were compiled from source."""
    staged = with_bytecode({"mod.py": compiled_from})
    staged["mod.py"] = source
    write_stage(tmp_path, staged)
    (tmp_path / "pkg").symlink_to(tmp_path / "box_gin")
    done = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", _IMPORT_COUNTING_COMPILES,
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_staged_bytecode_is_used_for_its_own_source_only(tmp_path):
    """A child runs the checker's bytecode of a staged module instead of compiling it (a
    bot child's start was 40 ms shorter), and only when the staged source is the one it
    was compiled from: the bytecode says so (a checked hash) and is otherwise ignored."""
    same = _import_staged(tmp_path / "same", b"X = 1\n", b"X = 1\n")
    assert same == {"x": 1, "compiled": []}
    stale = _import_staged(tmp_path / "stale", b"X = 2\n", b"X = 1\n")
    assert stale["x"] == 2 and stale["compiled"]  # compiled from the source, as before


def test_the_staged_copy_is_read_only_and_holds_no_engine():
    box = open_sandbox("auto")
    try:
        files = sorted(str(p.relative_to(box.stage)) for p in box.stage.rglob("*")
                       if p.is_file())
        assert files == STAGED_FILES
        assert all(not (p.stat().st_mode & 0o222) for p in box.stage.rglob("*"))
        assert "melds.py" not in " ".join(files) and "specs.py" not in " ".join(files)
        stage = box.stage
    finally:
        box.close()
    assert not stage.exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="sandbox uids are a root checker's")
def test_two_runs_at_once_never_share_a_sandbox_uid():
    # A second class graded at the same time must not sweep the first run's children.
    first = open_sandbox("auto", jobs=2)
    try:
        second = open_sandbox("auto", jobs=2)
        try:
            mine, theirs = set(first.uids.queue), set(second.uids.queue)
            assert len(mine) == len(theirs) == 2 and not mine & theirs
        finally:
            second.close()
        third = open_sandbox("auto", jobs=2)  # the second's uids are free again
        try:
            assert set(third.uids.queue) == theirs
        finally:
            third.close()
    finally:
        first.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="sandbox uids are a root checker's")
def test_a_uid_left_running_is_never_claimed_and_one_sweep_clears_several():
    # A run that died leaves processes as two of its uids, and its locks gone.
    dead = open_sandbox("auto", jobs=3)
    uids = sorted(dead.uids.queue)
    left = [subprocess.Popen(["sleep", "600"], user=u, group=u, extra_groups=[])
            for u in uids[:2]]
    try:
        for fd in dead.locks:
            os.close(fd)
        dead.locks.clear()
        assert processes_of(uids) == {uids[0]: [left[0].pid], uids[1]: [left[1].pid]}
        assert uid_processes(uids[2]) == []
        after = open_sandbox("auto", jobs=3)  # takes free uids only
        try:
            assert not set(after.uids.queue) & set(uids[:2])
        finally:
            after.close()
        dead.sweep(*uids)
        assert [p.wait(timeout=60) for p in left] == [-9, -9]
        assert processes_of(uids) == {}
    finally:
        for p in left:
            p.kill()
        dead.close()


def test_a_childs_processes_are_found_as_the_kernel_lists_them_and_as_parents_say():
    # A tree of four: a shell, two children, one of them with a child of its own.
    tree = subprocess.Popen(["/bin/sh", "-c", "sleep 600 & (sleep 600 & wait) & wait"],
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_descendants_by_parent(tree.pid)) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        found = descendants(tree.pid)
        assert len(found) == 4 and found[0] == tree.pid
        assert found == _descendants_by_parent(tree.pid)
        assert descendants(2 ** 22 + 1) == [2 ** 22 + 1]  # no such process: itself only
    finally:
        os.killpg(tree.pid, signal.SIGKILL)
        tree.wait(timeout=60)


FOOTPRINT = r"""
import json, os, sys
seen = {"written": [], "tmp_files": 0, "tmp_bytes": 0}
for place in ("/x", "/dev/x", "/box/x", "/usr/x", "/proc/x"):
    try:
        open(place, "w").close()
        seen["written"].append(place)
    except OSError:
        pass
    try:
        os.mkdir(place + "d")
        seen["written"].append(place + "d")
    except OSError:
        pass
with open("/dev/null", "w") as f:  # the devices still work
    f.write("ok")
seen["urandom"] = len(open("/dev/urandom", "rb").read(8))
try:
    for i in range(100_000):
        open(f"/tmp/f{i}", "w").close()
        seen["tmp_files"] += 1
except OSError:
    pass
for i in range(seen["tmp_files"]):
    os.unlink(f"/tmp/f{i}")
try:
    with open("/tmp/big", "wb") as f:
        for i in range(64):
            f.write(b"x" * 512 * 1024)
            f.flush()
            seen["tmp_bytes"] += 512 * 1024
except OSError:
    pass
os.unlink("/tmp/big")
try:
    with open("/tmp/n", "wb") as f:  # many files of 512 KiB: the disk, not the file size
        pass
    for i in range(64):
        with open(f"/tmp/part{i}", "wb") as f:
            f.write(b"x" * 512 * 1024)
        seen["tmp_bytes_files"] = (i + 1) * 512 * 1024
except OSError:
    pass
seen["mountinfo"] = open("/proc/self/mountinfo").read()
seen["caps"] = {line.split(":")[0]: line.split()[1] for line in open("/proc/self/status")
                if line.startswith("Cap")}
print(json.dumps(seen))
"""


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_the_bubblewrap_footprint_is_capped_and_the_stage_path_hidden():
    box = open_sandbox("bubblewrap")
    try:
        assert box.inode_cap  # the child mounts its /tmp with nr_inodes here
        done = _run_in(box, FOOTPRINT)
        assert done.returncode == 0, done.stderr
        seen = json.loads(done.stdout)
        stage = str(box.stage)
    finally:
        box.close()
    assert seen["written"] == []  # root, /dev, /box, /usr, /proc: read-only
    assert seen["urandom"] == 8
    limits = Limits()
    assert 0 < seen["tmp_files"] < limits.disk_inodes  # inodes capped
    assert seen["tmp_bytes"] <= limits.file_bytes  # one file: RLIMIT_FSIZE
    assert seen.get("tmp_bytes_files", 0) <= limits.disk_bytes  # all files: the tmpfs size
    # Nothing names the host: no stage folder, no TMPDIR, no checkout.
    for host in (stage, os.path.basename(stage), tempfile.gettempdir() + "/", str(ROOT)):
        assert host not in seen["mountinfo"], host
    # The capability given for the mount of /tmp is gone from every set it acts through.
    assert all(int(seen["caps"][c], 16) == 0 for c in ("CapInh", "CapPrm", "CapEff", "CapAmb"))
    lines = [line.split() for line in seen["mountinfo"].splitlines()]
    by_point = {}
    for parts in lines:
        by_point[parts[4]] = parts[5]
    assert by_point["/"].startswith("ro") and by_point["/dev"].startswith("ro")
    assert by_point["/tmp"].startswith("rw")
    assert [p for p, opts in by_point.items() if opts.startswith("rw")
            and p not in ("/tmp", "/proc", "/dev/pts") and not p.startswith("/dev/")] == []


@pytest.mark.skipif(Cgroups.open() is None, reason="no writable memory and pids cgroup")
def test_a_memory_cgroup_bounds_what_the_sandbox_holds_in_the_kernel():
    # Socket buffers are not in the address space: only the cgroup bounds them.  With
    # many open files allowed, the child tries to hold 600 MiB in socketpairs.
    code = r"""
import socket, sys
held, keep = 0, []
while held < 600 << 20:
    a, b = socket.socketpair()
    keep += [a, b]
    for s in (a, b):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 30)
        s.setblocking(False)
        try:
            while True:
                held += s.send(b"x" * 65536)
        except OSError:
            pass
print(held)
"""
    limits = Limits(memory_bytes=256 << 20, open_files=4096)
    box = open_sandbox("auto", limits=limits)
    try:
        assert box.cgroups is not None
        assert "cgroup per child: memory 256 MiB" in box.describe()
        peak: list[int] = []
        done = _run_in(box, code, limits=limits, peak=peak)
    finally:
        box.close()
    assert done.returncode != 0 and not done.stdout.strip()  # killed before 600 MiB
    assert 0 < peak[0] <= 256 << 20


def test_the_output_says_which_limits_are_in_force_and_which_are_not():
    box = open_sandbox("auto")
    try:
        groups, cap = box.cgroups, box.inode_cap
        text = box.describe()
        assert "limits in force:" in text and "open files at most: 32" in text
        box.cgroups, box.inode_cap = None, False
        weaker = box.describe()
        box.cgroups, box.inode_cap = groups, cap
    finally:
        box.close()
    assert "not in force: " in weaker and "memory cgroup" in weaker
    if box.kind == "bubblewrap":
        assert "cap on the number of files in /tmp" in weaker
        assert ("files at most: 4096" in text) == cap


@pytest.mark.skipif(os.geteuid() != 0, reason="sandbox uids are a root checker's")
def test_uid_claims_are_machine_wide_whatever_tmpdir(monkeypatch, tmp_path):
    first_tmp, second_tmp = tmp_path / "a", tmp_path / "b"
    for folder in (first_tmp, second_tmp):
        folder.mkdir(mode=0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(first_tmp))
    first = open_sandbox("auto", jobs=2)
    try:
        monkeypatch.setattr(tempfile, "tempdir", str(second_tmp))
        second = open_sandbox("auto", jobs=2)
        try:
            assert first.lock_folder == second.lock_folder == lock_folder()
            assert str(lock_folder()).startswith(("/run/lock/", "/var/lock/"))
            assert not set(first.uids.queue) & set(second.uids.queue)
            # A private TMPDIR (mode 700): the stage goes where the children can enter.
            for box in (first, second):
                assert closed_folder(box.stage) is None
                assert not str(box.stage).startswith(str(tmp_path))
        finally:
            second.close()
    finally:
        first.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="sandbox uids are a root checker's")
def test_a_uid_is_never_taken_while_a_process_runs_as_it(own_uids):
    squatter = subprocess.Popen(["sleep", "60"], user=own_uids, group=own_uids,
                                extra_groups=[])
    try:
        box = open_sandbox("auto", jobs=1)
        try:
            assert own_uids not in set(box.uids.queue)
        finally:
            box.close()
        assert squatter.poll() is None  # and nothing of it was killed
    finally:
        squatter.kill()
        squatter.wait()


@pytest.mark.skipif(os.geteuid() != 0, reason="a root checker's staging")
def test_a_private_tmpdir_that_no_place_opens_is_said_precisely(monkeypatch, tmp_path):
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    monkeypatch.setattr(tempfile, "tempdir", str(closed))
    monkeypatch.setattr("box_gin.checker.staging.STAGE_PLACES", ())
    with pytest.raises(SandboxError, match=r"cannot enter .*chmod o\+x.*TMPDIR"):
        open_sandbox("uid")
    if shutil.which("bwrap") is not None:  # bubblewrap copies the stage in: it works
        box = open_sandbox("bubblewrap")
        box.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="a root checker's interpreter for its children")
def test_an_interpreter_the_sandbox_uid_cannot_reach_is_said_precisely(monkeypatch, tmp_path):
    closed = tmp_path / "closed"
    (closed / "bin").mkdir(parents=True)
    os.chmod(closed, 0o700)
    python = closed / "bin" / "python3"
    python.symlink_to(os.path.realpath(sys.executable))  # a venv in a private checkout
    monkeypatch.setattr("box_gin.checker.sandbox._pythons", lambda: [str(python)])
    with pytest.raises(SandboxError, match=r"cannot enter .*closed.*install Python where "
                                           r"every user may run it"):
        open_sandbox("auto")


# -- a bot's answers, read as untrusted data ---------------------------------------------

def test_a_line_of_answers_is_taken_only_as_the_next_one_expected() -> None:
    from box_gin.checker.protocol import ChildGone, answers

    def line(**change: object) -> dict[str, object]:
        return {"t": "a", "id": 4, "i": 2, "n": [{"a": "pass", "k": 1}], **change}

    assert answers(line(), 4, 2, 5) == [{"a": "pass", "k": 1}]
    assert len(answers(line(n=[{"a": "pass"}] * 3), 4, 2, 5)) == 3  # up to the end
    refused = [
        line(id=3),                      # another batch's
        line(i=1), line(i=3),            # out of order
        line(t="cell"),
        line(n=[]),                      # no answer
        line(n=[{"a": "pass"}] * 4),     # past the batch's end: answers never asked
        line(n=["pass"]),                # not a mapping
        line(n={"a": "pass"}),
    ]
    for message in refused:
        with pytest.raises(ChildGone, match="malformed"):
            answers(message, 4, 2, 5)
    with pytest.raises(ChildGone, match="malformed"):  # True == 1, but no place
        answers(line(i=True), 4, 1, 5)


#: A learner's loop that catches what the CPU timer raises and computes on.
STUBBORN = """
def spin():
    while True:
        try:
            while True:
                pass
        except BaseException:
            continue
"""


@pytest.mark.parametrize("where", ["cell", "call"])
def test_a_child_computing_past_its_cpu_limit_is_stopped_by_the_kernels_count(where):
    """A loop that swallows its timer's exception is stopped once the kernel counts about
    its CPU limit (protocol.CPU_FACTOR, CPU_SLACK), not at the wall clock's safety far
    above it (here four minutes): the child's CPU time when stopped is its limit's."""
    from box_gin.checker.protocol import CPU_FACTOR, CPU_SLACK, Child, ChildGone

    limits = Limits(load_seconds=60, cell_seconds=0.3, kata_seconds=0.3, call_seconds=0.1)
    cells = [("cell 1", STUBBORN + ("spin()\n" if where == "cell" else ""))]
    setup = {"cells": cells, "skip": [], "functions": ["spin"], "cell_seconds": 0.3,
             "hide": []}
    box = open_sandbox("auto", limits=limits)
    try:
        child = Child(box, setup, limits, budget=time.monotonic() + 600)
        try:
            with pytest.raises(ChildGone, match="timeout"):
                child.wait_ready()
                child.run(1, "spin", [], [[]])
            assert child.proc is not None
            used = box.cpu_seconds(child.proc)
            limit = limits.cell_seconds if where == "cell" else (
                limits.kata_seconds + limits.call_seconds)
            assert used is not None and used < limit * CPU_FACTOR + CPU_SLACK + 3, used
        finally:
            child.close()
    finally:
        box.close()


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="the kernel's count of waiting "
                    "is read for a bubblewrap sandbox")
def test_a_child_that_sleeps_instead_of_computing_is_stopped_by_the_kernels_count():
    """A cell that sleeps is stopped once the child has waited protocol.IDLE seconds (the
    kernel's count of its time neither on a CPU nor waiting for one), not at the wall
    clock's safety (here 6.2 s, when its own timer would stop it)."""
    from box_gin.checker.protocol import IDLE, Child, ChildGone

    limits = Limits(load_seconds=60, cell_seconds=0.3)
    setup = {"cells": [("cell 1", "import time\ntime.sleep(30)\n")], "skip": [],
             "functions": [], "cell_seconds": 0.3, "hide": []}
    box = open_sandbox("bubblewrap", limits=limits)
    try:
        child = Child(box, setup, limits, budget=time.monotonic() + 600)
        try:
            with pytest.raises(ChildGone, match="timeout"):
                child.wait_ready()
            assert child.proc is not None
            # Its seconds waited since it started, all from the kernel's clocks: its age
            # (the boot clock's now less its start) less its time on and queued for a CPU.
            pid = descendants(child.proc.pid)[-1]
            start = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])
            age = float(Path("/proc/uptime").read_text().split()[0]) - start / CLOCK_TICKS
            run, queued = (int(x) / 1e9 for x in
                           Path(f"/proc/{pid}/schedstat").read_text().split()[:2])
            assert age - run - queued < IDLE + 2, (age, run, queued)
        finally:
            child.close()
    finally:
        box.close()
