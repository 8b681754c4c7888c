"""The translated notebooks: complete, faithful to the English source, and using the
glossaries of docs/translations.md (see box_gin/tools/translate_notebooks.py)."""

from __future__ import annotations

import ast
import json
import re
import shutil
import unicodedata
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from box_gin.tools import translate_notebooks as tn
from box_gin.tools.kit import kit_files

ROOT = Path(__file__).resolve().parents[1]
LANGS = tn.languages()
STARTED = [lang for lang in LANGS if tn.started(lang, ROOT)]
#: Languages whose notebooks are done; the others are built as soon as they start.
REQUIRED = ("fr", "he")
CARD = re.compile(r"(?<![\w`])(?:10|[2-9TJQKA])[CDHS♣♦♥♠](?![\w`])")
#: Glossary terms checked wherever the English uses them (others are too ambiguous in
#: English prose, such as hand, cut, pass and draw).
CHECKED = ("box", "captain", "sitter", "upcard", "stock", "discard pile", "meld", "set",
           "run", "deadwood", "knock", "knocker", "defender", "gin", "big gin", "layoff",
           "undercut", "drawn hand", "target", "seed", "arrangement", "greedy", "bot",
           "checker", "knock limit")


def catalog_messages(lang: str) -> list[tuple[tn.Source, Any]]:
    out = []
    for source in tn.sources(ROOT):
        catalog = tn.read_catalog(source.po(ROOT, lang), lang)
        assert catalog is not None, f"{source.po(ROOT, lang)} is missing"
        out += [(source, m) for m in catalog if m.id]
    return out


def code_spans(text: str) -> Counter[str]:
    return Counter(m.group(0) for m in tn.CODE_SPAN.finditer(text))


def outside_code(text: str) -> str:
    return tn.CODE_SPAN.sub(" ", text)


# --- the tool itself -----------------------------------------------------------------

def test_markdown_is_cut_by_heading_paragraph_list_item_and_table_row() -> None:
    source = ("# Title\n\nA paragraph\nover two lines.\n\n- first item\n  continued\n"
              "- second\n\n| word | meaning |\n|---|---|\n| **box** | alone |\n")
    units = tn.markdown_units(source)
    assert [(u.kind, u.text) for u in units] == [
        ("heading", "Title"), ("paragraph", "A paragraph over two lines."),
        ("list item", "first item continued"), ("list item", "second"),
        ("table row", "word | meaning"), ("table row", "**box** | alone")]
    table = {"Title": "Titre", "A paragraph over two lines.": "Un paragraphe.",
             "first item continued": "premier", "second": "second",
             "word | meaning": "mot | sens", "**box** | alone": "**box** | seul"}
    assert tn._markdown(source, units, table, "fr") == (
        "# Titre\n\nUn paragraphe.\n\n- premier\n- second\n\n| mot | sens |\n|---|---|\n"
        "| **box** | seul |\n")


def test_links_leaving_the_folder_reach_the_same_files_from_the_language_folder() -> None:
    source = ("The katas of [exercises/02_melds.ipynb](../exercises/02_melds.ipynb). Next: "
              "[03_knocking.ipynb](03_knocking.ipynb). All: [Start here](../START.ipynb).")
    units = tn.markdown_units(source)
    assert tn._markdown(source, units, {units[0].text: units[0].text}, "fr") == (
        "The katas of [exercises/fr/02_melds.fr.ipynb](../../exercises/fr/02_melds.fr.ipynb). "
        "Next: [03_knocking.fr.ipynb](03_knocking.fr.ipynb). "
        "All: [Start here](../../START.ipynb).")


def test_a_translated_notebook_is_named_with_its_language() -> None:
    """Two tabs of one notebook in two languages have two names; the kata number still
    comes first (the checker looks for a kata in the file that starts with it)."""
    for lang in LANGS:
        for source in tn.sources(ROOT):
            for path in (source.target(ROOT, lang), source.exercise(ROOT, lang)):
                if path is None:
                    continue
                assert path.name == f"{source.stem}.{lang}.ipynb", path
                assert path.name[:2] == source.path.name[:2]
    stale = [p for lang in STARTED for folder in tn.TRANSLATED
             for p in (ROOT / folder / lang).glob("*.ipynb")
             if not p.name.endswith(f".{lang}.ipynb")]
    assert stale == []


