# `make play` and `make test` set everything up from a fresh clone and are safe to rerun.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test lint typecheck bench soak clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/canasta play

test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict src/canasta
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/canasta bench --hands 2000 --seed 1

soak: $(STAMP)
	$(BIN)/canasta soak --decisions 1000000 --seed 1

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
