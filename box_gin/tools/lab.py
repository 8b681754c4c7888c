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
    args = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={folder}",
            f"--LabApp.default_url=/lab/tree/{LANDING}"]
    if hasattr(os, "getuid") and os.getuid() == 0:
        args.append("--ServerApp.allow_root=True")
    return [*args, *extra], env


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
    os.execve(command[0], command, env)
    return 0  # pragma: no cover (execve does not return)


if __name__ == "__main__":
    raise SystemExit(main())
