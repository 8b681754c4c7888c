"""A kata notebook's first slip: ``check(is_set)`` run before the cell that defines
``is_set`` says, in the learner's language, to run the kata's cell first (an IPython
handler the kata notebooks' setup import installs); any other NameError is Python's."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

from box_gin.catalogs import read
from box_gin.i18n import LANGUAGES, get_language, set_language
from box_gin.katas.hints import hint, missing_kata

SETUP = "from box_gin.i18n import set_language\nfrom box_gin.katas import check\n"


def test_a_missing_kata_function_gets_the_hint_in_the_notebooks_language() -> None:
    cells = [nbformat.v4.new_code_cell(SETUP)]
    for lang, name in (("hu", "is_set"), ("he", "best_melds")):
        cells += [nbformat.v4.new_code_cell(f"set_language({lang!r})"),
                  nbformat.v4.new_code_cell(f"check({name})")]
    cells.append(nbformat.v4.new_code_cell("check(not_a_kata)"))
    nb = nbformat.v4.new_notebook(cells=cells)
    NotebookClient(nb, kernel_name="python3", allow_errors=True, timeout=600).execute()
    errors = [[o for o in c.outputs if o.output_type == "error"] for c in nb.cells]
    before = get_language()
    try:
        for index, (lang, name) in ((2, ("hu", "is_set")), (4, ("he", "best_melds"))):
            (error,) = errors[index]
            set_language(lang)
            said = hint(name)
            assert error.ename == "NameError" and error.evalue == said
            assert error.traceback == [f"NameError: {said}"]
            english = "is not defined yet"
            assert english not in said and name in said
    finally:
        set_language(before)
    (other,) = errors[-1]          # not a kata: Python's own traceback
    assert other.evalue == "name 'not_a_kata' is not defined"
    assert len(other.traceback) > 1


def test_only_kata_names_get_the_hint() -> None:
    assert missing_kata(NameError("x", name="lay_off")) == "lay_off"
    assert missing_kata(NameError("x", name="print_it")) is None
    assert missing_kata(NameError("x")) is None


def test_the_hint_is_translated_everywhere() -> None:
    msgid = ("{name} is not defined yet: run the cell of the kata, the one with "
             "def {name}(...), first; then run check({name}) again.")
    for lang in LANGUAGES:
        if lang == "en":
            continue
        message = read(lang).get(msgid)
        assert message is not None and message.string and "{name}" in message.string
