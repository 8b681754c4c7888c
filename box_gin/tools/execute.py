"""Execute notebooks in place, so that running them twice gives identical files.

    python -m box_gin.tools.execute notebooks/*.ipynb solutions/*.ipynb

Each notebook runs in a fresh ``python3`` kernel whose working folder is the notebook's
own.  Afterwards the notebook is normalised: widget state (the ``widgets`` metadata key)
and execution timings are removed, and the kernel metadata is the standard one.  A widget's
output keeps its text and HTML forms (box-gin widgets add a static HTML view of their
state) but not its ``application/vnd.jupyter.widget-view+json`` reference: that names a
model id that changes on every run and whose state is not saved, so it could only show
"model not found" when the notebook is reopened.  Paths that do not exist (an unmatched ``*.ipynb``
left as it is by the shell) are skipped with a note.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
#: Notebook metadata keys kept (everything else, such as ``widgets``, is dropped).
KEEP_METADATA = ("kernelspec", "language_info", "nbgrader", "title", "authors", "box_gin")
#: Cell metadata keys dropped: timings, and state that changes from run to run.
DROP_CELL_METADATA = ("execution", "collapsed", "scrolled", "ExecuteTime", "widgets")


def normalise(nb: Any) -> Any:
    """Drop widget state, timings and editor state from a notebook; return it."""
    meta = nb.metadata
    for key in list(meta):
        if key not in KEEP_METADATA:
            del meta[key]
    meta["kernelspec"] = dict(KERNELSPEC)
    info = meta.get("language_info")
    if info is not None:
        meta["language_info"] = {k: info[k] for k in ("name", "version", "file_extension",
                                                     "mimetype", "pygments_lexer",
                                                     "codemirror_mode",
                                                     "nbconvert_exporter") if k in info}
    for cell in nb.cells:
        for key in DROP_CELL_METADATA:
            cell.metadata.pop(key, None)
        for output in cell.get("outputs", ()):
            output.get("metadata", {}).pop("execution", None)
            output.get("data", {}).pop(WIDGET_VIEW, None)
    return nb


#: What only the kernel's own machinery writes on stderr (never a notebook's code): an
#: output holding it is the machine's accident, and the notebook is executed again.
KERNEL_NOISE = ("ERROR:tornado.", "Uncaught exception in ZMQStream")


def kernel_noise(nb: Any) -> bool:
    """Whether a stored stderr output holds the kernel's own errors (:data:`KERNEL_NOISE`)."""
    for cell in nb.cells:
        for output in cell.get("outputs", ()):
            if output.get("output_type") == "stream" and output.get("name") == "stderr":
                text = output.get("text", "")
                text = "".join(text) if isinstance(text, list) else str(text)
                if any(mark in text for mark in KERNEL_NOISE):
                    return True
    return False


def execute(path: Path, timeout: int = 600, kernel_name: str = "python3",
            tries: int = 3) -> None:
    """Execute one notebook in place (cwd: its folder), then normalise and save it; again
    (up to ``tries`` times) while the kernel's own errors land in its outputs."""
    import nbformat
    from nbclient import NotebookClient

    for _attempt in range(tries):
        nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
        client = NotebookClient(
            nb, timeout=timeout, kernel_name=kernel_name, record_timing=False,
            store_widget_state=False,
            resources={"metadata": {"path": str(path.parent.resolve())}},
        )
        client.execute()
        if not kernel_noise(nb):
            break
    else:
        raise RuntimeError(f"{path}: the kernel's own errors in the outputs, {tries} times")
    normalise(nb)
    nbformat.validate(nb)
    text: str = nbformat.writes(nb)  # type: ignore[no-untyped-call]
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Execute every notebook named on the command line; 1 if any failed."""
    parser = argparse.ArgumentParser(prog="python -m box_gin.tools.execute",
                                     description="Execute notebooks in place.")
    parser.add_argument("notebooks", nargs="*", help="notebook files (.ipynb)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds per cell")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.notebooks:
        path = Path(name)
        if not path.is_file():
            print(f"skip {name}: no such notebook")
            continue
        print(f"execute {path}", flush=True)
        try:
            execute(path, timeout=args.timeout)
        except Exception as err:  # report every failing notebook, then fail
            failed += 1
            print(f"FAILED {path}: {type(err).__name__}: {err}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
