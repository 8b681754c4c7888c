"""The translation rules of docs/translations.md, checked over every catalog (the UI's
box_gin.po and the notebooks' .po files) and every translated notebook (markdown, code
comments and strings, stored outputs), in every language.

Each rule is a function that finds its defect in one text; each has a test feeding it a
known-bad text (the defects of issue 38) and expecting it caught, then a test over all
the texts expecting nothing found."""

from __future__ import annotations

import html
import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from box_gin.i18n import LANGUAGES, RTL_LANGUAGES, isolate_ltr
from box_gin.rtl_output import RLI, right_to_left_line
from box_gin.tools import translate_notebooks as tn

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "translations.md"
LANGS = [lang for lang in LANGUAGES if lang != "en"]
#: Languages whose suffixes and case endings depend on the value they follow.
INFLECTING = ("hu", "uk")
#: Languages that write a decimal comma.
DECIMAL_COMMA = ("fr", "hu", "uk", "id")
HEBREW = re.compile(r"[\u0590-\u05ff]")
CONTROLS = re.compile("[\u2066-\u2069\u200e\u200f\u202a-\u202e]")


# --- the texts --------------------------------------------------------------------------

def _po_strings(path: Path) -> Iterator[tuple[str, str]]:
    with path.open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if not m.id:
            continue
        english = str(m.id[0] if isinstance(m.id, tuple | list) else m.id)
        for s in m.string if isinstance(m.string, tuple | list) else [m.string]:
            if s:
                yield english, str(s)


@cache
def catalog_texts(lang: str) -> list[tuple[str, str]]:
    """(where, translation) of every message of the UI catalog and the notebooks'."""
    out = [(f"box_gin.po: {e[:50]!r}", s) for e, s in _po_strings(
        ROOT / "box_gin" / "locale" / lang / "LC_MESSAGES" / "box_gin.po")]
    for path in sorted((ROOT / tn.LOCALE / lang).rglob("*.po")):
        out += [(f"{path.relative_to(ROOT)}: {e[:50]!r}", s) for e, s in _po_strings(path)]
    return out


def notebooks(lang: str) -> list[Path]:
    return sorted(p for group in ("notebooks", "solutions", "exercises")
                  for p in (ROOT / group / lang).glob("*.ipynb"))


class _Text(HTMLParser):
    """The text of an HTML output, each piece with the direction of its nearest element
    that says one (``dir="rtl"`` / ``"ltr"``; None: none says)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str | None] = []
        self.pieces: list[tuple[str, str | None]] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.skip += 1
        said = dict(attrs).get("dir")
        self.stack.append(said or (self.stack[-1] if self.stack else None))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.skip -= 1
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.pieces.append((data, self.stack[-1] if self.stack else None))


def html_pieces(text: str) -> list[tuple[str, str | None]]:
    parser = _Text()
    parser.feed(text)
    return parser.pieces


def outputs(cell: dict[str, object]) -> Iterator[tuple[str, str]]:
    """(kind, text) of what a code cell shows: ``stream`` (printed), ``html`` (its text),
    ``value`` (the plain text of a result with no HTML view). Tracebacks are left out."""
    for out in cell.get("outputs", []):  # type: ignore[attr-defined]
        if out["output_type"] == "stream":
            yield "stream", "".join(out["text"])
        data = out.get("data", {})
        if "text/html" in data:
            yield "html", "".join(t for t, _d in html_pieces("".join(data["text/html"])))
        elif "text/markdown" in data:
            yield "html", "".join(data["text/markdown"])
        elif "text/plain" in data:
            yield "value", "".join(data["text/plain"])


def code_prose(source: str) -> str:
    """The comments and string literals of a code cell: what of it a learner reads."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    return "\n".join(t.string.lstrip("#") for t in tokens
                     if t.type in (tokenize.COMMENT, tokenize.STRING))


@cache
def notebook_texts(lang: str) -> list[tuple[str, str, str]]:
    """(where, kind, text) of every translated notebook: markdown, code (its comments and
    strings) and each output (stream, html, value)."""
    out = []
    for path in notebooks(lang):
        name = str(path.relative_to(ROOT))
        for index, cell in enumerate(tn.read_notebook(path)["cells"]):
            where = f"{name} cell {index}"
            source = tn.cell_source(cell)
            if cell["cell_type"] == "markdown":
                out.append((where, "markdown", source))
            elif cell["cell_type"] == "code":
                out.append((where, "code", code_prose(source)))
                out += [(where, kind, text) for kind, text in outputs(cell)]
    return out


