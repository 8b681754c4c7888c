"""`make translations` leaves no stale words in stored outputs: a generated notebook is
stamped with the UI messages its outputs show, and a changed translation of one of them
makes it out of date (box_gin/tools/notebook_stamp.py); Hebrew notebooks print right to
left from their first cell (issue 38)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from box_gin.rtl_output import RLI, RightToLeftLines
from box_gin.tools import notebook_stamp as stamps
from box_gin.tools import translate_notebooks as tn

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Show the numbers"
msgstr "Voir les chiffres"

msgid "{name} knocks with {value}"
msgstr "{name} frappe avec un reste de {value}"

msgid "New table"
msgstr "Nouvelle table"
"""


def root_with(tmp_path: Path, po: str) -> Path:
    path = stamps.ui_catalog(tmp_path, "fr")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(po, encoding="utf-8")
    return tmp_path


def executed(*printed: str) -> dict[str, Any]:
    return {"cells": [{"cell_type": "code", "source": "print(x)", "outputs": [
        {"output_type": "stream", "name": "stdout", "text": [line + "\n" for line in printed]}
    ]}], "metadata": {}}


def test_a_changed_translation_the_outputs_show_makes_the_notebook_out_of_date(
        tmp_path: Path) -> None:
    root = root_with(tmp_path, PO)
    nb = stamps.stamped(executed("Ada frappe avec un reste de 4"), "fr", root)
    assert nb["metadata"]["box_gin"]["language"] == "fr"
    assert stamps.fresh(nb, "fr", root)
    # a message the outputs do not show changes: nothing to run again
    root_with(tmp_path, PO.replace("Nouvelle table", "Une nouvelle table"))
    assert stamps.fresh(nb, "fr", root)
    # the message they show changes: its old words are in the outputs, run it again
    root_with(tmp_path, PO.replace("frappe avec un reste de", "frappe, reste :"))
    assert not stamps.fresh(nb, "fr", root)


def test_a_notebook_never_stamped_is_not_fresh(tmp_path: Path) -> None:
    root = root_with(tmp_path, PO)
    assert not stamps.fresh(executed("Ada frappe avec un reste de 4"), "fr", root)


def test_the_stamp_reads_printed_html_and_isolated_output(tmp_path: Path) -> None:
    root = root_with(tmp_path, PO)
    html = {"cells": [{"cell_type": "code", "source": "", "outputs": [{
        "output_type": "display_data",
        "data": {"text/html": ["<details><summary>Voir les chiffres</summary></details>"]}}]}],
        "metadata": {}}
    isolated = executed("\u2068Ada\u2069 frappe avec un reste de \u20684\u2069")
    assert stamps.ui_messages_hash(html, "fr", root) != stamps.ui_messages_hash(
        executed("rien"), "fr", root)
    assert stamps.ui_messages_hash(isolated, "fr", root) == stamps.ui_messages_hash(
        executed("Ada frappe avec un reste de 4"), "fr", root)


def test_the_hebrew_first_cell_prints_right_to_left_after_setting_the_language() -> None:
    source = ("from box_gin import Card\nfrom box_gin.i18n import set_language\n\n"
              'set_language("en")  # outputs in English\nCard\n')
    he = tn._with_language(source, "he")
    lines = he.split("\n")
    assert lines[1] == "from box_gin.i18n import isolate, set_language"
    assert lines[2] == tn.RTL_IMPORT
    assert lines[lines.index('set_language("he")  # outputs in English') + 1] == tn.RTL_CALL
    assert isinstance(ast.parse(he).body[-1], ast.Expr)  # the value shown stays last
    assert tn.RTL_CALL not in tn._with_language(source, "fr")


class Sink:
    def __init__(self) -> None:
        self.written: list[str] = []

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        self.written.append("<flush>")


def test_printed_hebrew_lines_go_into_a_right_to_left_isolate() -> None:
    sink = Sink()
    out = RightToLeftLines(sink)  # type: ignore[arg-type]
    out.write("סיבוב 1:")
    out.write(" Ada 5♣\nplain 1\n")
    out.write("שלום")
    assert sink.written == [f"{RLI}סיבוב 1: \u2066Ada 5♣\u2069\u2069\nplain 1\n"]
    out.flush()
    assert sink.written[1:] == [f"{RLI}שלום\u2069", "<flush>"]


def test_a_new_message_changes_no_stamp_whatever_its_words(tmp_path: Path) -> None:
    root = root_with(tmp_path, PO)
    nb = stamps.stamped(executed("Ada frappe avec un reste de 4 : capitaine"), "fr", root)
    # the outputs were made before the message existed: they cannot show it
    root_with(tmp_path, PO + '\nmsgid "captain (role)"\nmsgstr "capitaine"\n')
    assert stamps.fresh(nb, "fr", root)
    root_with(tmp_path, PO + '\nmsgid "knocks with"\nmsgstr "frappe avec"\n')
    assert stamps.fresh(nb, "fr", root)


