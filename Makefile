# box-gin: two commands matter, `make lab` and `make test`.  Both create .venv when it
# is missing and reinstall only when pyproject.toml changed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: lab test lint typecheck pytest notebooks translations exercises bench play clean help

help:
	@echo "make lab        open JupyterLab on notebooks/"
	@echo "make test       lint, type-check and run the whole test suite"
	@echo "make notebooks  re-execute every notebook in place"
	@echo "make translations  update the notebooks' catalogs (notebooks/locale/), then write"
	@echo "                and execute notebooks/<lang>/, solutions/<lang>/, exercises/<lang>/"
	@echo "make exercises  regenerate exercises/ from solutions/"
	@echo "make bench      run the benchmarks and rewrite benchmarks/README.md's table"
	@echo "make play       serve the Game Table as a web app (Voila);"
	@echo "                options: make play ARGS='--seed 7 --lang fr --port 8866'"

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
	$(BIN)/python -m pytest $(NBVAL)

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

play: $(VENV)/.stamp-notebooks
	$(PY) -m box_gin.tools.play $(ARGS)

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .hypothesis
