"""Translations: complete, current, with every placeholder kept; language selection."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from box_gin import i18n
from box_gin.catalogs import extract, fields, problems, read

LANGS = i18n.LANGUAGES[1:]


@pytest.fixture(scope="module")
def template():  # type: ignore[no-untyped-def]
    return extract()


@pytest.fixture(autouse=True)
def english():  # type: ignore[no-untyped-def]
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_is_complete_current_and_keeps_placeholders(lang: str, template) -> None:  # type: ignore[no-untyped-def]
    found = problems(lang, template)
    assert not found, f"{len(found)} problems in the {lang} catalog:\n" + "\n".join(found[:40])


def test_the_checker_of_catalogs_can_fail(template, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A lost placeholder, a missing and a fuzzy entry are each reported."""
    from babel.messages.catalog import Catalog

    catalog = Catalog(locale="fr", domain=i18n.DOMAIN)
    ids = [m.id for m in template if m.id and isinstance(m.id, str) and fields(m.id)]
    catalog.add(ids[0], "sans champ")
    catalog.add(ids[1], "x", flags=["fuzzy"])
    catalog.add("a message no longer in the source", "x")
    monkeypatch.setattr("box_gin.catalogs.read", lambda lang: catalog)
    found = "\n".join(problems("fr", template))
    assert "placeholders changed" in found
    assert "stale" in found
    assert "missing" in found
    assert "obsolete" in found


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_follow_the_language(lang: str) -> None:
    """Each catalog has as many plural forms as the language's CLDR rules (uk: 3)."""
    from babel.messages.plurals import get_plural

    catalog = read(lang)
    assert catalog.num_plurals == get_plural(lang).num_plurals
    assert read("uk").num_plurals == 3 and read("id").num_plurals == 1


@pytest.mark.parametrize("lang", LANGS)
def test_engine_messages_are_translated(lang: str) -> None:
    from box_gin import Role

    i18n.set_language(lang)
    assert Role.CAPTAIN.label != "captain"
    with pytest.raises(ValueError) as err:
        from box_gin import parse_cards

        parse_cards("1H")
    assert "'1H'" in str(err.value)
    assert "not a card" not in str(err.value)


def test_unknown_language_is_refused_and_changes_nothing() -> None:
    i18n.set_language("fr")
    with pytest.raises(ValueError, match="xx"):
        i18n.set_language("xx")
    assert i18n.get_language() == "fr"


def test_listeners_hear_each_change() -> None:
    heard: list[str] = []
    remove = i18n.on_language_change(heard.append)
    i18n.set_language("hu")
    i18n.set_language("he")
    remove()
    i18n.set_language("fr")
    assert heard == ["hu", "he"]
    assert i18n.is_rtl("he") and not i18n.is_rtl("fr")


