# Dinky Dau 3D: the two commands a newcomer needs.
#   make play   set up the virtual environment and run the game
#   make test   set up the virtual environment and run the tests
# Both create (or update) .venv from pyproject.toml; nothing else needs installing by hand. Once installed,
# game.warm bakes the shipped tables and compiles the line of sight into .cache, so no game waits for it.
# The interpreter .venv is made from: the system's own python3 when it is 3.11 or newer, which runs the
# rules faster than a source build without its optimisations (tools/pick-python says why).
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell sh tools/pick-python)
endif
VENV   ?= .venv
PY     := $(VENV)/bin/python
BASE   := $(VENV)/.python
STAMP  := $(VENV)/.installed

.PHONY: play test setup lint bench rules-coverage clean FORCE

# .venv is made again when PYTHON names another interpreter than the one it was made from.
$(BASE): FORCE
	@if [ "$$(cat $@ 2>/dev/null)" != "$(PYTHON)" ] || ! test -x $(PY); then \
		rm -rf $(VENV) && $(PYTHON) -m venv $(VENV) && echo "$(PYTHON)" > $@; fi

$(STAMP): pyproject.toml $(BASE)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	$(PY) -m game.warm
	@touch $(STAMP)

setup: $(STAMP)

# Exit code 2 from the client means "no display here": it has already said what to run instead.
play: $(STAMP)
	@$(VENV)/bin/dinkydau play $(ARGS) || test $$? -eq 2

test: $(STAMP)
	@sh tools/install-gltf-validator.sh
	$(PY) -m ruff check game tests benchmarks models
	$(PY) -m pytest -n auto --dist loadfile $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -c "from game import compiled; compiled.main()"  # (the rules' builds as their sources are now)
	$(PY) benchmarks/engine.py
	$(PY) benchmarks/los.py
	$(PY) benchmarks/client.py

# Which rules clauses the code and the tests cite, and which are out of scope: prints the tables and
# writes docs/rules-coverage.md (tests/test_rules_coverage.py checks that it is up to date).
rules-coverage: $(STAMP)
	$(PY) tools/rules_coverage.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info .cache
