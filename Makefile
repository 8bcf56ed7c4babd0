# `make play` and `make test` set everything up from a fresh clone and are safe to rerun.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: play test lint typecheck bench soak clean

# The game needs only the package (the engine is pure standard library).
$(VENV)/.play: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	@touch $@

# The tests also need the test tools and the optional extras they exercise.
$(VENV)/.test: $(VENV)/.play
	$(BIN)/python -m pip install --quiet -e '.[test,ray]'
	@touch $@

play: $(VENV)/.play
	$(BIN)/canasta play

test: $(VENV)/.test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict src/canasta
	$(BIN)/python -m pytest

bench: $(VENV)/.play
	$(BIN)/canasta bench --hands 2000 --seed 1
	$(BIN)/python benchmarks/engine.py --hands 500 --seed 1

soak: $(VENV)/.play
	$(BIN)/canasta soak --decisions 1000000 --seed 1

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
