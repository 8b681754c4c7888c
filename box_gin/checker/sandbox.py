"""Start, talk to and kill the child process that runs a submission's code.

The trust model, from the checker's side:

- Student code runs only in a child: a fresh interpreter (``python -I -S``: no site
  packages, no environment, no current folder on ``sys.path``), in an empty temporary
  folder, in a new session (its own process group), with limits on CPU time, address
  space, file size and (when not root, where the kernel ignores it) processes.
- The child gets inputs and returns outputs as plain data.  Expected answers are
  computed here; the child never sees one.
- The child answers on a dedicated pipe, each line led by a random nonce; stdout and
  stderr go nowhere we read, so printing "passed" does nothing.
- Every wait has a wall-clock deadline.  On a deadline, a crash or a garbled answer,
  the whole process group is killed and the request counts as failed.

One child serves one submission file and runs all its katas in turn, each with its own
wall-clock budget: much faster than a process per kata.  The trade-off is that katas
share a process, so one kata's code could disturb another's (the learner's own code
either way).  What cannot happen is one kata's crash or hang making another kata pass:
results are judged here, per request, and when a child dies or hangs the checker kills
it and starts a fresh one for the katas still to grade.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHILD_SCRIPT = Path(__file__).with_name("child.py")
PACKAGE_DIR = Path(__file__).resolve().parent.parent
#: The most a child may send in one line (bytes); more is an attack or a bug.
MAX_LINE = 32 * 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What a child may use."""

    #: Wall-clock seconds to run all the cells of a submission.
    load_seconds: float = 20.0
    #: Wall-clock seconds for one cell (a cell that never finishes is skipped).
    cell_seconds: float = 10.0
    #: Wall-clock seconds for one kata's batch of tests.
    kata_seconds: float = 20.0
    #: Seconds for one call of a learner's function.
    call_seconds: float = 2.0
    #: CPU seconds for the whole child.
    cpu_seconds: int = 120
    #: Address space, bytes.
    memory_bytes: int = 1024 * 1024 * 1024
    #: Largest file the child may write, bytes.
    file_bytes: int = 1024 * 1024
    #: Processes the child's user may run (ignored for root by the kernel).
    processes: int = 64


class ChildGone(Exception):
    """The child died, hung, or broke the protocol."""


class Child:
    """One running child for one submission file."""

    def __init__(self, cells: list[tuple[str, str]], functions: list[str], skip: set[int],
                 limits: Limits) -> None:
        self.limits = limits
        self.nonce = secrets.token_hex(16)
        self.folder = tempfile.mkdtemp(prefix="box-gin-child-")
        read_end, write_end = os.pipe()
        self._read = read_end
        self._buffer = b""
        # The child sets these on itself before it reads anything (no preexec_fn: the
        # checker runs children from several threads).
        rlimits = {"cpu": limits.cpu_seconds, "memory": limits.memory_bytes,
                   "file": limits.file_bytes, "processes": limits.processes}
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
               "HOME": self.folder, "TMPDIR": self.folder}
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-B", str(CHILD_SCRIPT), json.dumps(rlimits)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=self.folder, env=env, pass_fds=(write_end,), start_new_session=True,
            close_fds=True,
        )
        os.close(write_end)
        setup = {"nonce": self.nonce, "fd": write_end, "package": str(PACKAGE_DIR),
                 "cells": cells, "skip": sorted(skip), "functions": functions,
                 "cell_seconds": limits.cell_seconds}
        self._send(setup)
        self.current_cell: int | None = None

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise ChildGone("the child stopped reading") from exc

    def receive(self, deadline: float) -> dict[str, Any]:
        """The next message from the child, by ``deadline`` (a ``time.monotonic``)."""
        prefix = self.nonce.encode() + b" "
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                if line.startswith(prefix):
                    try:
                        message = json.loads(line[len(prefix):])
                    except ValueError as exc:
                        raise ChildGone("a garbled message") from exc
                    if isinstance(message, dict):
                        return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChildGone("timeout")
            ready, _w, _x = select.select([self._read], [], [], left)
            if not ready:
                raise ChildGone("timeout")
            chunk = os.read(self._read, 1 << 16)
            if not chunk:
                raise ChildGone("the child exited")
            self._buffer += chunk
            if len(self._buffer) > MAX_LINE:
                raise ChildGone("the child sent too much")

    def wait_ready(self) -> dict[str, Any]:
        """Follow the child through the cells until it is ready for requests."""
        deadline = time.monotonic() + self.limits.load_seconds
        while True:
            message = self.receive(deadline)
            if message.get("t") == "cell":
                self.current_cell = int(message["i"])
            elif message.get("t") == "ready":
                self.current_cell = None
                return message

    def run(self, request_id: int, function: str, hide: list[tuple[str, str]],
            cases: list[Any]) -> dict[str, Any]:
        """Run ``function`` on the encoded ``cases``; the child's answer."""
        self._send({"t": "run", "id": request_id, "function": function,
                    "hide": [list(h) for h in hide], "cases": cases,
                    "timeout": self.limits.call_seconds, "budget": self.limits.kata_seconds})
        deadline = time.monotonic() + self.limits.kata_seconds + 5
        while True:
            message = self.receive(deadline)
            if message.get("t") == "result" and message.get("id") == request_id:
                outcomes = message.get("outcomes")
                if not isinstance(outcomes, list) or len(outcomes) != len(cases):
                    raise ChildGone("a malformed answer")
                return message

    def close(self) -> None:
        """Kill the child and everything it started; remove its folder."""
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with suppress(OSError):
            self.proc.kill()
        with suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        with suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        with suppress(OSError):
            os.close(self._read)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Child:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