def all_texts(lang: str) -> list[tuple[str, str]]:
    return [*catalog_texts(lang), *((w, t) for w, _k, t in notebook_texts(lang))]


#: What is code, not prose: code spans, placeholders, HTML tags, web addresses.
NOT_PROSE = re.compile(r"(`+)(?:(?!\1).)+?\1|\{[^{}]*\}|<[^<>]*>|https?://\S+|\]\([^)]*\)",
                       re.S)


def prose(text: str) -> str:
    return NOT_PROSE.sub(" ", CONTROLS.sub("", text))


# --- the word lists of docs/translations.md --------------------------------------------

def _section(lang: str) -> str:
    doc = DOC.read_text(encoding="utf-8")
    found = re.search(rf"^## \w+ \({lang}\)\n(.*?)(?=^## |\Z)", doc, re.S | re.M)
    assert found, f"docs/translations.md has no section for {lang}"
    return found.group(1)


def listed(lang: str, label: str) -> list[str]:
    """The ``*words*`` of the line of ``lang``'s section that starts with ``**label``,
    leaving out those inside its notes' parentheses."""
    line = re.search(rf"^\*\*{re.escape(label)}[^*]*\*\*(.*)$", _section(lang), re.M)
    if not line:
        return []
    return re.findall(r"\*([^*]+)\*", re.sub(r"\([^()]*\)", "", line.group(1)))


