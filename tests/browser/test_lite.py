"""The zero-install classroom (``make lite``): the static JupyterLite site in build/lite,
served by ``python -m http.server`` on 127.0.0.1, in a real Chromium.  Notebook 2 runs
every cell in Pyodide, its Meld Explorer answers clicks with the engine's best melds, and
a kata's ``check()`` in exercises/02_melds.ipynb says ✘ for the unwritten function and ✔
once it is written.  No request may leave 127.0.0.1: the site must work offline.

Slow (Pyodide starts twice), so ``make test`` leaves it out; ``make lite-test`` (and CI)
runs it after ``make lite``.  It uses build/lite as it is: build it first.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SCREENSHOTS, Server, free_port  # tests/browser/conftest.py
from playwright.sync_api import expect

from box_gin import best_melds
from box_gin.cards import Card
from box_gin.i18n import set_language
from box_gin.tools.kit import kit_files

pytestmark = [pytest.mark.browser, pytest.mark.lite]

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "lite"
NOTEBOOK = "notebooks/" + kit_files(ROOT, "notebooks/02_*.ipynb")[0].name
EXERCISES = "exercises/02_melds.ipynb"
#: Pyodide's first start on 2 busy cores can take a few minutes.
KERNEL_TIMEOUT = 400_000
EXPLORER = ".jp-Notebook .bg-meld-explorer"
CLICKS = ["4H", "5H", "6H", "7H", "7S", "7D", "KC"]
IS_SET = '''def is_set(cards):
    """Whether the cards are 3 or 4 cards of one rank."""
    return len(cards) in (3, 4) and len({card.rank for card in cards}) == 1
'''

KERNEL_FACTS = """\
import sys
import box_gin.compat as c, box_gin.kernels as k
from box_gin.i18n import set_language
set_language("fr")
fr = c.chart_needs_full_install().startswith("Ce graphique a besoin de matplotlib")
set_language("en")
(sys.platform, c.have_matplotlib(), k.IMPLEMENTATION == "compiled", fr, "babel" in sys.modules)"""

#: Every URL the current test's page asked for (its workers' requests too).
REQUESTS: list[str] = []

KERNEL_IDLE_JS = """path => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.context && w.context.path === path && w.sessionContext.session
            && w.sessionContext.session.kernel;
  return !!k && k.status === 'idle';
}"""

#: Every code cell has run (run-all clears each count when it queues the cell) and the
#: kernel is idle.
ALL_RUN_JS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  return w.sessionContext.session.kernel.status === 'idle' && w.content.widgets.every(
    c => c.model.type !== 'code' || c.model.executionCount !== null);
}"""

#: Replace a cell's source, then run that cell alone.
RUN_CELL_JS = """async ([index, source]) => {
  const w = window.jupyterapp.shell.currentWidget;
  const cell = w.content.widgets[index];
  if (source !== null) cell.model.sharedModel.setSource(source);
  w.content.activeCellIndex = index;
  await window.jupyterapp.commands.execute('notebook:run-cell');
  return null;
}"""

#: A cell's execution count and its outputs, read from the model (the notebook draws
#: only the cells in view, so the page may hold no output of a cell scrolled away).
CELL_JS = """index => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
  return {count: cell.model.executionCount,
          outputs: cell.model.outputs ? cell.model.outputs.toJSON() : []};
}"""

#: Every output of the notebook that is an error or went to stderr.
ERRORS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets
  .filter(c => c.model.type === 'code')
  .flatMap(c => c.model.outputs.toJSON())
  .filter(o => o.output_type === 'error' || (o.output_type === 'stream' && o.name === 'stderr'))
  .map(o => o.output_type === 'error' ? `${o.ename}: ${o.evalue}` : String(o.text))"""


#: Run code in the current notebook's kernel; its printed and returned text.
KERNEL_RUN_JS = """async code => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, store_history: false});
  const out = [];
  future.onIOPub = msg => {
    const c = msg.content;
    if (msg.header.msg_type === 'execute_result') out.push(c.data['text/plain']);
    if (msg.header.msg_type === 'stream') out.push(c.text);
    if (msg.header.msg_type === 'error') out.push(`${c.ename}: ${c.evalue}`);
  };
  await future.done;
  return out.join('');
}"""

#: Notebook 8's hand played by greedy bots and the box's decisions reviewed as the
#: notebook does it (its widget): the last line says how long the review took; the
#: first, what the notebook prints of the third decision (its numbers in the language's
#: own writing, without Babel, which the lite kernel does not load).
REVIEW_CODE = """
import time
from box_gin import Hand, greedy_bot
from box_gin.i18n import format_number, set_language
from box_gin.review.classify import signed
from box_gin.widgets import ReviewWidget
set_language("fr")
hand = Hand.deal(seed=4)
while not hand.is_over:
    hand.apply(greedy_bot(hand.view(hand.to_play)))