def test_the_play_notebook_keeps_the_app_as_its_cells_value() -> None:
    """The language is set before ``app()``, which stays the cell's last expression (else
    the translated play notebooks are blank), and their saved output shows the app."""
    source = next(s for s in tn.sources(ROOT) if s.stem == "play")
    english = next(c for c in tn.read_notebook(ROOT / source.path)["cells"]
                   if c["cell_type"] == "code")
    shown = [sorted(o.get("data", {})) for o in english["outputs"]]
    assert shown, "the English play notebook shows nothing"
    for lang in STARTED:
        nb = tn.read_notebook(source.target(ROOT, lang))
        cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
        body = ast.parse(tn.cell_source(cell)).body
        assert isinstance(body[-1], ast.Expr) and ast.unparse(body[-1]) == "app()", lang
        assert any(ast.unparse(n) == f"set_language('{lang}')" for n in body[:-1]), lang
        assert [sorted(o.get("data", {})) for o in cell.get("outputs", [])] == shown, (
            f"{lang}: the play notebook does not show the app")


def test_every_relative_link_of_a_notebook_reaches_a_file() -> None:
    link = re.compile(r"\]\(([^)\s:#]+\.ipynb)\)")
    checked = 0
    for folder in ("notebooks", "solutions", "exercises"):
        for path in kit_files(ROOT, f"{folder}/**/*.ipynb"):
            if "locale" in path.parts:
                continue
            for cell in tn.read_notebook(path)["cells"]:
                if cell["cell_type"] == "markdown":
                    for target in link.findall(tn.cell_source(cell)):
                        assert (path.parent / target).is_file(), f"{path}: {target}"
                        checked += 1
    assert checked >= 12, checked  # the English notebooks alone link 12 times


def test_code_gives_comments_docstrings_and_marked_strings_only() -> None:
    source = ('def f():\n    """Say hello."""\n    print("hi", "x")  # i18n\n'
              '    return "not marked"  # a comment\n### BEGIN SOLUTION\n')
    units = tn.cell_units({"cell_type": "code", "source": source})
    assert [(u.kind, u.text) for u in units] == [
        ("docstring", "Say hello."), ("string", "hi"), ("comment", "a comment")]
    table = {"Say hello.": "Dire bonjour.", "hi": "salut", "a comment": "un commentaire"}
    assert tn._code(source, units, table, "fr") == (
        'def f():\n    """Dire bonjour."""\n    print("salut", "x")\n'
        '    return "not marked"  # un commentaire\n### BEGIN SOLUTION\n')


def test_translating_every_message_into_itself_gives_back_the_english() -> None:
    for source in tn.sources(ROOT):
        nb = tn.read_notebook(ROOT / source.path)
        identity = {str(m.id): str(m.id) for m in tn.template(source, ROOT) if m.id}
        again = tn.translate_notebook(nb, identity, "fr", str(source.path))
        for index, (old, new) in enumerate(zip(nb["cells"], again["cells"], strict=True)):
            before, after = tn.cell_source(old), tn.cell_source(new)
            if old["cell_type"] == "markdown":
                before = tn.CELL_SPLIT.sub(" | ", re.sub(r"\n(?!\n|- |\||#)\s*", " ", before))
                after = tn.CELL_SPLIT.sub(" | ", after).replace("`exercises/fr/", "`exercises/")
                after = (after.replace("[exercises/fr/", "[exercises/")
                         .replace("](../../exercises/fr/", "](../exercises/")
                         .replace("](../../", "](../").replace(".fr.ipynb", ".ipynb"))
                assert " ".join(after.split()) == " ".join(before.split()), (source, index)
            else:
                after = after.replace('set_language("fr")', 'set_language("en")').replace(
                    'from box_gin.i18n import set_language\n\nset_language("en")\n\n', "")
                before = tn.MARKER.sub("", "\n".join(before.split("\n")))
                before = "\n".join(tn.MARKER.sub("", line) for line in before.split("\n"))
                assert after.startswith(before) or before in after, (source, index)