@pytest.mark.parametrize(("env", "expected"), [
    ({"BOX_GIN_LANG": "uk"}, "uk"),
    ({"LC_ALL": "C", "LANG": "C"}, "en"),
])
def test_language_from_the_environment(env: dict[str, str], expected: str) -> None:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("BOX_GIN_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")}
    code = ("import locale\n"
            "try:\n    locale.setlocale(locale.LC_ALL, '')\nexcept locale.Error:\n    pass\n"
            "from box_gin import i18n; print(i18n.get_language())")
    out = subprocess.run([sys.executable, "-c", code], env=clean | env, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == expected


def test_no_translation_call_hides_inside_an_f_string() -> None:
    """The extractor cannot see ``_()`` inside an f-string: such a message would never
    reach the catalogs and would show in English in every language."""
    import re
    import tokenize
    from pathlib import Path

    import box_gin

    hidden = []
    for path in Path(box_gin.__file__).parent.rglob("*.py"):
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                if token.type == tokenize.STRING and re.match(r"^[rRbB]*[fF]", token.string) \
                        and re.search(r"\b(_|ngettext|pgettext)\(", token.string):
                    hidden.append(f"{path.name}:{token.start[0]}")
    assert not hidden, "translation calls inside f-strings: " + ", ".join(hidden)


def test_language_from_the_system_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without BOX_GIN_LANG, the system locale decides (this machine may have no id_ID
    locale installed, so the locale module's answer is stood in for)."""
    import locale

    monkeypatch.delenv("BOX_GIN_LANG", raising=False)
    monkeypatch.setattr(locale, "getlocale", lambda category=None: ("id_ID", "UTF-8"))
    i18n.set_language(None)
    assert i18n.get_language() == "id"
    monkeypatch.setattr(locale, "getlocale", lambda category=None: ("pt_BR", "UTF-8"))
    i18n.set_language(None)
    assert i18n.get_language() == "en"
    monkeypatch.setenv("BOX_GIN_LANG", "he")
    i18n.set_language(None)
    assert i18n.get_language() == "he"


# --- values in sentences -----------------------------------------------------------------

@pytest.mark.parametrize(("lang", "percent", "number", "count", "yes"), [
    ("en", "49.9%", "6.94", "2,140", "yes"),
    ("fr", "49,9\u00a0%", "6,94", "2\u202f140", "oui"),
    ("hu", "49,9%", "6,94", "2\u00a0140", "igen"),
    ("id", "49,9%", "6,94", "2.140", "ya"),
    ("he", "49.9%", "6.94", "2,140", "כן"),
])
def test_numbers_and_truth_values_are_said_the_languages_way(
        lang: str, percent: str, number: str, count: str, yes: str) -> None:
    i18n.set_language(lang)
    assert i18n.format_percent(0.4987) == percent
    assert i18n.format_number(6.944, 2) == number
    assert i18n.format_number(2140) == count
    assert i18n.yes_no(True) == yes
    assert i18n.yes_no(False) != yes and i18n.yes_no(None) == "\u2013"


# --- right to left -------------------------------------------------------------------------

def test_isolates_wrap_cards_formulas_code_and_placeholders_only_in_hebrew_text() -> None:
    lri, fsi, pdi = i18n.LRI, i18n.FSI, i18n.PDI
    assert i18n.isolate_ltr("ה־K♦ גבוה") == f"ה־{lri}K♦{pdi} גבוה"
    assert i18n.isolate_ltr("{d} − {k} = {points} נקודות") == (
        f"{lri}{{d}} − {{k}} = {{points}}{pdi} נקודות")
    assert i18n.isolate_ltr("נלקח: {card}") == f"נלקח: {fsi}{{card}}{pdi}"
    assert i18n.isolate_ltr("כתבו `raise NotImplementedError()` כאן") == (
        f"כתבו {lri}`raise NotImplementedError()`{pdi} כאן")
    assert i18n.isolate_ltr('<b class="x">{name}</b> ב־[a.ipynb](a.ipynb)') == (
        f'<b class="x">{fsi}{{name}}{pdi}</b> ב־[{lri}a.ipynb{pdi}](a.ipynb)')
    assert i18n.isolate_ltr("3 או 4 קלפים") == "3 או 4 קלפים"
    assert i18n.isolate_ltr("the K♦ and {card}") == "the K♦ and {card}"  # no Hebrew
    i18n.set_language("he")
    assert i18n._("{card} is worth {value} in deadwood").startswith(fsi)
    assert i18n.isolate("7H") == f"{fsi}7H{pdi}"
    i18n.set_language("fr")
    assert i18n.isolate("7H") == "7H"


NUMERIC = {"d", "k", "points", "value", "least", "got", "limit", "gap", "before", "after",
           "mine", "best", "n", "total", "now", "bonus", "score", "target", "public",
           "hidden", "fresh", "count", "difference", "knocker", "defender", "deadwood"}
CARDS = ["Q♠", "10♣", "7♥", "A♦", "K♠", "2♣", "9♥", "J♦"]
LTR_TOKEN = re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]|`[^`\n]+`|\d+ [−+-] \d+(?: [−+-] \d+)* = \d+")
CONTROLS = re.compile("[\u2066-\u2069]")


def _filled(text: str) -> str:
    """A message with each {placeholder} given a value: a number for a count or a number
    of points, else a card (what the widgets put there most)."""
    cards = iter(CARDS * 4)
    numbers = iter(range(26, 0, -3))

    def value(match: re.Match[str]) -> str:
        name = re.split(r"[!:.\[]", match[1])[0]
        return str(next(numbers)) if name in NUMERIC else next(cards)
    return re.sub(r"\{([^{}]*)\}", value, text)


def _reordered(text: str) -> list[str]:
    from bidi import get_display

    shown = CONTROLS.sub("", get_display(text, base_dir="R"))
    return [t for t in LTR_TOKEN.findall(CONTROLS.sub("", text)) if t not in shown]


def test_the_ui_bidi_check_can_fail() -> None:
    assert _reordered("אפשר לדפוק: " + _filled("{d} − {k} = {points}")) == ["26 − 23 = 20"]
    assert _reordered("נלקח: 2♣ עכשיו") == ["2♣"]


def test_hebrew_ui_messages_show_cards_formulas_and_code_in_logical_order() -> None:
    """Every Hebrew message of box_gin.po, as ``_()`` gives it and with its placeholders
    filled, read by the Unicode bidi algorithm in a right-to-left paragraph: each card,
    formula and code span appears whole and in its own order."""
    i18n.set_language("he")
    checked, wrong = 0, []
    for message in read("he"):
        if not message.id:
            continue
        strings = message.string
        forms = [str(f) for f in strings] if isinstance(strings, tuple | list) \
            else [str(strings or "")]
        for form in forms:
            if not form or not re.search("[\u0590-\u05ff]", form):
                continue
            shown = _filled(i18n.isolate_ltr(form))
            if LTR_TOKEN.search(shown):
                checked += 1
                if _reordered(shown):
                    wrong.append((_reordered(shown), form[:80]))
    assert checked > 100 and wrong == []


def test_a_block_in_its_own_language_holds_across_awaits_and_threads() -> None:
    """Two requests of the classroom server, one French and one Hebrew, each waiting in
    the middle of its page: each renders in its own language to the end, and the
    language of everything else never changes (the old swap of the module's language
    let the second request's exit put French back into the Hebrew one's page)."""
    import asyncio
    import threading

    from box_gin.classroom.pages import language

    seen: dict[str, list[str]] = {"fr": [], "he": []}

    async def request(lang: str, wait: asyncio.Event, done: asyncio.Event) -> None:
        with language(lang):
            seen[lang].append(i18n._("king"))
            done.set()
            await wait.wait()  # the other request runs in the meantime
            seen[lang].append(i18n._("king") + " " + i18n.get_language())

    async def both() -> None:
        first, second, go = asyncio.Event(), asyncio.Event(), asyncio.Event()
        a = asyncio.create_task(request("fr", go, first))
        await first.wait()
        b = asyncio.create_task(request("he", go, second))
        await second.wait()
        assert i18n._("king") == "king"  # outside both blocks
        go.set()
        await asyncio.gather(a, b)

    # In a thread of its own: an event loop may already run in this one (Playwright's,
    # when a browser test ran before in the same process).
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(both())
        except BaseException as exc:  # raised again below, in the test's thread
            failed.append(exc)

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(60)
    if failed:
        raise failed[0]
    assert seen == {"fr": ["roi", "roi fr"], "he": ["מלך", "מלך he"]}
    assert i18n.get_language() == "en"

    other: list[str] = []
    entered, leave = threading.Event(), threading.Event()

    def worker() -> None:
        with i18n.using("hu"):
            entered.set()
            leave.wait(60)
            other.append(i18n._("king"))

    thread = threading.Thread(target=worker)
    thread.start()
    entered.wait(60)
    here = i18n._("king")  # this thread, while the other is in Hungarian
    leave.set()
    thread.join(60)
    assert (here, other) == ("king", ["király"])
    with pytest.raises(ValueError, match="unknown language 'xx'"), i18n.using("xx"):
        pass


def test_set_language_still_sets_everyones_language_outside_blocks() -> None:
    heard: list[str] = []
    remove = i18n.on_language_change(heard.append)
    try:
        i18n.set_language("fr")
        with i18n.using("he"):
            assert i18n._("king") == "מלך" and i18n.is_rtl()
        assert i18n._("king") == "roi" and not i18n.is_rtl()
        assert heard == ["fr"]  # a block re-renders no widget
    finally:
        remove()


@pytest.mark.usefixtures("each_decision_evaluated_once")
def test_numbers_the_kit_prints_are_written_the_learners_way() -> None:
    """The leaderboard's ratings and intervals, the checker's class summary and the
    expert's reasons write decimals as the language does: 29,3 in French, not 29.3."""
    import re

    from box_gin.bots import expert_advise
    from box_gin.checker.terminal import summary as _summary
    from box_gin.hand import Hand, Role
    from box_gin.match import SitterView
    from box_gin.tournament import Settings, references, run
    from box_gin.tournament.report import leaderboard_html

    results = run([*references()], Settings(deals=1, seed=7)).to_dict()
    student = {"score": 40, "max_score": 41, "katas": {}}
    other = {"score": 37, "max_score": 41, "katas": {}}
    hand = Hand.deal(seed=3)
    pages = {}
    for lang in ("en", "fr"):
        with i18n.using(lang):
            pages[lang] = (leaderboard_html(results), _summary([student, other])[0],
                           str(expert_advise(SitterView(hand.view(Role.CAPTAIN)))))
    cells = {lang: re.findall(r'<td class="bg-num">([^<]*)</td>', page[0])
             for lang, page in pages.items()}
    ratings = {lang: [c for c in found if re.fullmatch(r"\d+[.,]\d", c)]
               for lang, found in cells.items()}
    assert len(ratings["en"]) == len(results["bots"]) >= 3
    assert ratings["fr"] == [r.replace(".", ",") for r in ratings["en"]]
    assert pages["en"][1].startswith("mean 38.5 of 41, median 38.5")
    assert "38,5" in pages["fr"][1] and "38.5" not in pages["fr"][1]
    assert "59.2" in pages["en"][2] and "59,2" in pages["fr"][2]


# --- numbers without Babel -----------------------------------------------------------------

def _babel_says(lang: str, value: float, digits: int, style: str) -> str:
    """What Babel (CLDR's patterns) writes for ``value``: the reference the kit's own
    formatting is held to."""
    from babel import Locale
    from babel.numbers import format_decimal, format_percent

    if style == "percent":
        pattern = str(Locale.parse(lang).percent_formats[None].pattern)
        if digits:
            pattern = re.sub(r"0(?![0.])", "0." + "0" * digits, pattern, count=1)
        return str(format_percent(value, format=pattern, locale=lang))
    digit = "0" if style == "number" else "#"
    pattern = "#,##0" + ("." + digit * digits if digits else "")
    return str(format_decimal(value, format=pattern, locale=lang))


_FORMATS = {"number": i18n.format_number, "short": i18n.format_short,
            "percent": i18n.format_percent}


@settings(max_examples=300, deadline=None)
@given(lang=st.sampled_from(i18n.LANGUAGES), style=st.sampled_from(sorted(_FORMATS)),
       digits=st.integers(0, 3),
       value=st.one_of(st.floats(-1e9, 1e9, allow_nan=False),
                       st.integers(-10**7, 10**7).map(lambda n: n / 8),
                       st.sampled_from([0.0, -0.0, 0.5, 2.5, -0.004, 1234.5, 0.4987])))
def test_numbers_are_written_as_babel_writes_them_without_babel(
        lang: str, style: str, digits: int, value: float) -> None:
    """Every language's numbers, counts and percentages match CLDR's as Babel formats
    them (its separators, rounding half to even, grouping, a percentage's sign), though
    the kit formats them without Babel, which JupyterLite's kernel does not load."""
    with i18n.using(lang):
        assert _FORMATS[style](value, digits) == _babel_says(lang, value, digits, style)


def test_every_language_has_its_number_symbols() -> None:
    assert set(i18n.NUMBER_SYMBOLS) == set(i18n.LANGUAGES)


def test_formatting_a_number_needs_no_babel(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in JupyterLite's kernel, where Babel is not loaded: importing it would fail."""
    import gettext

    for name in [m for m in sys.modules if m == "babel" or m.startswith("babel.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, "babel", None)
    monkeypatch.setattr(i18n, "_catalog", lambda code: gettext.NullTranslations())
    with i18n.using("fr"):
        assert (i18n.format_number(2140.5, 1), i18n.format_percent(0.4987),
                i18n.points(40.5)) == ("2\u202f140,5", "49,9\u00a0%", "40,5")


def test_a_command_run_in_process_gives_the_callers_language_back(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``box-gin ... --lang he`` run by ``cli.main`` in another program's process (a test,
    a notebook) speaks Hebrew for its run, then leaves the caller's language as it was,
    also when the command fails."""
    from box_gin.cli import main

    monkeypatch.setenv("BOX_GIN_KEY_DIR", str(tmp_path / "key"))
    wrong = tmp_path / "wrong.py"
    wrong.write_text("def card_value(card):\n    return 0\n")
    book = tmp_path / "book.json"
    i18n.set_language("fr")
    try:
        assert main(["check", str(wrong), "--lang", "he", "-q", "--no-cache",
                     "--json", str(book)]) == 0
        assert i18n.get_language() == "fr"
        assert any("\u0590" <= ch <= "\u05ff" for ch in book.read_text(encoding="utf-8"))
        assert main(["check", str(tmp_path / "missing.py"), "--lang", "he", "-q"]) != 0
        assert i18n.get_language() == "fr"
    finally:
        i18n.set_language("en")
