"""The play app (notebooks/play.ipynb in Voila) in a real browser.

Fill in the setup form, deal, and play the human's turns by clicking card buttons and
the take/pass/draw/discard/knock buttons, while a shadow ``Match`` in this process plays
the same actions from the same seed.  After every action the page must show the
engine's state (status, your cards, the discard pile, the stock); the card just drawn is
marked; the bots' moves must appear in the log; the sitter's advice must be shown with
its reason; from the sitter's seat the captain's cards are watched step by step and the
captain plays the advice clicked; and when a hand ends, the one score line, the layoffs
on their melds and the score sheet in the page must be the engine's.  Screenshots of the
sitter's seat and of a finished hand are kept in tests/browser/screenshots/.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from box_gin import STANDARD, Match, Role, SeatView, SitterView, advise, greedy_bot
from box_gin.actions import Action, ActionKind
from box_gin.i18n import set_language
from box_gin.views.html import score_breakdown, score_line

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(__file__).with_name("screenshots")
SEED = 7
NAME = "Dana"
TARGET = 40   # low, so that the whole game is a few hands

#: Read the table's state from the page in one go.
STATE_JS = """() => {
  const q = s => document.querySelector('.bg-game-table ' + s);
  const text = s => (q(s) ? q(s).innerText.trim() : '');
  const hand = [...document.querySelectorAll('.bg-game-table .bg-my-hand .bg-card-button')]
    .map(b => [...b.classList].find(c => /^bg-card-..$/.test(c)).slice(8));
  const top = q('.bg-pile-readout .bg-pile .bg-card');
  return {status: text('.bg-status'), hand: hand.join(' '),
          top: top ? top.dataset.card : '', stock: text('.bg-pile-readout .bg-stock')};
}"""


@pytest.fixture(scope="module")
def app_url(voila: Callable[..., str]) -> str:
    return voila(ROOT / "notebooks" / "play.ipynb",
                 env={"BOX_GIN_SEED": str(SEED), "BOX_GIN_LANG": "en"})


def advising(match: Match, human: str) -> bool:
    """Whether the human is the sitter and the captain is to act (the page waits)."""
    return (not match.is_over and match.role_of(human) is Role.SITTER
            and match.to_play == match.roles[Role.CAPTAIN])


def expected_state(match: Match, human: str, over: bool) -> dict[str, str]:
    """What the page should show, from the shadow match (the widget's wording)."""
    n = len(match.history)
    if match.is_over:
        return {"status": f"Game over. Winner: {match.winner}.", "hand": "", "top": "",
                "stock": ""}
    if over:
        return {"status": f"Hand {n} is over. Press Next hand to play on.", "hand": "",
                "top": "", "stock": ""}
    seen = match.view(human)
    view = seen.captain if isinstance(seen, SitterView) else seen
    top = view.top_discard
    name = match.to_play
    if name == human:
        status = (f"Hand {n + 1}: your turn, {view.role.label} — "
                  f"{match.hand.phase.label}.")
    elif advising(match, human):
        status = (f"Hand {n + 1}: the captain, {name}, is to play — "
                  f"{match.hand.phase.label}. Your advice? Choose a move, or press Let the "
                  "captain decide.")
    else:
        status = f"Hand {n + 1}. To play: {name}."
    stock = f"{view.stock_size} card{'s' if view.stock_size != 1 else ''} in the stock"
    return {"status": status, "hand": " ".join(repr(c) for c in view.hand),
            "top": repr(top) if top else "", "stock": stock}


def wait_state(page: Any, want: dict[str, str], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while True:
        got = page.evaluate(STATE_JS)
        if got == want:
            return
        if time.monotonic() > deadline:
            assert got == want
        page.wait_for_timeout(30)


def css_key(action: Action) -> str:
    return "button.bg-btn-" + "-".join(action.kind.value.split())


def play_human(page: Any, match: Match, action: Action, player: str) -> None:
    """Click what a person clicks for ``action`` (a card first for discard and knock);
    the shadow plays it for ``player`` (the human, or the captain it advises)."""
    if action.card is not None:
        card = page.locator(f".bg-my-hand button.bg-card-{action.card!r}")
        card.click()
        page.locator(f".bg-my-hand button.bg-card-{action.card!r}.bg-selected").wait_for()
    page.locator(css_key(action)).click()
    role = match.role_of(player)
    before = set(match.hand.cards(role))
    match.apply(action, player=player)
    if action.kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD, ActionKind.TAKE) \
            and not match.hand.is_over:
        (drawn,) = set(match.hand.cards(role)) - before
        # The card just drawn is marked, and only that one.
        page.locator(f".bg-my-hand button.bg-card-{drawn!r}.bg-drawn").wait_for()
        assert page.locator(".bg-my-hand button.bg-drawn").count() == 1


def run_bots(match: Match, human: str) -> list[str]:
    """Let the shadow's greedy bots act until the human is to act (or to advise) or the
    hand ends; return their moves as the log shows them."""
    hands = len(match.history)
    log = []
    while len(match.history) == hands and not match.is_over and match.to_play != human \
            and not advising(match, human):
        name = match.to_play
        assert name is not None
        role = match.role_of(name)
        view = match.view(name)
        assert isinstance(view, SeatView)
        action = greedy_bot(view)
        match.apply(action, player=name)
        log.append(f"{name} ({role.label}): {action.label}")
    return log


def scoresheet(page: Any) -> list[list[str]]:
    rows = page.locator(".bg-scoresheet-readout table.bg-scoresheet tr")
    return [[c.strip() for c in row.locator("th, td").all_inner_texts()]
            for row in rows.all()]


def test_play_a_game_against_bots(page: Any, app_url: str) -> None:
    set_language("en")
    page.goto(app_url)
    page.locator(".bg-name input").fill(NAME)
    page.locator(".bg-seat select").select_option(label="captain")
    target = page.locator(".bg-target input")
    target.fill(str(TARGET))
    target.press("Enter")
    page.locator("button.bg-btn-start").click()
    page.locator(".bg-game-table .bg-status").wait_for()

    header = scoresheet(page)[0]
    assert header[:3] == ["Hand", "Box", "Outcome"]
    players = header[3:]
    assert sorted(players) == sorted([NAME, "Ada", "Ben"])
    match = Match.new(players, STANDARD.replace(target=TARGET), SEED)
    assert match.role_of(NAME) is Role.CAPTAIN, "the seat chosen in the form"

    advised = bot_lines_seen = sitter_steps = 0
    shown = 0   # the hands whose end the page has shown
    # No empty chart before a hand is scored.
    expect(page.locator(".bg-game-table img.bg-chart")).to_be_hidden()
    while True:
        # the bots answer (unless the human's own move just ended the hand)
        bot_log = [] if len(match.history) > shown else run_bots(match, NAME)
        over = len(match.history) > shown
        wait_state(page, expected_state(match, NAME, over))
        if bot_log:
            log = page.locator(".bg-game-table .bg-message")
            for line in bot_log[-3:]:
                expect(log).to_contain_text(line, timeout=300_000)   # the bot's move is shown
                bot_lines_seen += 1
        if over:
            check_hand_result(page, match)
            shown = len(match.history)
            if match.is_over:
                break
            page.locator("button.bg-btn-next-hand").click()
            continue
        view = match.view(NAME)
        if isinstance(view, SitterView):
            sitter_steps += 1
            captain = match.roles[Role.CAPTAIN]
            label = page.locator(".bg-game-table .bg-hand-label").inner_text()
            assert "hold no cards" in label and captain in label
            if sitter_steps == 1:
                page.screenshot(path=str(SCREENSHOTS / "play-app-sitter-advising.png"),
                                full_page=True)
            # Advise what the greedy bot would play; the bot captain takes the advice.
            action = greedy_bot(view)
            play_human(page, match, action, captain)
            expect(page.locator(".bg-game-table .bg-message")).to_contain_text(
                f"Your advice: {action.label}", timeout=300_000)
            continue
        if view.role is Role.CAPTAIN:
            # Ask the sitter (only the captain may), and follow the advice.
            advice = advise(match.view(match.roles[Role.SITTER]))
            page.locator("button.bg-btn-advice").click()
            said = page.locator(".bg-game-table .bg-advice .bg-advice-text")
            said.wait_for()
            assert said.inner_text().strip() == (
                f"Advice from the sitter, {match.roles[Role.SITTER]}: {advice}")
            assert advice.reason and advice.reason in said.inner_text()
            advised += 1
            action = advice.action
        else:
            action = greedy_bot(view)
        play_human(page, match, action, NAME)

    assert advised > 0 and bot_lines_seen > 0 and sitter_steps > 0
    assert match.is_over
    status = page.locator(".bg-game-table .bg-status").inner_text().strip()
    assert status == f"Game over. Winner: {match.winner}."
    winner = page.locator(".bg-scoresheet-readout .bg-winner").inner_text().strip()
    assert winner == f"Winner of the game: {match.winner}"
    assert page.locator("button.bg-btn-next-hand").is_disabled()
    # the chart of cumulative scores is a real image
    size = page.locator(".bg-game-table img.bg-chart").evaluate(
        "img => [img.naturalWidth, img.naturalHeight]")
    assert size[0] > 100 and size[1] > 100


def check_hand_result(page: Any, match: Match) -> None:
    """The result read-out and the score sheet show the engine's result for the hand."""
    record = match.history[-1]
    result = record.result
    # One score line: who scored, how many points, and how they were counted.
    lines = page.locator(".bg-result-readout .bg-score")
    assert lines.count() == 1
    line = lines.inner_text().strip()
    assert line.startswith(score_line(result, record.roles))
    if result.knocker_layout is not None:
        assert line.endswith(score_breakdown(result, match.rules))
    assert "point" not in page.locator(".bg-game-table .bg-status").inner_text()
    # Each layoff sits on the meld it went onto.
    layoffs = result.defender_layout.layoffs if result.defender_layout else ()
    for layoff in layoffs:
        meld = page.locator(f'.bg-result-readout .bg-knocker-layout '
                            f'.bg-meld[data-meld="{layoff.onto}"]')
        expect(meld.locator(f'.bg-laid-off[data-card="{layoff.card!r}"]')).to_have_count(1)
    assert page.locator(".bg-result-readout .bg-laid-off").count() == len(layoffs)
    if layoffs:
        page.screenshot(path=str(SCREENSHOTS / "play-app-layoffs.png"), full_page=True)
    rows = scoresheet(page)
    assert len(rows) == 1 + len(match.history) + 1          # header, hands, total
    running = dict.fromkeys(match.players, 0)
    for row, rec in zip(rows[1:-1], match.history, strict=True):
        if rec.winner_name is not None:
            running[rec.winner_name] += rec.result.points
        assert row == [str(rec.number), rec.roles[Role.BOX], rec.result.outcome.label,
                       *(str(running[p]) for p in match.players)]
    total = rows[-1]
    assert total[0] == "Total"
    assert [int(x) for x in total[1:]] == [match.scores[p] for p in match.players]
    scored = page.locator(".bg-scoresheet-readout tr:nth-last-child(2) td.bg-scored")
    if record.winner_name is None:
        assert scored.count() == 0
    else:
        index = match.players.index(record.winner_name)
        assert scored.count() == 1
        assert re.fullmatch(r"\d+", scored.inner_text().strip())
        assert int(scored.inner_text()) == int(rows[-2][3 + index])


def test_the_sitters_seat_watches_and_advises(page: Any, app_url: str) -> None:
    set_language("en")
    page.goto(app_url)
    page.locator(".bg-name input").fill(NAME)
    page.locator(".bg-seat select").select_option(label="sitter")
    page.locator("button.bg-btn-start").click()
    page.locator(".bg-game-table .bg-status").wait_for()
    players = scoresheet(page)[0][3:]
    match = Match.new(players, STANDARD, SEED)
    assert match.role_of(NAME) is Role.SITTER
    captain = match.roles[Role.CAPTAIN]
    steps = 0
    while not match.history:
        run_bots(match, NAME)
        if match.history:
            break
        wait_state(page, expected_state(match, NAME, over=False))
        view = match.view(NAME)
        assert isinstance(view, SitterView) and view.hand == () and not view.my_turn
        assert page.locator(".bg-my-hand .bg-card-button").count() == len(view.watching)
        if steps == 1:
            # "Let the captain decide": the bot captain plays its own choice.
            own = greedy_bot(view)
            page.locator("button.bg-btn-no-advice").click()
            match.apply(own, player=captain)
        else:
            play_human(page, match, greedy_bot(view), captain)
        steps += 1
    wait_state(page, expected_state(match, NAME, over=True))
    check_hand_result(page, match)
    assert steps >= 3