ONE_WORD = PO + """
msgid "Deadwood"
msgstr "Reste"

msgctxt "role"
msgid "captain"
msgstr "capitaine"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} carte"
msgstr[1] "{n} cartes"
"""


def test_a_changed_translation_of_one_word_makes_the_notebook_out_of_date(
        tmp_path: Path) -> None:
    """The old stamp recognised a message only by two words in a row, so a translation
    of one word ("Reste", a role's name) changed without re-executing the notebooks
    that showed it (fr 05 and hu 04, issue 38)."""
    root = root_with(tmp_path, ONE_WORD)
    nb = stamps.stamped(executed("Reste : 9", "le capitaine passe", "3 cartes"), "fr", root)
    assert stamps.fresh(nb, "fr", root)
    for old, new in [("Reste", "Restant"), ('msgstr "capitaine"', 'msgstr "capitaine "'),
                     ('"{n} cartes"', '"{n} cartes en main"')]:
        root_with(tmp_path, ONE_WORD.replace(old, new))
        assert not stamps.fresh(nb, "fr", root), new
    # a word the outputs show only inside another word is not that message
    root_with(tmp_path, ONE_WORD)
    inside = stamps.stamped(executed("Restez assis"), "fr", root)
    root_with(tmp_path, ONE_WORD.replace("Reste", "Restant"))
    assert stamps.fresh(inside, "fr", root)


def test_a_message_that_leaves_the_catalog_makes_the_notebook_out_of_date(
        tmp_path: Path) -> None:
    root = root_with(tmp_path, ONE_WORD)
    nb = stamps.stamped(executed("Reste : 9"), "fr", root)
    root_with(tmp_path, ONE_WORD.replace('msgid "Deadwood"\nmsgstr "Reste"\n', ""))
    assert not stamps.fresh(nb, "fr", root)


def test_a_stamp_of_another_language_or_the_old_form_is_not_fresh(tmp_path: Path) -> None:
    root = root_with(tmp_path, ONE_WORD)
    nb = stamps.stamped(executed("Reste : 9"), "fr", root)
    assert not stamps.fresh(nb, "hu", root)
    old_form = {**nb, "metadata": {"box_gin": {"language": "fr",
                                               "ui_messages": "0123456789abcdef"}}}
    assert not stamps.fresh(old_form, "fr", root)


def test_a_label_or_tooltip_of_the_html_counts(tmp_path: Path) -> None:
    po = PO + '\nmsgid "Expected points of every action"\nmsgstr "Points espérés"\n'
    root = root_with(tmp_path, po)
    nb = stamps.stamped({"cells": [{"cell_type": "code", "source": "", "outputs": [{
        "output_type": "display_data", "data": {"text/html": [
            '<ul aria-label="Points espérés"><li>+4,4</li></ul>']}}]}], "metadata": {}},
        "fr", root)
    root_with(tmp_path, po.replace("Points espérés", "Points attendus"))
    assert not stamps.fresh(nb, "fr", root)


def test_the_kit_s_notebooks_are_stamped_with_the_one_word_messages_they_show(
        tmp_path: Path) -> None:
    """fr 05 and hu 04, the notebooks whose changed words the old stamp missed: each
    records messages of one word that its outputs show, and changing one of those
    translations alone (in a copy of the catalog) makes the committed notebook out of
    date."""
    import json

    from babel.messages.pofile import read_po, write_po

    root = Path(__file__).resolve().parents[1]
    for lang, name in [("fr", "05_three_player_game"), ("hu", "04_scoring")]:
        nb = json.loads((root / "notebooks" / lang / f"{name}.{lang}.ipynb").read_text(
            encoding="utf-8"))
        assert stamps.fresh(nb, lang, root), (lang, name)
        used = set(nb["metadata"]["box_gin"]["ui_used"])
        with stamps.ui_catalog(root, lang).open("rb") as f:
            catalog = read_po(f)
        one_word = [m for m in catalog if isinstance(m.id, str) and m.id
                    and isinstance(m.string, str) and m.string.isalpha()
                    and stamps.message_key(m.context, (m.id,)) in used]
        assert one_word, (lang, name)
        one_word[0].string = f"{one_word[0].string}x"
        copy = stamps.ui_catalog(tmp_path / lang, lang)
        copy.parent.mkdir(parents=True)
        with copy.open("wb") as f:
            write_po(f, catalog)
        assert not stamps.fresh(nb, lang, tmp_path / lang), one_word[0].id
