"""What the teaching widgets look like, in a real browser (Voila): the points a teacher
saw on a projector.  A notebook made here shows each widget in a given state; the tests
read computed styles and boxes, and keep a screenshot of each widget.  They only read:
one page, loaded once, serves them all."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import expect

from box_gin import best_discards

SCREENSHOTS = Path(__file__).with_name("screenshots")

pytestmark = pytest.mark.browser

TRAINER_CARDS = "2H 3H 4H 7S 7D 7C 9C 9D 9S 5C KD"
CELLS = [
    "from box_gin import set_language\nset_language('en')",
    # a meld built (4-5-6♥), a card chosen (7♠), the rest free
    "from box_gin.widgets import MeldExplorer\n"
    "explorer = MeldExplorer('4H 5H 6H 7H 7S 7D KC')\n"
    "for card in ('4H', '5H', '6H'):\n    explorer.hand_button(card).click()\n"
    "explorer.buttons['make meld'].click()\n"
    "explorer.hand_button('7S').click()\nexplorer",
    # a bad meld tried: the error box
    "bad = MeldExplorer('7H 7S 8D KC')\n"
    "for card in ('7H', '7S', '8D'):\n    bad.hand_button(card).click()\n"
    "bad.buttons['make meld'].click()\nbad",
    "from box_gin.widgets import KnockTrainer\n"
    f"trainer = KnockTrainer('{TRAINER_CARDS}')\n"
    "trainer.card_button('KD').click()\ntrainer.buttons['reveal'].click()\ntrainer",
    "from box_gin.widgets import ScoringWidget\n"
    "scoring = ScoringWidget.from_cards('5H 6H 7H KC KD KS 2C 2D 2S 4C',\n"
    "                                   '8H 9H KH 3C 3D 3S AC 5D QD JS')\n"
    "while not scoring.buttons['next'].disabled:\n    scoring.buttons['next'].click()\nscoring",
    "from box_gin.widgets import DealWidget\nDealWidget(seed=7)",
]


@pytest.fixture(scope="module")
def widgets_url(voila: Callable[..., str], tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("look")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = folder / "widgets.ipynb"
    nbformat.write(nb, path)
    return voila(path, env={"BOX_GIN_LANG": "en"})


@pytest.fixture(scope="module")
def widgets_page(module_page: tuple[Any, list[str]], widgets_url: str) -> tuple[Any, list[str]]:
    """The notebook's widgets, shown once for the module: Voila runs the notebook at every
    load (about ten seconds), and the tests below only look (no test clicks)."""
    page, errors = module_page
    page.goto(widgets_url)
    expect(page.locator(".bg-deal-widget button.bg-btn-deal")).to_be_visible(timeout=300_000)
    return page, errors


@pytest.fixture
def shown(widgets_page: tuple[Any, list[str]]) -> Iterator[Any]:
    """The shown widgets; the test fails on any browser error seen since the page was
    loaded, as with a page of its own."""
    page, errors = widgets_page
    assert not errors, "browser errors:\n" + "\n".join(errors)
    yield page
    assert not errors, "browser errors:\n" + "\n".join(errors)


def snap(locator: Any, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    locator.screenshot(path=str(SCREENSHOTS / f"look-{name}.png"))


def style(locator: Any, prop: str) -> str:
    return str(locator.evaluate(f"e => getComputedStyle(e).{prop}"))


def test_cards_in_my_melds_look_different_from_free_and_chosen_cards(shown: Any) -> None:
    explorer = shown.locator(".bg-meld-explorer").first
    hand = explorer.locator(".bg-explorer-hand")
    melded, chosen, free = (hand.locator(f"button.bg-card-{c}") for c in ("5H", "7S", "KC"))
    expect(melded).to_have_class(re.compile(r"\bbg-in-meld\b"))
    looks = {name: (style(b, "backgroundColor"), style(b, "boxShadow"), style(b, "outlineStyle"))
             for name, b in (("melded", melded), ("chosen", chosen), ("free", free))}
    assert looks["melded"] != looks["free"], looks
    assert looks["chosen"] != looks["free"] and looks["chosen"] != looks["melded"], looks
    assert style(free, "backgroundColor") == "rgb(255, 255, 255)"
    snap(explorer, "meld-explorer")


#: The part of an element a person can see is cut by every ancestor that clips
#: (overflow other than visible): how many pixels of its drawn box (its outline
#: included) are cut at the top, at most, over all its ancestors.
CLIPPED_JS = """el => {
  const s = getComputedStyle(el), r = el.getBoundingClientRect();
  const reach = Math.max(0, parseFloat(s.outlineWidth) + parseFloat(s.outlineOffset));
  const top = r.top - (s.outlineStyle === 'none' ? 0 : reach);
  let cut = 0;
  for (let a = el.parentElement; a; a = a.parentElement) {
    const o = getComputedStyle(a);
    if (o.overflowY !== 'visible' || o.overflowX !== 'visible') {
      const inner = a.getBoundingClientRect().top + parseFloat(o.borderTopWidth);
      cut = Math.max(cut, inner - top);
    }
  }
  return cut;
}"""


def test_selected_cards_are_not_clipped(shown: Any) -> None:
    explorer = shown.locator(".bg-meld-explorer").first
    for button in (explorer.locator(".bg-explorer-hand button.bg-card-7S"),
                   explorer.locator(".bg-deck button.bg-card-4H")):
        expect(button).to_have_class(re.compile(r"\bbg-selected\b"))
        assert button.evaluate(CLIPPED_JS) <= 0, "the selected card is cut at the top"


def test_a_bad_meld_shows_a_styled_error_naming_set_and_run(shown: Any) -> None:
    bad = shown.locator(".bg-meld-explorer").nth(1)
    error = bad.locator(".bg-message .bg-error")
    expect(error).to_contain_text("neither a set nor a run")
    assert style(error, "backgroundColor") not in ("rgba(0, 0, 0, 0)", "transparent")
    assert style(error, "borderLeftStyle") == "solid"
    assert style(error, "color") != style(bad.locator(".bg-compare-readout .bg-readout"),
                                          "color")
    snap(bad, "bad-meld")


def test_the_explorer_says_each_deadwood_number_once(shown: Any) -> None:
    explorer = shown.locator(".bg-meld-explorer").first
    expect(explorer.locator(".bg-deadwood-readout")).to_have_text("Least deadwood: 10")
    assert "Deadwood" not in explorer.locator(".bg-best-readout").inner_text()
    assert "Deadwood" not in explorer.locator(".bg-mine-readout").inner_text()


def test_the_knock_trainers_revealed_table_is_compact(shown: Any) -> None:
    trainer = shown.locator(".bg-knock-trainer")
    table = trainer.locator(".bg-reveal-readout table.bg-discards")
    expect(table).to_be_visible()
    box = table.bounding_box()
    assert box["height"] < 160, f"the table of every discard is {box['height']:.0f} px tall"
    analysis = best_discards(TRAINER_CARDS)
    shown_cards = table.locator(".bg-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert shown_cards == [repr(c) for c, _d in sorted(analysis.deadwood_after.items(),
                                                        key=lambda kv: (kv[1], kv[0]))]
    snap(trainer, "knock-trainer")


def test_buttons_look_the_same_in_every_widget(shown: Any) -> None:
    buttons = shown.locator(".bg-widget button.bg-btn")
    assert buttons.count() >= 11
    looks = buttons.evaluate_all("""bs => bs.map(b => {
      const s = getComputedStyle(b), r = b.getBoundingClientRect();
      const box = b.closest('.bg-widget').getBoundingClientRect();
      return {key: [...b.classList].find(c => c.startsWith('bg-btn-')),
              look: [r.height, s.fontSize, s.fontWeight, s.paddingLeft, s.borderRadius,
                     s.borderTopWidth, s.backgroundColor].join(' '),
              width: r.width, full: box.width};
    })""")
    assert len({b["look"] for b in looks}) == 1, looks
    for b in looks:
        assert b["width"] < 0.5 * b["full"], f"{b['key']} is a bar {b['width']:.0f} px wide"
    snap(shown.locator(".bg-deal-widget"), "deal")


def test_the_scoring_widgets_last_step_names_knocker_and_defender(shown: Any) -> None:
    scoring = shown.locator(".bg-scoring-widget")
    stage = scoring.locator(".bg-stage")
    knocker = stage.locator(".bg-knocker-label")
    defender = stage.locator(".bg-defender-label")
    expect(knocker).to_have_text("Knocker: the captain")
    expect(defender).to_have_text("Defender: the box")
    melds = stage.locator(".bg-knocker-melds").bounding_box()
    kept = stage.locator(".bg-arrangement").bounding_box()
    k, d = knocker.bounding_box(), defender.bounding_box()
    assert k["y"] < melds["y"] < d["y"] < kept["y"], "each label stands above its own row"
    snap(scoring, "scoring")
