# Dinky Dau 3D: the two commands a newcomer needs.
#   make play   set up the virtual environment and run the game
#   make test   set up the virtual environment and run the tests
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: play test setup lint bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

play: $(STAMP)
	$(VENV)/bin/dinkydau play $(ARGS)

test: $(STAMP)
	$(PY) -m ruff check game tests benchmarks
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/los.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