def _words(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


# --- register ---------------------------------------------------------------------------

def register_faults(text: str, lang: str) -> list[str]:
    """The words of ``text`` that address the reader in the register ``lang`` avoids
    (docs/translations.md, "Not the reader's register"): whole words, and word endings
    written ``*-mu*``, less the words listed under "Looks so, but is not"."""
    banned = listed(lang, "Not the reader's register")
    if not banned:
        return []
    words = [w for w in banned if not w.startswith("-")]
    endings = [w[1:] for w in banned if w.startswith("-")]
    innocent = {w.casefold() for w in listed(lang, "Looks so, but is not")}
    found = []
    plain = prose(text).replace("’", "'")
    for word in words:  # a word that ends in an apostrophe (t') is followed by a letter
        end = "" if word.endswith("'") else r"(?![\w-])"
        found += re.findall(rf"(?<![\w'-]){re.escape(word)}{end}", plain, re.I)
    listed_words = {w.casefold() for w in words}
    for ending in endings:
        found += [w for w in re.findall(rf"(?<![\w'])[\w-]*{re.escape(ending)}(?!\w)", plain,
                                        re.I) if w.casefold() not in innocent | listed_words
                  and len(w) > len(ending) and not w.startswith("-")]
    return found


@pytest.mark.parametrize(("lang", "text", "found"), [
    ("id", "Saranmu untuk kapten: klik kartu yang dibuang.", ["Saranmu"]),
    ("id", "{card} menurunkan kartu matimu dari {before} ke {after}", ["matimu"]),
    ("id", "Apa saranmu?", ["saranmu"]),
    ("id", "kamu tidak punya tempat di meja {code}", ["kamu"]),
    ("id", "Kalian bertiga, masing-masing di depan komputer", ["Kalian"]),
    ("id", "tempat setiap bot bertemu setiap bot lain; ilmu peluang", []),
    ("id", "Saran Anda untuk kapten", []),
    ("fr", "Lance la cellule : tu verras ton score.", ["tu", "ton"]),
    ("fr", "Renvoie-toi la carte ; t'as vu ?", ["Renvoie-toi", "t'"]),
    ("fr", "Lancez la cellule : vous verrez votre score. Le tas, les tests.", []),
    ("uk", "Клацни карту, яку ти хочеш скинути: твоя черга.", ["ти", "хочеш", "твоя"]),
    ("uk", "Клацніть карту, яку хочете скинути: ваша черга.", []),
])
def test_the_register_check_finds_the_reader_addressed_wrongly(
        lang: str, text: str, found: list[str]) -> None:
    assert sorted(register_faults(text, lang), key=str.casefold) == sorted(
        found, key=str.casefold)


@pytest.mark.parametrize("lang", ["fr", "uk", "id"])
def test_the_reader_is_addressed_as_the_glossary_says(lang: str) -> None:
    assert listed(lang, "Not the reader's register"), f"no register list for {lang}"
    wrong = [(where, faults, text[:90]) for where, text in all_texts(lang)
             if (faults := register_faults(text, lang))]
    assert wrong == []


# --- suffixes glued to placeholders -------------------------------------------------------

#: A placeholder with letters after it, with or without a hyphen: ``{after}-ra``,
#: ``{n}-ом``, ``{format_percent(x)}-ában``.
GLUED = re.compile(r"\{[^{}]+\}[-\u2010\u2011]?[^\W\d_]+")


def glued_suffixes(text: str) -> list[str]:
    """Placeholders of ``text`` with a suffix or case ending attached, whose right form
    depends on the value (Hungarian vowel harmony, Ukrainian declension of a number)."""
    return GLUED.findall(re.sub(r"(`+)(?:(?!\1).)+?\1", " ", text))


@pytest.mark.parametrize(("text", "found"), [
    ("a talon átlagosan {expected}-re viszi le a maradékodat, a(z) {card} csak {after}-ra",
     ["{expected}-re", "{after}-ra"]),
    ("a box az eldőlt leosztások {format_percent(share)}-ában szerez pontot",
     ["{format_percent(share)}-ában"]),
    ("{games} partiból, {advised}-át nyeri meg", ["{advised}-át"]),
    ("з рахунком {n}-ом", ["{n}-ом"]),
    ("Maradék a talonból húzva, átlagosan: {expected}; a(z) {card} után: {after}", []),
    ("`f\"{x}-re\"` a kódban", []),
])
def test_the_suffix_check_finds_a_suffix_glued_to_a_value(text: str, found: list[str]) -> None:
    assert glued_suffixes(text) == found


@pytest.mark.parametrize("lang", INFLECTING)
def test_no_placeholder_takes_a_suffix(lang: str) -> None:
    wrong = [(where, glued) for where, text in catalog_texts(lang)
             if (glued := glued_suffixes(text))]
    assert wrong == []


# --- one word per concept ---------------------------------------------------------------

def kept_out_words(text: str, lang: str) -> list[str]:
    """The words of ``text`` that ``lang``'s glossary keeps out ("Kept out"), in any
    case ending (a Hungarian *partiból* is *parti*), a Hebrew word with its prefixes."""
    words = listed(lang, "Kept out")
    if not words:
        return []
    before = r"(?<![\w])(?:[והבלמשכ]{0,3}־?)?" if lang == "he" else r"(?<![\w-])"
    after = r"\w*" if lang == "hu" else r"(?!\w)"
    return re.findall(rf"{before}(?:{_words(words)}){after}", prose(text), re.I)


@pytest.mark.parametrize(("lang", "text", "found"), [
    ("hu", "{score} [{low}, {high}], {games} partiból", ["partiból"]),
    ("hu", "Egy parti keveset mond; egy játszma sem", ["parti"]),
    ("uk", "Ось огляд бокса після кількох ходів; гра боксу", ["огляд", "бокса"]),
    ("uk", "Ось погляд боксу: проста функція погляду", []),
    ("id", "pemeriksa tidak dapat menilai jawaban kata ini", ["kata"]),
    ("id", "semua latihan lulus; Apa yang ditunjukkan histogram", []),
    ("id", "latihan {kata!r} milik {student}", []),
    ("fr", "la meilleure répartition", ["répartition"]),
])
def test_the_kept_out_check_finds_the_second_word_for_a_concept(
        lang: str, text: str, found: list[str]) -> None:
    assert kept_out_words(text, lang) == found


@pytest.mark.parametrize("lang", LANGS)
def test_one_word_per_concept_everywhere(lang: str) -> None:
    """The words each glossary keeps out appear in no catalog and nowhere in a translated
    notebook, stored outputs included."""
    assert listed(lang, "Kept out"), f"docs/translations.md: no 'Kept out' line for {lang}"
    wrong = [(where, words, text[:90]) for where, text in all_texts(lang)
             if (words := kept_out_words(text, lang))]
    assert wrong == []


# --- numbers in stored outputs ---------------------------------------------------------

#: A number written with a decimal point: ``0.069``, ``59.2``.
POINT = re.compile(r"(?<![\w.,])\d+\.\d+(?![\w.])")
#: Indonesian groups thousands with a point: ``1.032``, ``16.111``.
ID_GROUPED = re.compile(r"[1-9]\d{0,2}(?:\.\d{3})+")


def point_decimals(text: str, lang: str) -> list[str]:
    """Numbers printed with a decimal point where ``lang`` writes a decimal comma."""
    found = POINT.findall(prose(text))
    if lang == "id":
        found = [n for n in found if not ID_GROUPED.fullmatch(n)]
    return found


@pytest.mark.parametrize(("lang", "text", "found"), [
    ("fr", "plain: 48,5 % [41,6 %, 55,4 %] sur 200 parties  demi-largeur 0.069", ["0.069"]),
    ("hu", "Maradék: 59.2 átlagosan", ["59.2"]),
    ("id", "sah dalam 1.032 ronde, setengah lebar 0.054", ["0.054"]),
    ("uk", "піврозмах 0,069; `round(x, 3)` у коді", []),
])
def test_the_number_check_finds_a_decimal_point(lang: str, text: str,
                                                found: list[str]) -> None:
    assert point_decimals(text, lang) == found


@pytest.mark.parametrize("lang", DECIMAL_COMMA)
def test_numbers_in_stored_outputs_are_written_the_languages_way(lang: str) -> None:
    """What a translated notebook prints (a sentence, not a bare Python value) writes its
    numbers through format_number / format_percent."""
    wrong = [(where, found, text[:90]) for where, kind, text in notebook_texts(lang)
             if kind in ("stream", "html") for line in text.split("\n")
             if (found := point_decimals(line, lang))]
    assert wrong == []


# --- Hebrew: printed lines right to left, formulas in order ----------------------------

CARD = re.compile(r"(?:10|[2-9TJQKA])[♣♦♥♠]")
MIRROR = str.maketrans("()[]{}<>", ")(][}{><")


def shown(line: str) -> str:
    """How Jupyter shows a printed line (a left-to-right block), left to right, without
    the bidi controls."""
    from bidi import get_display

    return CONTROLS.sub("", get_display(line, base_dir="L"))


def rtl_faults(line: str) -> list[str]:
    """Why a printed Hebrew line does not read right to left: not in a right-to-left
    isolate; Jupyter's left-to-right block not showing it as a right-to-left paragraph
    would; its label (before the colon) not to the right of its value; a card out of
    order."""
    from bidi import get_display

    if not HEBREW.search(line):
        return []
    faults = []
    inner = line.strip()
    if inner.startswith(RLI) and inner.endswith("\u2069"):
        inner = inner[1:-1]
    else:
        faults.append("not in a right-to-left isolate")
    logical = CONTROLS.sub("", line).strip()
    visual = shown(line).strip()
    if visual != CONTROLS.sub("", get_display(inner, base_dir="R")).strip():
        faults.append("not shown as a right-to-left paragraph")
    if logical.count(":") == 1 and visual.count(":") == 1:
        label, value = logical.split(":")
        left, right = visual.split(":")
        if HEBREW.search(label) and value.strip() and (
                not set(HEBREW.findall(label)) <= set(right)
                or value.strip()[-1].translate(MIRROR) not in left):
            faults.append("its value comes before its label")
    faults += [f"a card out of order: {card}" for card in CARD.findall(logical)
               if card not in visual]
    return faults


@pytest.mark.parametrize(("line", "why"), [
    ("הקלף הפתוח: \u20688D\u2069   בקופה: \u206831\u2069",
     ["not in a right-to-left isolate", "not shown as a right-to-left paragraph"]),
    ("✔ \u2068play\u2069: חוקית ב־\u20681,032\u2069 ידיים.",
     ["not in a right-to-left isolate", "not shown as a right-to-left paragraph"]),
    ("סיבוב \u20681\u2069: Ada 2♥, Ben 5♠, Cy 5♣",
     ["not in a right-to-left isolate", "not shown as a right-to-left paragraph",
      "its value comes before its label"]),
    ("\u2067סיבוב \u20681\u2069: Ada 2♥, Ben 5♠, Cy 5♣\u2069", ["a card out of order: 5♣"]),
    (right_to_left_line("סיבוב \u20681\u2069: Ada 2♥, Ben 5♠, Cy 5♣"), []),
    (right_to_left_line("✔ \u2068play\u2069: חוקית ב־\u20681,032\u2069 ידיים."), []),
    ("Ada {'Ada': 115}", []),
])
def test_the_rtl_check_finds_a_hebrew_line_shown_left_to_right(line: str,
                                                               why: list[str]) -> None:
    assert rtl_faults(line) == why


def html_rtl_faults(text: str) -> list[str]:
    """Hebrew text of an HTML output that is not in a ``dir="rtl"`` element (nor a line
    in a right-to-left isolate)."""
    wrong = []
    for piece, direction in html_pieces(text):
        for line in piece.split("\n"):
            if HEBREW.search(line) and direction != "rtl" and rtl_faults(line):
                wrong.append(line)
    return wrong


def test_the_html_check_finds_hebrew_in_a_left_to_right_element() -> None:
    assert html_rtl_faults('<details dir="rtl"><summary>הצגה</summary>'
                           '<pre dir="ltr">ממוצע: \u206812.2\u2069</pre></details>') == [
        "ממוצע: \u206812.2\u2069"]
    assert html_rtl_faults('<div dir="rtl"><pre>ממוצע: \u206812.2\u2069</pre></div>') == []
    assert html_rtl_faults('<pre>&lt;b&gt;Ada</pre>') == []


def test_every_line_a_hebrew_notebook_prints_reads_right_to_left() -> None:
    checked, wrong = 0, []
    for path in notebooks("he"):
        for index, cell in enumerate(tn.read_notebook(path)["cells"]):
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if out["output_type"] == "stream":
                    lines = "".join(out["text"]).split("\n")
                    checked += sum(1 for line in lines if HEBREW.search(line))
                    wrong += [(path.name, index, f, line[:80]) for line in lines
                              for f in rtl_faults(line)]
                elif "text/html" in data:
                    text = "".join(data["text/html"])
                    checked += len(HEBREW.findall(text)) > 0
                    wrong += [(path.name, index, "html", line[:80])
                              for line in html_rtl_faults(text)]
    assert checked > 50 and wrong == []


#: A formula or a sequence of cards or ranks: ``10 + K - D``, ``{d} − {k} = {points}``,
#: ``Q-K-A``, ``5-6-7``.
FORMULA = re.compile(r"(?:\{\w+\}|[A-Za-z0-9]+)(?:\s?[−+\-×=<>≤≥]\s?(?:\{\w+\}|[A-Za-z0-9]+))+")


def formulas_out_of_order(text: str) -> list[str]:
    """The formulas and card sequences of a Hebrew text that a right-to-left paragraph
    shows out of their order."""
    from bidi import get_display

    wrong = []
    for line in text.split("\n"):
        if not HEBREW.search(line):
            continue
        visual = CONTROLS.sub("", get_display(line, base_dir="R"))
        wrong += [f for f in FORMULA.findall(CONTROLS.sub("", line))
                  if re.search(r"[−+\-×=<>≤≥]", f) and f not in visual]
    return wrong


def test_the_formula_check_finds_a_formula_out_of_order() -> None:
    raw = "K >= D היא עקיפה: המגן מקבל 10 + K - D = {points}"
    assert formulas_out_of_order(raw) == ["10 + K - D = {points}"]
    assert formulas_out_of_order("ג'ין נותן לדופק 25 + D = {points}") == ["25 + D = {points}"]
    assert formulas_out_of_order(isolate_ltr(raw)) == []


def test_hebrew_formulas_and_card_sequences_keep_their_order() -> None:
    """Every Hebrew catalog message, as the kit shows it (``_()`` and the notebook build
    wrap left-to-right runs in isolates), keeps each formula and card sequence in order."""
    assert "he" in RTL_LANGUAGES
    wrong = [(where, found) for where, text in catalog_texts("he")
             if (found := formulas_out_of_order(isolate_ltr(html.unescape(text))))]
    assert wrong == []