def test_a_changed_english_paragraph_reopens_only_that_message(tmp_path: Path) -> None:
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "solutions").mkdir()
    name = "01_cards_and_dealing"
    shutil.copy(ROOT / "notebooks" / f"{name}.ipynb", tmp_path / "notebooks")
    shutil.copy(ROOT / "notebooks" / "play.ipynb", tmp_path / "notebooks")
    for group, stem in (("notebooks", name), ("notebooks", "play")):
        (tmp_path / tn.LOCALE / "fr" / group).mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / tn.LOCALE / "fr" / group / f"{stem}.po",
                    tmp_path / tn.LOCALE / "fr" / group)
    source = tn.sources(tmp_path)[0]
    assert tn.missing(source, "fr", tmp_path) == []
    path = tmp_path / source.path
    text = path.read_text(encoding="utf-8")
    old = "It takes about 20 minutes."
    assert old in text
    path.write_text(text.replace(old, "It takes about 25 minutes."), encoding="utf-8")
    tn.extract(tmp_path, ["fr"])
    lacking = tn.missing(source, "fr", tmp_path)
    assert len(lacking) == 1 and "25 minutes" in lacking[0] and "fuzzy" in lacking[0]
    problems = tn.build(tmp_path, ["fr"])
    assert problems == lacking
    assert not (tmp_path / "notebooks" / "fr").exists()


def test_a_language_not_started_is_skipped_and_a_started_one_must_be_complete(
        tmp_path: Path) -> None:
    (tmp_path / "notebooks").mkdir()
    shutil.copy(ROOT / "notebooks" / "play.ipynb", tmp_path / "notebooks")
    tn.extract(tmp_path, ["hu"])
    source = tn.sources(tmp_path)[0]
    assert not tn.started("hu", tmp_path) and tn.build(tmp_path, ["hu"]) == []
    catalog = tn.read_catalog(source.po(tmp_path, "hu"), "hu")
    assert catalog is not None
    with pytest.raises(tn.TranslationError, match="no hu translation"):
        tn.translate_notebook(tn.read_notebook(tmp_path / source.path), {}, "hu")


# --- the catalogs and the generated notebooks ---------------------------------------

def test_french_and_hebrew_are_translated() -> None:
    assert set(REQUIRED) <= set(STARTED)


@pytest.mark.parametrize("lang", STARTED)
def test_no_message_missing_or_fuzzy(lang: str) -> None:
    lacking = [m for source in tn.sources(ROOT) for m in tn.missing(source, lang, ROOT)]
    assert lacking == []


@pytest.mark.parametrize("lang", STARTED)
def test_generated_notebooks_match_the_source_and_the_catalogs(lang: str) -> None:
    assert tn.problems(ROOT, [lang]) == []


@pytest.mark.parametrize("lang", STARTED)
def test_no_message_left_in_english(lang: str) -> None:
    same = [m.id for _s, m in catalog_messages(lang)
            if m.string == m.id and not any("identical" in c for c in m.user_comments)]
    assert same == []


@pytest.mark.parametrize("lang", STARTED)
def test_placeholders_code_spans_and_card_names_survive(lang: str) -> None:
    wrong = []
    for _source, m in catalog_messages(lang):
        if not m.string:
            continue
        english, text = str(m.id), str(m.string)
        if code_spans(text) != code_spans(english):
            wrong.append(("code spans", english, text))
        if Counter(tn.PLACEHOLDER.findall(outside_code(text))) != Counter(
                tn.PLACEHOLDER.findall(outside_code(english))):
            wrong.append(("placeholders", english, text))
        if Counter(CARD.findall(outside_code(text))) != Counter(
                CARD.findall(outside_code(english))):
            wrong.append(("card names", english, text))
        if any("table row" in c for c in m.auto_comments) and (
                "\n" in text or len(tn.CELL_SPLIT.split(text)) != len(
                    tn.CELL_SPLIT.split(english))):
            wrong.append(("table cells", english, text))
        if english.count("**") != text.count("**"):
            wrong.append(("bold", english, text))
    assert wrong == []


@pytest.mark.parametrize("lang", STARTED)
def test_translated_code_cells_still_parse(lang: str) -> None:
    for source in tn.sources(ROOT):
        nb = tn.read_notebook(source.target(ROOT, lang))
        for index, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                try:
                    ast.parse(tn.cell_source(cell))
                except SyntaxError as err:
                    pytest.fail(f"{source.target(ROOT, lang)} cell {index}: {err}")


