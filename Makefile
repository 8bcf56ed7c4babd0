# `make play` and `make test` set everything up from a fresh clone and are safe to rerun.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: play test lint typecheck bench bench-web soak clean

# The game needs the package and its web extra (the engine itself is pure standard library).
$(VENV)/.play: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[web,tui]'
	@touch $@

# The tests also need the test tools and the optional extras they exercise.
$(VENV)/.test: $(VENV)/.play
	$(BIN)/python -m pip install --quiet -e '.[web,sheets,tui,test,ray,rl,openspiel,examples]'
	@touch $@

# `make play` serves the browser game on http://127.0.0.1:8000/ (PORT=... to change it).
PORT ?= 8000
play: $(VENV)/.play
	$(BIN)/canasta serve --port $(PORT) --open

# Browser tests use Debian's Chromium and axe-core from npm; storage tests a real PostgreSQL (all installed when missing).
test: $(VENV)/.test
	@scripts/ensure-debian-package.sh chromium chromium
	@scripts/ensure-debian-package.sh pdftoppm poppler-utils
	@scripts/ensure-debian-package.sh npm npm
	@scripts/ensure-axe.sh >/dev/null
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy --strict src/canasta
	pg="$$(scripts/ensure-postgres.sh $(VENV)/pg)" && CANASTA_TEST_PG="$$pg" $(BIN)/python -m pytest

bench: $(VENV)/.test
	$(BIN)/canasta bench --hands 2000 --seed 1
	$(BIN)/python benchmarks/engine.py --hands 500 --seed 1
	$(BIN)/python benchmarks/rl_env.py --steps 50000 --seed 1
	$(BIN)/python benchmarks/selfplay.py --hands 512 --workers 1 2

# 200 tables over real websockets on loopback: moves per second and acknowledgement latency.
bench-web: $(VENV)/.test
	$(BIN)/python benchmarks/web_load.py --tables 200 --think 0.5 --seconds 30

soak: $(VENV)/.play
	$(BIN)/canasta soak --decisions 1000000 --seed 1

clean:
	-@scripts/ensure-postgres.sh $(VENV)/pg stop
	rm -rf $(VENV) build canasta.sqlite3* dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