start = time.perf_counter()
widget = ReviewWidget.from_hand(hand, seat="box", seed=1)
seconds = time.perf_counter() - start
decision = widget.decisions[2]
print(len(widget.decisions), decision.played.label, "|", decision.rating.label,
      *(f"{v.action.label} {signed(v.value)} ± {format_number(v.stderr, 1)}"
        for v in decision.evaluation.ranked))
print(round(seconds, 2))
"""
BEST_JS = """el => ({
  melds: [...el.querySelectorAll('.bg-meld')].map(m => m.dataset.meld),
  deadwood: [...el.querySelectorAll('.bg-deadwood .bg-card')].map(c => c.dataset.card)})"""


@pytest.fixture(scope="module")
def site_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if not (SITE / "jupyter-lite.json").exists():
        pytest.fail(f"{SITE} is not built: run `make lite` first (or `make lite-test`)")
    port = free_port()
    server = Server([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port),
                     "--directory", str(SITE)],
                    ready_url=f"http://127.0.0.1:{port}/jupyter-lite.json",
                    base_url=f"http://127.0.0.1:{port}/", cwd=SITE,
                    log=tmp_path_factory.mktemp("lite") / "http.log")
    yield server.base_url
    server.stop()


@pytest.fixture
def lite_page(browser: Any, site_url: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page that records every request it makes (any that leaves the site's own server
    is refused and fails the test) and every uncaught page error."""
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  service_workers="allow")
    outside: list[str] = []
    errors: list[str] = []

    REQUESTS.clear()

    def on_request(req: Any) -> None:
        if not req.url.startswith((site_url, "data:", "blob:")):
            outside.append(req.url)
        REQUESTS.append(req.url)

    context.on("request", on_request)
    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda route: route.abort())
    pg = context.new_page()
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    pg.on("console", lambda msg: errors.append(f"console.error: {msg.text}")
          if msg.type == "error" else None)
    pg.set_default_timeout(60_000)
    yield pg
    SCREENSHOTS.mkdir(exist_ok=True)
    try:
        pg.screenshot(path=str(SCREENSHOTS / f"{request.node.name}.png"))
    finally:
        context.close()
    assert not outside, "requests left 127.0.0.1:\n" + "\n".join(outside)
    assert not errors, "browser errors:\n" + "\n".join(errors)


def wait_kernel(page: Any, path: str) -> float:
    start = time.monotonic()
    page.wait_for_function(f"path => ({KERNEL_IDLE_JS})(path)", arg=path,
                           timeout=KERNEL_TIMEOUT)
    return time.monotonic() - start


def loaded_mib(site_url: str) -> float:
    """The size of the distinct site files requested so far."""
    paths = {url.removeprefix(site_url).split("?")[0] for url in REQUESTS
             if url.startswith(site_url)}
    files = [SITE / p for p in paths if p and (SITE / p).is_file()]
    return sum(f.stat().st_size for f in files) / 2**20


def stderr_outputs(page: Any) -> list[str]:
    return list(page.evaluate(ERRORS_JS))


def cell_text(page: Any, index: int) -> tuple[int | None, str]:
    """A cell's execution count and the text of its outputs (HTML without its tags)."""
    cell = page.evaluate(f"({CELL_JS})({index})")
    parts = []
    for out in cell["outputs"]:
        if out.get("output_type") == "stream":
            parts.append(str(out["text"]))
        elif out.get("output_type") == "error":
            parts.append(f"{out['ename']}: {out['evalue']}")
        else:
            data = out.get("data", {})
            html = data.get("text/html")
            if html:
                html = "".join(html) if isinstance(html, list) else html
                html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)
                parts.append(re.sub(r"<[^>]+>", "", html))
            else:
                text = data.get("text/plain", "")
                parts.append("".join(text) if isinstance(text, list) else text)
    return cell["count"], "\n".join(parts)


def expected(cards: list[Card]) -> dict[str, Any]:
    best = best_melds(cards)
    return {"melds": [str(m) for m in best.melds],
            "deadwood": [repr(c) for c in best.deadwood]}  # its value: the readout below


def code_cell_index(notebook: Path, needle: str) -> int:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return next(i for i, c in enumerate(cells)
                if c["cell_type"] == "code" and needle in "".join(c["source"]))


def test_site_is_the_kit_and_needs_no_cdn() -> None:
    """The built site serves its own Pyodide, whose lock lists only wheels it holds."""
    config = json.loads((SITE / "jupyter-lite.json").read_text(encoding="utf-8"))
    kernel = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    assert "box-gin" in kernel["loadPyodideOptions"]["packages"]
    lock = json.loads((SITE / "static" / "pyodide" / "pyodide-lock.json").read_text())
    missing = [p["file_name"] for p in lock["packages"].values()
               if not (SITE / "static" / "pyodide" / p["file_name"]).is_file()]
    assert missing == []
    wheel = next(p for p in lock["packages"].values() if p["name"] == "box-gin")
    assert wheel["file_name"].endswith("-py3-none-any.whl")
    with zipfile.ZipFile(SITE / "static" / "pyodide" / wheel["file_name"]) as whl:
        names = whl.namelist()
    assert "box_gin/locale/fr/LC_MESSAGES/box_gin.mo" in names
    assert [n for n in names if n.endswith((".so", ".pyd", ".po"))] == []


