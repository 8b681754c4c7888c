"""What a sandboxed child may use (:class:`Limits`), and the error of a sandbox that cannot
be had (:class:`SandboxError`): the words every room of the sandbox shares."""

from __future__ import annotations

from dataclasses import dataclass

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What a child may use."""

    # The cell, call and batch limits are CPU seconds, so that a busy machine changes no
    # verdict; each also has a wall-clock safety, ``katas.wire.wall_seconds`` of it, for
    # code that waits instead of computing.
    #: Seconds to run all the cells of a submission (the wall-clock safety of the load).
    load_seconds: float = 20.0
    #: CPU seconds for one cell (a cell that never finishes is skipped).
    cell_seconds: float = 10.0
    #: CPU seconds for one kata's batch of tests.
    kata_seconds: float = 20.0
    #: CPU seconds for one call of a learner's function.
    call_seconds: float = 2.0
    #: Wall-clock seconds for a whole submission: every child, restart and shrink.
    budget_seconds: float = 60.0
    #: CPU seconds for the whole child.
    cpu_seconds: int = 120
    #: Address space, bytes (the sandbox holds one process, so this bounds it all); also
    #: the memory cgroup's limit for the whole sandbox, kernel memory included.
    memory_bytes: int = 1024 * 1024 * 1024
    #: Largest file the child may write, bytes.
    file_bytes: int = 1024 * 1024
    #: The size of the sandbox's /tmp (bubblewrap), bytes.
    disk_bytes: int = 16 * 1024 * 1024
    #: How many files and folders the sandbox's /tmp may hold (bubblewrap).
    disk_inodes: int = 4096
    #: Open files at once: bounds sockets and pipes (and so the buffers the kernel holds
    #: for them) where no memory cgroup does.
    open_files: int = 32
    #: Processes and threads of the whole sandbox (pids cgroup), its bubblewrap included.
    sandbox_pids: int = 8


class SandboxError(RuntimeError):
    """No sandbox of the kind asked for can run here."""