@pytest.mark.parametrize("lang", STARTED)
def test_first_code_cell_sets_the_language(lang: str) -> None:
    for source in tn.sources(ROOT):
        for path in (source.target(ROOT, lang), source.exercise(ROOT, lang)):
            if path is None:
                continue
            nb = tn.read_notebook(path)
            first = next(c for c in nb["cells"] if c["cell_type"] == "code")
            assert f'set_language("{lang}")' in tn.cell_source(first), path
            # what the cell shows is its last expression's value, after the setting
            last = ast.parse(tn.cell_source(first)).body[-1]
            assert not first.get("outputs") or "set_language" not in ast.unparse(last), path


def test_hebrew_prose_is_right_to_left_and_code_is_not() -> None:
    for source in tn.sources(ROOT):
        nb = tn.read_notebook(source.target(ROOT, "he"))
        for cell in nb["cells"]:
            text = tn.cell_source(cell)
            if cell["cell_type"] == "markdown":
                assert text.startswith('<div dir="rtl">\n\n') and text.endswith("</div>")
            else:
                assert "dir=" not in text
    # matplotlib shapes right-to-left text itself (tests/test_chart_rtl.py): chart text
    # goes in as the translation, unreordered.
    sources = [tn.cell_source(c) for c in tn.read_notebook(
        ROOT / "notebooks" / "he" / "06_strategy_by_simulation.he.ipynb")["cells"]]
    assert any("ax.set(title=\"" in s for s in sources)
    assert not any("visual_order" in s for s in sources)


def test_exercises_have_no_answers_and_grade_in_english_names() -> None:
    from box_gin.katas.release import BEGIN

    for lang in STARTED:
        for source in tn.sources(ROOT):
            path = source.exercise(ROOT, lang)
            if path is None:
                continue
            text = path.read_text(encoding="utf-8")
            english = (ROOT / "exercises" / source.path.name).read_text(encoding="utf-8")
            assert BEGIN not in text
            names = set(re.findall(r"def (\w+)\(", english))
            assert names and names == set(re.findall(r"def (\w+)\(", text)), path


# --- the glossaries --------------------------------------------------------------------