def test_notebook_and_kata_run_in_the_browser(lite_page: Any, site_url: str) -> None:
    page = lite_page
    start = time.monotonic()
    page.goto(f"{site_url}lab/index.html?path={NOTEBOOK}")
    page.wait_for_function("() => window.jupyterapp !== undefined")
    wait_kernel(page, NOTEBOOK)
    print(f"first load, to an idle Pyodide kernel: {time.monotonic() - start:.1f} s, "
          f"{loaded_mib(site_url):.1f} MiB of the site's files")

    # the kernel is the browser's Python, with box-gin on its pure path, no matplotlib,
    # and its French catalog read from the wheel's .mo without loading babel
    facts = page.evaluate(KERNEL_RUN_JS, KERNEL_FACTS)
    assert facts == "('emscripten', False, False, True, False)", facts

    # every cell of notebook 2, in Pyodide
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(ALL_RUN_JS, timeout=KERNEL_TIMEOUT)
    assert stderr_outputs(page) == [], "a cell raised an error or wrote to stderr"
    agree = code_cell_index(ROOT / NOTEBOOK, "brute_force_deadwood(cards) ==")
    assert cell_text(page, agree)[1] == "'all 300 agree'"

    # the Meld Explorer answers clicks with the engine's best arrangement
    explorer = page.locator(EXPLORER)
    explorer.scroll_into_view_if_needed()
    explorer.locator("button.bg-btn-clear").click()
    deadwood = explorer.locator(".bg-deadwood-readout")
    expect(deadwood).to_have_text("Least deadwood: 0")
    chosen: list[Card] = []
    for text in CLICKS:
        explorer.locator(f".bg-deck button.bg-card-{text}").click()
        chosen.append(Card.parse(text))
        expect(deadwood).to_have_text(
            f"Least deadwood: {best_melds(chosen).deadwood_value}")
        # the deadwood can stay the same from one click to the next: wait for the melds
        want = expected(chosen)
        deadline = time.monotonic() + 300
        got = explorer.locator(".bg-best-readout").evaluate(BEST_JS)
        while got != want and time.monotonic() < deadline:
            page.wait_for_timeout(200)
            got = explorer.locator(".bg-best-readout").evaluate(BEST_JS)
        assert got == want, f"after clicking {' '.join(CLICKS[:len(chosen)])}"
    SCREENSHOTS.mkdir(exist_ok=True)
    explorer.screenshot(path=str(SCREENSHOTS / "lite_meld_explorer.png"))

    # a kata: ✘ while is_set is unwritten, ✔ once it is
    page.evaluate("async path => { await window.jupyterapp.commands.execute("
                  "'docmanager:open', {path}); return null; }", EXERCISES)
    wait_kernel(page, EXERCISES)
    nb = ROOT / EXERCISES
    imports = code_cell_index(nb, "from box_gin.katas import check")
    body = code_cell_index(nb, "def is_set(")
    checked = code_cell_index(nb, "check(is_set)")
    for index in (imports, body, checked):
        page.evaluate(RUN_CELL_JS, [index, None])
    first = wait_output(page, checked, None)
    assert first.lstrip().startswith("✘ is_set"), first
    assert "not written yet" in first, first
    page.screenshot(path=str(SCREENSHOTS / "lite_kata_fails.png"))

    page.evaluate(RUN_CELL_JS, [body, IS_SET])
    before = cell_text(page, checked)[0]
    page.evaluate(RUN_CELL_JS, [checked, None])
    second = wait_output(page, checked, before)
    assert second.lstrip().startswith("✔ is_set"), second
    assert stderr_outputs(page) == []

    # the review of a hand (notebook 8's), in Pyodide on the pure playouts: its time is
    # said, never asserted (docs/review.md's JupyterLite figure comes from here)
    said = page.evaluate(KERNEL_RUN_JS, REVIEW_CODE).strip().split("\n")
    assert len(said) == 2, said
    here = io.StringIO()
    try:
        with contextlib.redirect_stdout(here):
            exec(REVIEW_CODE, {})  # the same review here, on this machine's engine
    finally:
        set_language("en")
    assert said[0] == here.getvalue().split("\n")[0], said
    print(f"a seat's hand reviewed in Pyodide (pure playouts): {float(said[1]):.1f} s, "
          f"{said[0].split()[0]} decisions")


def wait_output(page: Any, index: int, old_count: int | None) -> str:
    """The output text of cell ``index`` once it has run again (its count is no longer
    ``old_count``) and the kernel is idle."""
    page.wait_for_function(
        f"""() => {{ const c = ({CELL_JS})({index});
                   const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
                   return c.count !== null && c.count !== {json.dumps(old_count)}
                          && c.outputs.length > 0 && k.status === 'idle'; }}""",
        timeout=KERNEL_TIMEOUT)
    return cell_text(page, index)[1]
