# box-gin: two commands matter, `make lab` and `make test`.  Both create .venv when it
# is missing and reinstall only when pyproject.toml changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: lab test lint typecheck pytest notebooks exercises bench play lite lite-test clean help

help:
	@echo "make lab        open JupyterLab on notebooks/"
	@echo "make test       lint, type-check and run the whole test suite"
	@echo "make notebooks  re-execute every notebook in place"
	@echo "make exercises  regenerate exercises/ from solutions/"
	@echo "make bench      run the benchmarks and rewrite benchmarks/README.md's table"
	@echo "make play       serve the Game Table as a web app (Voila);"
	@echo "                options: make play ARGS='--seed 7 --lang fr --port 8866'"
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

# The JupyterLite build runs in a venv of its own: installed into .venv, the Pyodide
# kernel's labextension would load into `make lab` too.
LITE_VENV := .venv-lite
LITE_PY   := $(LITE_VENV)/bin/python

$(LITE_VENV)/.stamp-lite: pyproject.toml
	test -x $(LITE_PY) || $(PYTHON) -m venv $(LITE_VENV)
	$(LITE_PY) -m pip install --quiet --upgrade pip
	$(LITE_PY) -m pip install --quiet '.[lite]'
	touch $@

# Jupyter refuses to run as root unless told; containers often run as root.
AS_ROOT := $(if $(filter 0,$(shell id -u)),--ServerApp.allow_root=True)

lab: $(VENV)/.stamp-notebooks
	$(BIN)/jupyter lab notebooks/ $(AS_ROOT)

lint: $(VENV)/.stamp-test
	$(BIN)/ruff check box_gin tests benchmarks

typecheck: $(VENV)/.stamp-test
	$(BIN)/mypy --strict box_gin

NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

pytest: $(VENV)/.stamp-test
	$(BIN)/python -m pytest $(NBVAL) -m "not lite"

test: lint typecheck pytest

notebooks: $(VENV)/.stamp-test
	$(PY) -m box_gin.tools.execute notebooks/*.ipynb notebooks/*/*.ipynb solutions/*.ipynb

exercises: $(VENV)/.stamp-test
	$(BIN)/box-gin release solutions exercises

bench: $(VENV)/.stamp-bench
	$(PY) benchmarks/run.py --write

play: $(VENV)/.stamp-notebooks
	$(PY) -m box_gin.tools.play $(ARGS)

# The site's own build (box_gin/tools/lite.py) runs every time: it is quick (the
# downloads are kept in build/lite-cache) and follows every notebook change.
lite: $(LITE_VENV)/.stamp-lite
	$(LITE_PY) box_gin/tools/lite.py

lite-test: lite $(VENV)/.stamp-test
	$(BIN)/python -m pytest -p no:nbval -m lite tests/browser/test_lite.py

clean:
	rm -rf $(VENV) $(LITE_VENV) .mypy_cache .ruff_cache .hypothesis
