# box-gin: two commands matter, `make lab` and `make test`.  Both create .venv when it
# is missing and reinstall only when pyproject.toml changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
# nbgrader (for tests/test_nbgrader.py) has a virtual environment of its own: it would
# add the classic notebook package and its own JupyterLab extensions to .venv.
NBG    := .venv-nbgrader

.PHONY: lab test lint typecheck pytest notebooks translations exercises bench mutants play class class-load lite lite-test clean help

help:
	@echo "make lab        open the kit in JupyterLab, at START.ipynb"
	@echo "make test       lint, type-check and run the whole test suite"
	@echo "make notebooks  re-execute every notebook in place"
	@echo "make translations  update the notebooks' catalogs (notebooks/locale/), then write"
	@echo "                and execute notebooks/<lang>/, solutions/<lang>/, exercises/<lang>/"
	@echo "make exercises  regenerate exercises/ from solutions/"
	@echo "make bench      run the benchmarks and rewrite benchmarks/README.md's table"
	@echo "make mutants    the mutation run of the katas' fixed cases (a few minutes)"
	@echo "make play       serve the Game Table as a web app (Voila);"
	@echo "                options: make play ARGS='--seed 7 --lang fr --port 8866'"
	@echo "                (--host 0.0.0.0: for other machines too, with a warning)"
	@echo "make class      serve the classroom table (box-gin serve): three browsers to a game;"
	@echo "                options: make class ARGS='--host 0.0.0.0 --port 8000'"
	@echo "make lite       build the zero-install classroom (JupyterLite) into build/lite/"
	@echo "make lite-test  build it, then test it in Chromium (slow: not part of make test)"

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.stamp-notebooks: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[notebooks]'
	touch $@

$(VENV)/.stamp-test: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.stamp-notebooks

$(VENV)/.stamp-bench: pyproject.toml $(VENV)/.stamp-test
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $@

$(NBG)/.stamp: pyproject.toml
	$(PYTHON) -m venv $(NBG)
	$(NBG)/bin/python -m pip install --quiet --upgrade pip
	$(NBG)/bin/python -m pip install --quiet -e '.[nbgrader]'
	touch $@

# The JupyterLite build runs in a venv of its own: installed into .venv, the Pyodide
# kernel's labextension would load into `make lab` too.
LITE_VENV := .venv-lite
LITE_PY   := $(LITE_VENV)/bin/python

$(LITE_VENV)/.stamp-lite: pyproject.toml
	test -x $(LITE_PY) || $(PYTHON) -m venv $(LITE_VENV)
	$(LITE_PY) -m pip install --quiet --upgrade pip
	$(LITE_PY) -m pip install --quiet '.[lite]'
	touch $@

# The whole kit (START.ipynb first, notebooks/, exercises/), with the kit's Jupyter settings
# from jupyter-config/ (no news pop-up, no start-up warnings); as root it passes allow_root.
# See box_gin/tools/lab.py.  More options: make lab ARGS='--port 8890'.
lab: $(VENV)/.stamp-notebooks
	$(PY) -m box_gin.tools.lab $(CURDIR) -- $(ARGS)

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check box_gin tests benchmarks notebooks solutions exercises START.ipynb
	$(BIN)/lint-imports

typecheck: $(VENV)/.stamp-test
	$(BIN)/mypy --strict box_gin
	$(BIN)/mypy --config-file tests/mypy.ini tests benchmarks

NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

# The engine's tests (and doctests), run a second time on the other kernels: pure Python
# (BOX_GIN_PURE=1) after the default, compiled path.  Without the extension both passes
# are pure; the second says so.
ENGINE_TESTS := tests/test_cards.py tests/test_melds.py tests/test_hand.py \
	tests/test_knocking.py tests/test_layoffs.py tests/test_scoring.py tests/test_rules.py \
	tests/test_fuzz.py tests/test_properties.py tests/test_kernels.py tests/test_match.py \
	tests/test_bots.py box_gin/cards.py box_gin/kernels.py box_gin/melds.py \
	box_gin/knocking.py box_gin/layoffs.py box_gin/hand.py

