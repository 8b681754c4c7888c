"""Open the whole kit in JupyterLab, the landing notebook first (what ``make lab`` runs).

    python -m box_gin.tools.lab [FOLDER] [-- more jupyter lab options]

``FOLDER`` (default: the current folder) is the kit: ``START.ipynb``, ``notebooks/``,
``exercises/``.  JupyterLab serves all of it, so the notebooks' links to the exercises open,
and shows ``START.ipynb`` first (``LabApp.default_url``).  The kit's own Jupyter settings
live in ``FOLDER/jupyter-config`` and are added with ``JUPYTER_CONFIG_PATH``; nothing is
written into the home folder:

- ``labconfig/default_setting_overrides.json``: JupyterLab does not ask "Would you like to
  get notified about official Jupyter news?" and does not look for updates (defaults only:
  a person's own settings still win);
- ``jupyter_server_config.json``: the server extension ``notebook_shim`` (for the classic
  notebook's extensions, which the kit does not use) is off: while starting it reads the
  deprecated ``ServerApp.token`` and prints a ``DeprecationWarning``; and the language
  server extension does not look for servers (none is installed), so it prints no long
  line of servers it skipped.

The kit's own notebooks are trusted, and no others: before JupyterLab starts, every
notebook git tracks in the kit (``box_gin.tools.kit.kit_files``) is signed in a notary of the
kit's own (``FOLDER/build/lab-trust``, ``NotebookNotary.data_dir``), so a fresh clone's
saved outputs show with their styles (JupyterLab's sanitizer drops the ``<style>`` of an
untrusted output: the cards would run together) and the server does not warn "Notebook
... is not trusted" for each.  A notebook a learner makes is untrusted as usual until they
run it.  Kernels talk over local sockets (``KernelManager.transport=ipc``, on POSIX,
where Jupyter's runtime folder leaves room for a socket's path): no "Kernel is running
over TCP without encryption" per kernel; and tornado's
``websocket_ping_timeout`` warning is filtered out of the log (:class:`QuietLogs`, in
``jupyter_server_config.json``).

As root (a container), ``ServerApp.allow_root`` is passed too, or Jupyter refuses to start.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: The landing notebook, at the root of what JupyterLab serves.
LANDING = "START.ipynb"
#: The kit's Jupyter settings folder, inside the kit.
CONFIG = "jupyter-config"
#: The kit's own notary (its key and the signatures of the kit's notebooks), inside it.
TRUST = "build/lab-trust"
#: The notebooks of the kit a learner opens (never the test suite's hostile submissions).
TRUSTED = (LANDING, "notebooks/**/*.ipynb", "exercises/**/*.ipynb", "solutions/**/*.ipynb")


class QuietLogs(logging.Filter):
    """Drops the one start-up warning the kit cannot avoid otherwise: Jupyter Server's
    kernel websockets ask tornado for a ping timeout (90 s) longer than their ping
    interval (30 s), and tornado says so ("The websocket_ping_timeout (90000) cannot be
    longer than the websocket_ping_interval (30000)") when a notebook first connects."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "websocket_ping_timeout" not in record.getMessage()


#: ``logging_config`` for Jupyter Server and Voila: :class:`QuietLogs` on tornado's log.
QUIET_LOGS: dict[str, Any] = {
    "filters": {"box_gin_quiet": {"()": f"{__name__}.QuietLogs"}},
    "loggers": {"tornado.general": {"filters": ["box_gin_quiet"]}},
}


def lab_command(folder: Path, extra: Sequence[str] = (),
                environ: Mapping[str, str] | None = None) -> tuple[list[str], dict[str, str]]:
    """The command line and the environment that open ``folder`` in JupyterLab."""
    folder = folder.resolve()
    if not (folder / LANDING).is_file():
        raise FileNotFoundError(f"{folder}: no {LANDING} here; give the kit's folder")
    env = dict(os.environ if environ is None else environ)
    paths = [str(folder / CONFIG), *filter(None, env.get("JUPYTER_CONFIG_PATH", "").split(
        os.pathsep))]
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(paths)
    # The notary writes its key there at its first signature: the folder must exist.
    (folder / TRUST).mkdir(mode=0o700, parents=True, exist_ok=True)
    args = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={folder}",
            f"--LabApp.default_url=/lab/tree/{LANDING}",
            f"--NotebookNotary.data_dir={folder / TRUST}"]
    if os.name == "posix" and _sockets_fit(env):
        args.append("--KernelManager.transport=ipc")
    if hasattr(os, "getuid") and os.getuid() == 0:
        args.append("--ServerApp.allow_root=True")
    return [*args, *extra], env


#: The longest path a local socket may have (``sockaddr_un.sun_path``, less its NUL).
SOCKET_PATH_MAX = 107
#: What a kernel's socket adds to Jupyter's runtime folder:
#: ``/kernel-<36 characters of uuid>-ipc-<n>``.
SOCKET_NAME = len("/kernel-") + 36 + len("-ipc-") + 1


def _sockets_fit(env: Mapping[str, str]) -> bool:
    """Whether a kernel's local sockets fit in Jupyter's runtime folder for ``env``: a
    deep folder (a long home, ``JUPYTER_RUNTIME_DIR`` far down) would make every kernel
    fail to start, so the kernels talk over TCP there instead (with its log line)."""
    from unittest import mock

    from jupyter_core.paths import jupyter_runtime_dir

    with mock.patch.dict(os.environ, env, clear=True):  # the folder for env, as Jupyter finds it
        runtime = os.path.abspath(jupyter_runtime_dir())
    return len(os.fsencode(runtime)) + SOCKET_NAME <= SOCKET_PATH_MAX


def trust_kit(folder: Path) -> list[Path]:
    """Sign the kit's own notebooks (git-tracked) in the kit's notary; return them."""
    import nbformat
    from nbformat.sign import NotebookNotary

    from .kit import kit_files

    folder = folder.resolve()
    (folder / TRUST).mkdir(mode=0o700, parents=True, exist_ok=True)
    notary = NotebookNotary(data_dir=str(folder / TRUST))  # type: ignore[no-untyped-call]
    signed = []
    for path in kit_files(folder, *TRUSTED):
        try:
            notebook = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        except (OSError, ValueError):
            continue  # not a notebook JupyterLab could open either
        # signing writes to disk: only once
        if not notary.check_signature(notebook):  # type: ignore[no-untyped-call]
            notary.sign(notebook)  # type: ignore[no-untyped-call]
        signed.append(path)
    return signed


def main(argv: Sequence[str] | None = None) -> int:
    """Replace this process with JupyterLab on the kit."""
    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args.pop(0)) if args and not args[0].startswith("-") else Path.cwd()
    if args and args[0] == "--":
        args.pop(0)
    try:
        command, env = lab_command(folder, args)
    except FileNotFoundError as err:
        print(err, file=sys.stderr)
        return 2
    trust_kit(folder)
    os.execve(command[0], command, env)
    return 0  # pragma: no cover (execve does not return)


if __name__ == "__main__":
    raise SystemExit(main())