def glossary(lang: str) -> dict[str, list[str]]:
    """English term -> the accepted translations, from docs/translations.md."""
    doc = (ROOT / "docs" / "translations.md").read_text(encoding="utf-8")
    section = re.search(rf"^## \w+ \({lang}\)\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
    assert section, f"no glossary for {lang}"
    out: dict[str, list[str]] = {}
    for line in section.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or cells[0] in ("English", "") or set(cells[0]) <= set("-"):
            continue
        alternatives = []
        for part in re.split(r"[;/()]", re.sub(r"\*|\((?:m|f)\.\)", "", cells[1])):
            part = part.split(":", 1)[-1]
            part = re.sub(r"\b(?:verb|noun|short|plural|their value|its value)\b", "", part)
            part = part.strip(" ,.\"'“”")
            if part:
                alternatives.append(part)
        for english in re.split(r"\s*/\s*", re.sub(r"\(.*?\)", "", cells[0])):
            out[english.strip().lower()] = alternatives
    return out


FINALS = str.maketrans("ךםןףץ", "כמנפצ")


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFC", text.lower()).translate(FINALS)
    return text.replace("’", "'")


def _hebrew(word: str) -> bool:
    return any("\u0590" <= ch <= "\u05ff" for ch in word)


UK_VOWELS = "аеєиіїоуюя"
#: A Ukrainian glossary word's ending: infinitive (стукнути, стукати, not карти),
#: adjective (великий), or noun/adjective vowel or soft sign (роздача, мертві, гравець).
UK_ENDING = re.compile(r"(?:[ую]ти|(?<=[аеиіоя])ти|ий|ій|[аяоеєіїиуюйь])$")
#: The case endings that may follow a short Ukrainian stem (ціл-ь, ціл-і, ціл-лю, сет-ом).
UK_CASE = r"(?:{last}?[юя]|[аяуюіїиеєоь]|[оеє]м|[ая]м|[ая]х|[ая]ми|[іїо]в|ей|[оеє]ю|[ое]ві)?"
LETTER = r"[^\W\d_]"


def _uk_pattern(word: str) -> str:
    """A Ukrainian word less its ending, found in any case: the vowel of a closed last
    syllable may alternate or drop (гравець/гравця, послідовність/послідовності), and a
    stem shorter than four letters must be followed by a case ending and the word's end
    (ціль/цілі/ціллю, but not цілком)."""
    stem = UK_ENDING.sub("", word) if len(word) > 3 else word
    closed = word[-1] not in UK_VOWELS
    alternating = re.fullmatch(rf"(.{{2,}}?)([еоі])([^{UK_VOWELS}ь]{{1,2}})", stem)
    if closed and alternating:
        head, _vowel, tail = alternating.groups()
        pattern = re.escape(head) + "[еоі]?" + re.escape(tail)
    else:
        pattern = re.escape(stem)
    if len(stem) < 4:
        pattern += UK_CASE.format(last=re.escape(stem[-1])) + f"(?!{LETTER})"
    return f"(?<!{LETTER})" + pattern


def _hu_pattern(word: str) -> str:
    """A Hungarian word with any suffixes: suffixes are added at the end, and a final a
    or e lengthens before them (kombinációt, boxban, dámát; no letter is dropped)."""
    head, last = word[:-1], word[-1:]
    return re.escape(head) + {"a": "[aá]", "e": "[eé]"}.get(last, re.escape(last))


def stems(term: str, lang: str = "") -> list[str]:
    """What of each word of a glossary translation must appear, as regular expressions:
    in Hebrew the word without article/preposition and ending; in Ukrainian the word less
    its ending, in any case (``_uk_pattern``); in Hungarian the whole word, which suffixes
    follow (``_hu_pattern``); otherwise the word less its last two letters."""
    out = []
    for word in _fold(term).split():
        word = word.strip(",.;:!?")
        if _hebrew(word):
            if len(word) > 3 and word[0] in "הבל":
                word = word[1:]
            word = re.sub(r"(?:ימ|ות|ה|ת)$", "", word) if len(word) > 3 else word
        elif lang == "uk" and len(word) >= 2:
            out.append(_uk_pattern(word))
            continue
        elif lang == "hu" and len(word) >= 2:
            out.append(_hu_pattern(word))
            continue
        elif len(word) > 4:
            word = word[: max(4, len(word) - 2)]
        if len(word) >= 2:
            out.append(re.escape(word))
    return out


def _skeleton(text: str) -> str:
    return re.sub("[וי]", "", text)


def uses(text: str, alternatives: list[str], lang: str = "") -> bool:
    folded = _fold(text)
    for alternative in alternatives:
        found = True
        for stem in stems(alternative, lang):
            if re.search(stem, folded):
                continue
            skeleton = _skeleton(stem)
            if not (_hebrew(stem) and len(skeleton) >= 3 and skeleton in _skeleton(folded)):
                found = False
                break
        if found and stems(alternative, lang):
            return True
    return False


def english_terms(text: str) -> set[str]:
    # quoted words ("box", "captain") are values of the code, not prose
    plain = re.sub(r'"[^"]*"', " ", tn.PLACEHOLDER.sub(" ", outside_code(text))).lower()
    return {term for term in CHECKED
            if re.search(rf"\b{re.escape(term)}(?:s|es|ed|ing)?\b", plain)}


def not_glossary(source: tn.Source) -> dict[str, set[str]]:
    """msgid -> English terms used there in another sense (a verb: "run the cells"), as
    noted by a translator comment ``# not glossary: run (verb)`` in any language."""
    out: dict[str, set[str]] = {}
    for lang in LANGS:
        for m in tn.read_catalog(source.po(ROOT, lang), lang) or ():
            for comment in m.user_comments if m.id else ():
                if comment.startswith("not glossary:"):
                    terms = re.sub(r"\(.*?\)", "", comment.split(":", 1)[1])
                    out.setdefault(str(m.id), set()).update(
                        t.strip().lower() for t in re.split(r"[,;]", terms))
    return out


def glossary_misses(lang: str) -> list[tuple[str, str, str]]:
    words = glossary(lang)
    misses = []
    for source in tn.sources(ROOT):
        table = tn.translations(source, lang, ROOT)
        skipped = not_glossary(source)
        nb = tn.read_notebook(ROOT / source.path)
        for cell in nb["cells"]:
            units = tn.cell_units(cell)
            wanted: set[str] = set()
            for unit in units:
                wanted |= english_terms(unit.text) - skipped.get(unit.text, set())
            translated = " ".join(table.get(u.text, "") for u in units)
            for term in sorted(wanted):
                if term in words and not uses(translated, words[term], lang):
                    misses.append((str(source.path), term, translated[:120]))
    return misses


@pytest.mark.parametrize("lang", STARTED)
def test_glossary_terms_are_translated_as_the_glossary_says(lang: str) -> None:
    assert glossary_misses(lang) == []


def test_glossary_check_can_fail() -> None:
    words = glossary("fr")
    assert words["deadwood"] and uses("un reste de 14", words["deadwood"])
    assert not uses("il garde du bois mort", words["deadwood"])
    assert uses("השחקן בקופסה דופק", glossary("he")["knock"])
    assert not uses("השחקן בקופסה זורק", glossary("he")["knock"])


def test_ukrainian_terms_are_found_in_any_case_and_only_there() -> None:
    words = glossary("uk")
    assert uses("мертві карти гравця, що стукнув", words["knocker"], "uk")
    assert uses("три карти поспіль: послідовності", words["run"], "uk")
    assert uses("хто першим досягне цілі", words["target"], "uk")
    assert uses("гра з ціллю 100", words["target"], "uk")
    assert uses("капітанові", words["captain"], "uk")
    assert not uses("хто першим набере 100 очок", words["target"], "uk")
    assert not uses("гравця цілком захищено", words["target"], "uk")
    assert not uses("бокс стукає", words["run"], "uk")
    assert not uses("карти гравця", words["knocker"], "uk")


def test_hungarian_terms_take_suffixes_but_keep_their_letters() -> None:
    words = glossary("hu")
    assert uses("a kopogó maradékát", words["deadwood"], "hu")
    assert uses("a kombinációkat", words["meld"], "hu")
    assert uses("ginnel zár", words["gin"], "hu")
    assert not uses("3 lap maradt a talonban", words["deadwood"], "hu")
    assert not uses("a box kopog", words["meld"], "hu")


def test_languages_are_those_of_the_kit() -> None:
    assert json.dumps(sorted(LANGS)) == json.dumps(sorted(["fr", "hu", "uk", "id", "he"]))


# --- one glossary for the notebooks and the UI --------------------------------------------

#: In the UI's messages (CLI help, errors, the checker's report) "run" and "set" are
#: nearly always verbs ("run the cell", "a set of rules"), and 'box' in quotes or
#: box-gin is code or the kit's name: those are not checked there.
UI_SKIPPED = {"run", "set"}


def ui_messages(lang: str) -> list[tuple[str, list[str], set[str]]]:
    """(English, translations, terms marked ``not glossary``) of every box_gin.po entry."""
    from box_gin import catalogs

    out = []
    for m in catalogs.read(lang):
        if not m.id:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        strs = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        skipped = {t.strip().lower() for c in m.user_comments if c.startswith("not glossary:")
                   for t in re.split(r"[,;]", re.sub(r"\(.*?\)", "", c.split(":", 1)[1]))}
        out.append((str(ids[0]), [str(s) for s in strs if s], skipped))
    return out


def ui_glossary_misses(lang: str) -> list[tuple[str, str, str]]:
    words = glossary(lang)
    misses = []
    for english, strings, skipped in ui_messages(lang):
        plain = re.sub(r"'[^']*'|box-gin|box_gin[\w.]*|\brule \w+|\w+(?:\.\w+)+", " ", english)
        for term in sorted(english_terms(plain) - skipped - UI_SKIPPED):
            if term in words and strings and not any(uses(s, words[term], lang)
                                                     for s in strings):
                misses.append((term, english[:80], strings[0][:80]))
    return misses


@pytest.mark.parametrize("lang", REQUIRED)
def test_the_ui_uses_the_notebooks_glossary(lang: str) -> None:
    """box_gin.po (widgets, feedback, the checker) follows the same table as the
    notebooks' catalogs: one word per thing in both."""
    assert ui_glossary_misses(lang) == []


def kept_out(lang: str) -> dict[str, str]:
    """Words a language's glossary rejects for a term: the line ``Kept out:`` of its
    section, as ``*word* (term)`` items."""
    doc = (ROOT / "docs" / "translations.md").read_text(encoding="utf-8")
    section = re.search(rf"^## \w+ \({lang}\)\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
    assert section
    line = re.search(r"^\*\*Kept out[^*]*\*\*(.*)$", section.group(1), re.M)
    return {w: t for w, t in re.findall(r"\*([^*]+)\*\s*\(([^)]+)\)", line.group(1))} \
        if line else {}


@pytest.mark.parametrize("lang", ["fr", "hu", "he"])
def test_a_word_kept_out_of_the_glossary_is_in_neither_catalog(lang: str) -> None:
    words = kept_out(lang)
    assert words, f"docs/translations.md: no 'Kept out' line for {lang}"
    texts = [s for _e, strings, _k in ui_messages(lang) for s in strings]
    texts += [str(m.string) for _s, m in catalog_messages(lang) if m.string]
    found = sorted({(w, t[:80]) for w in words for t in texts
                    if re.search(rf"(?<!\w){re.escape(_fold(w))}(?!\w)", _fold(t))})
    assert found == []


def test_the_shared_glossary_check_can_fail() -> None:
    assert uses("Votre arrangement :", glossary("fr")["arrangement"])
    assert not uses("Votre répartition :", glossary("fr")["arrangement"])
    assert kept_out("fr")["répartition"] == "arrangement"


# --- right to left: what the Unicode bidi algorithm shows ----------------------------------

#: Left-to-right material that must read in its own order inside Hebrew: a card or run of
#: cards of one suit, a code span, a file name, a formula of numbers.
LTR_TOKEN = re.compile(r"(?:10|[2-9TJQKA])(?:-(?:10|[2-9TJQKA]))*[♣♦♥♠]|`[^`\n]+`"
                       r"|\b[\w-]+\.(?:ipynb|py|md)\b|\d+ [−+-] \d+(?: [−+-] \d+)* = \d+")
CONTROLS = re.compile("[\u2066-\u2069\u200e\u200f\u202a-\u202e]")


def visual(text: str, base: str = "R") -> str:
    """How a paragraph of direction ``base`` (R: the Hebrew prose; L: code output, which
    stays left to right) shows ``text``, left to right, without the controls."""
    from bidi import get_display

    return CONTROLS.sub("", "\n".join(get_display(line, base_dir=base)
                                       for line in text.split("\n")))


def reordered(text: str, base: str = "R") -> list[str]:
    """The left-to-right tokens of ``text`` that the bidi algorithm breaks or reverses."""
    shown = visual(text, base)
    return [t for t in LTR_TOKEN.findall(CONTROLS.sub("", text)) if t not in shown]


def test_the_bidi_check_can_fail() -> None:
    assert reordered("זרקו את ה־K♦ עכשיו") == ["K♦"]
    assert reordered("אפשר לדפוק: 26 − 4 = 22 נקודות") == ["26 − 4 = 22"]
    # printed output is a left-to-right block, where a card after Hebrew still breaks
    assert reordered("Ben הגריל 10♣", "L") == ["10♣"]
    assert reordered(tn.isolate_ltr("Ben הגריל ") + "\u206810♣\u2069", "L") == []
    assert reordered(tn.isolate_ltr("זרקו את ה־K♦, ואז 26 − 4 = 22")) == []


def test_hebrew_notebook_messages_keep_cards_formulas_and_code_in_order() -> None:
    wrong = []
    for source, m in catalog_messages("he"):
        if m.string and LTR_TOKEN.search(str(m.string)) and tn.HEBREW.search(str(m.string)):
            text = tn.isolate_ltr(str(m.string))  # as the build writes it
            if "code" not in source.stem and reordered(text):
                wrong.append((str(source.path), reordered(text), str(m.string)[:80]))
    assert wrong == []


def test_hebrew_notebooks_show_cards_in_order_in_prose_and_printed_output() -> None:
    checked, wrong = 0, []
    for source in tn.sources(ROOT):
        for cell in tn.read_notebook(source.target(ROOT, "he"))["cells"]:
            prose = cell["cell_type"] == "markdown"
            texts = [tn.cell_source(cell)] if prose else [
                "".join(o.get("text", "")) for o in cell.get("outputs", [])
                if o.get("output_type") == "stream"]
            for text in texts:
                for line in text.split("\n"):
                    if tn.HEBREW.search(line) and LTR_TOKEN.search(line):
                        checked += 1
                        if reordered(line, "R" if prose else "L"):
                            wrong.append((source.stem, reordered(line), line[:80]))
    assert checked > 50 and wrong == []