# Three passes: (1) the notebooks (nbval) and the tests that share nothing, two files at
# a time; (2) what does not run beside those, three files at a time: the real browser,
# the red team and the sandbox, whose checks see every process and temporary folder of
# the machine, and the sandboxed bots (the tournament's, the bot kata's), which play
# thousands of hands (the red team's attacks mostly wait, so two files at a time left
# the two cores 11% idle, three 4%: 304 s against 325 s, 2026-12-04); (3) the engine
# again on the other kernels.  In both xdist passes the longest files are handed out
# first (tests/longest.py; --no-loadscope-reorder keeps that order): the second pass
# 263 s where it took 304 s.
ALONE := tests/browser tests/test_redteam.py tests/test_sandbox.py tests/test_tournament.py \
	tests/test_bot_kata_graded.py

pytest: $(VENV)/.stamp-test $(NBG)/.stamp
	BOX_GIN_NBGRADER_VENV=$(CURDIR)/$(NBG) BOX_GIN_REQUIRE_NBGRADER=1 \
	    $(BIN)/python -m pytest $(NBVAL) -m "not lite and not load" -n 2 --dist loadfile --no-loadscope-reorder --durations=15 \
	    $(foreach path,$(ALONE),--ignore=$(path))
	$(BIN)/python -m pytest -p no:nbval -m "not lite and not load" -n 3 --dist loadfile --no-loadscope-reorder --durations=15 \
	    $(ALONE)
	@$(PY) -c "import box_gin.kernels as k; print('The engine tests again, on the pure-Python kernels (BOX_GIN_PURE=1)' + ('' if k.IMPLEMENTATION == 'compiled' else ': the compiled extension is not built, so the first pass was pure Python too'))"
	BOX_GIN_PURE=1 $(BIN)/python -m pytest -p no:nbval $(ENGINE_TESTS)
	$(PY) tests/compiled_still.py

test: lint typecheck pytest

notebooks: $(VENV)/.stamp-test translations
	$(PY) -m box_gin.tools.execute notebooks/*.ipynb notebooks/*/*.ipynb solutions/*.ipynb

# The translated notebooks, from the English ones and notebooks/locale/<lang>/*.po; only
# notebooks whose text changed are executed again (docs/translations.md).
translations: $(VENV)/.stamp-test
	$(PY) -m box_gin.tools.translate_notebooks all -j 2

exercises: $(VENV)/.stamp-test
	$(BIN)/box-gin release solutions exercises

bench: $(VENV)/.stamp-bench
	$(PY) benchmarks/run.py --write

# The mutation run of the katas' fixed cases (docs/checker.md, "Mutation testing");
# a few minutes, so not part of make test (tests/test_mutants.py runs a sample).
mutants: $(VENV)/.stamp-test
	$(PY) -m box_gin.tools.mutate --jobs 2

play: $(VENV)/.stamp-notebooks
	$(PY) -m box_gin.tools.play $(ARGS)

# The classroom table (box_gin/classroom/, docs/classroom.md); its load test is slow and
# runs on its own (.ci/run), not in make test.
class: $(VENV)/.stamp-test
	$(BIN)/box-gin serve $(ARGS)

class-load: $(VENV)/.stamp-test
	$(BIN)/python -m pytest -p no:nbval -m load tests/test_classroom_load.py

# The site's own build (box_gin/tools/lite.py) runs every time: it is quick (the
# downloads are kept in build/lite-cache) and follows every notebook change.
lite: $(LITE_VENV)/.stamp-lite
	$(LITE_PY) box_gin/tools/lite.py

lite-test: lite $(VENV)/.stamp-test
	$(BIN)/python -m pytest -p no:nbval -m lite -rP tests/browser/test_lite.py

clean:
	rm -rf $(VENV) $(NBG) $(LITE_VENV) .mypy_cache .ruff_cache .hypothesis
