"""A child's share of the machine as the kernel keeps it: a memory and pids cgroup of its
own (:class:`Cgroups`, where the machine gives writable ones), and the CPU time of the
child and everything below it (:class:`CpuClock`), read from ``/proc`` from outside."""

from __future__ import annotations

import os
import secrets
import signal
import threading
import time
from contextlib import suppress
from pathlib import Path

from .caps import Limits


def write_text(path: Path, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


class Cgroups:
    """A memory and pids cgroup per child, under this process's own cgroups, where the
    machine gives writable ones: cgroup v1 ``memory`` and ``pids`` hierarchies (root), or
    a cgroup v2 tree delegated with both controllers."""

    def __init__(self, folders: dict[str, Path], version: int) -> None:
        #: controller -> this run's folder in it (v2: the same folder for both).
        self.folders = folders
        self.version = version
        self._count = 0
        self._lock = threading.Lock()

    @classmethod
    def open(cls) -> Cgroups | None:
        """This run's cgroups, or None where none is writable."""
        try:
            own: dict[str, str] = {}
            with open("/proc/self/cgroup") as f:
                for line in f:
                    _num, names, path = line.rstrip("\n").split(":", 2)
                    for name in names.split(",") if names else [""]:
                        own[name] = path
            v1: dict[str, str] = {}
            v2 = None
            with open("/proc/self/mountinfo") as f:
                for line in f:
                    left, _sep, right = line.partition(" - ")
                    fstype, _source, options = [*right.split(), "", "", ""][:3]
                    point = left.split()[4]
                    if fstype == "cgroup":
                        for name in options.split(","):
                            v1.setdefault(name, point)
                    elif fstype == "cgroup2" and v2 is None:
                        v2 = point
        except (OSError, ValueError, IndexError):
            return None
        token = f"box-gin-{os.getpid()}-{secrets.token_hex(4)}"
        if all(c in v1 and c in own and ".." not in own[c] for c in ("memory", "pids")):
            folders = {c: Path(v1[c]) / own[c].lstrip("/") for c in ("memory", "pids")}
            if all(os.access(folder, os.W_OK) for folder in folders.values()):
                made: dict[str, Path] = {}
                try:
                    for c, folder in folders.items():
                        made[c] = folder / token
                        made[c].mkdir(mode=0o755)
                    return cls(made, 1)
                except OSError:
                    cls(made, 1).close()
        if v2 is not None and "" in own and ".." not in own[""]:
            tree = Path(v2) / own[""].lstrip("/")
            try:
                enabled = (tree / "cgroup.subtree_control").read_text().split()
                if {"memory", "pids"} <= set(enabled) and os.access(tree, os.W_OK):
                    (tree / token).mkdir(mode=0o755)
                    try:
                        write_text(tree / token / "cgroup.subtree_control", "+memory +pids")
                    except OSError:
                        (tree / token).rmdir()
                        return None
                    return cls({"memory": tree / token, "pids": tree / token}, 2)
            except OSError:
                return None
        return None

    def make(self, uid: int | None, limits: Limits) -> list[Path]:
        """A cgroup of its own for one child: its folders (one per hierarchy)."""
        with self._lock:
            self._count += 1
            name = f"child-{self._count}"
        made: list[Path] = []
        try:
            for folder in dict.fromkeys(self.folders.values()):
                (folder / name).mkdir(mode=0o755)
                made.append(folder / name)
            if self.version == 1:
                memory, pids = self.folders["memory"] / name, self.folders["pids"] / name
                write_text(memory / "memory.limit_in_bytes", str(limits.memory_bytes))
                with suppress(OSError):  # only where swap is accounted
                    write_text(memory / "memory.memsw.limit_in_bytes", str(limits.memory_bytes))
                write_text(pids / "pids.max", str(limits.sandbox_pids))
            else:
                write_text(made[0] / "memory.max", str(limits.memory_bytes))
                with suppress(OSError):
                    write_text(made[0] / "memory.swap.max", "0")
                write_text(made[0] / "pids.max", str(limits.sandbox_pids))
            if uid is not None:  # the child's first process joins it as that uid
                for folder in made:
                    os.chown(folder / "cgroup.procs", uid, uid)
        except OSError:
            self.remove(made)
            raise
        return made

    @staticmethod
    def kill(folders: list[Path]) -> None:
        """Kill every process in a child's cgroups (only this run's children are there)."""
        for folder in folders:
            with suppress(OSError, ValueError):
                for pid in (folder / "cgroup.procs").read_text().split():
                    with suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)

    @classmethod
    def remove(cls, folders: list[Path]) -> bool:
        """Remove a child's cgroups once empty (killing what is left); True when gone."""
        for attempt in range(40):
            cls.kill(folders)
            for folder in list(folders):
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    continue
                folders.remove(folder)
            if not folders:
                return True
            time.sleep(0.005 * (attempt + 1))
        return False

    @staticmethod
    def peak(folders: list[Path]) -> int | None:
        """The most memory a child's cgroup held (bytes), where the kernel says."""
        for folder in folders:
            for name in ("memory.max_usage_in_bytes", "memory.peak"):
                with suppress(OSError, ValueError):
                    return int((folder / name).read_text())
        return None

    def close(self) -> None:
        left = [f / c.name for f in dict.fromkeys(self.folders.values()) if f.is_dir()
                for c in f.iterdir() if c.is_dir()]
        self.remove(left)
        self.remove(list(dict.fromkeys(self.folders.values())))


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def stat_fields(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command's name (state first)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read(4096)
    except OSError:
        return None
    return data[data.rfind(b")") + 2:].decode("ascii", "replace").split()


def cpu_ticks(pid: int) -> int | None:
    """The user and system CPU time of a live process (all its threads), clock ticks."""
    fields = stat_fields(pid)
    if fields is None or len(fields) < 13 or fields[0] in ("Z", "X"):
        return None
    try:
        return int(fields[11]) + int(fields[12])
    except ValueError:
        return None


class CpuClock:
    """The CPU time of a child and every process below it: with ``single`` (no process
    or thread can be added), the last one's ``/proc/PID/schedstat``, kept open; else the
    user and system time of each from ``/proc/PID/stat``."""

    def __init__(self, pid: int, single: bool) -> None:
        self.pids = descendants(pid)
        self.fd: int | None = None
        if single:
            with suppress(OSError):
                self.fd = os.open(f"/proc/{self.pids[-1]}/schedstat",
                                  os.O_RDONLY | os.O_CLOEXEC)

    def read(self) -> float | None:
        if self.fd is not None:
            sched = self.sched()
            return None if sched is None else sched[0]
        ticks = [cpu_ticks(pid) for pid in self.pids]
        known = [t for t in ticks if t is not None]
        return sum(known) / CLOCK_TICKS if known else None

    def sched(self) -> tuple[float, float] | None:
        """(seconds on a CPU, seconds runnable but waiting for a CPU) of the single
        process, from its ``schedstat``; None where it is not watched so."""
        if self.fd is None:
            return None
        try:
            fields = os.pread(self.fd, 64, 0).split()
            return int(fields[0]) / 1e9, int(fields[1]) / 1e9
        except (OSError, ValueError, IndexError):
            return None

    def close(self) -> None:
        if self.fd is not None:
            with suppress(OSError):
                os.close(self.fd)
            self.fd = None


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (bubblewrap's, then the child): each one's
    children as the kernel lists them (``/proc/PID/task/TID/children``), else, where it
    does not (a kernel without them, a process gone meanwhile), as a look at every
    process of ``/proc`` finds them."""
    out, todo = [], [pid]
    try:
        while todo:
            current = todo.pop()
            out.append(current)
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", "rb") as f:
                    todo += map(int, f.read().split())
    except (OSError, ValueError):
        return _descendants_by_parent(pid)
    return out


def _descendants_by_parent(pid: int) -> list[int]:
    """:func:`descendants`, from every process's parent in ``/proc/PID/stat``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat_fields(int(entry))
            if fields is not None and len(fields) > 1 and fields[1].isdigit():
                children.setdefault(int(fields[1]), []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        out.append(current)
        todo += children.get(current, [])
    return out
