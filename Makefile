# `make play` and `make test` set everything up from a fresh clone and are safe to rerun.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# The engine also runs compiled by mypyc when a C compiler is at hand (COMPILE=0: interpreted only).
# The compiled build lives in its own tree, never in src: PYTHONPATH=$(COMPILED_LIB) runs it.
COMPILE      ?= 1
COMPILED     ?= build/compiled
COMPILED_LIB := $(abspath $(COMPILED))/lib
# The tests that run a second time, against the compiled build.
COMPILED_TESTS := tests/engine tests/bots tests/rl tests/scenarios tests/compiled
# `make test` runs the tests on TEST_WORKERS processes (pytest-xdist), each test file whole on one of them, so a
# module's server, browser and other shared fixtures start once (TEST_WORKERS=0: all in one process). Their
# temporary files go to a short folder of the run's own: some tests print paths there on 79-column lines.
TEST_WORKERS ?= 2
PYTEST = $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile
RUN_BUILD = if [ -d $(COMPILED_LIB)/canasta ]; then export PYTHONPATH=$(COMPILED_LIB); fi;

.PHONY: play test compiled lint typecheck bench bench-web soak clean

# The game needs the package and its web extra (the engine itself is pure standard library).
$(VENV)/.play: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	CANASTA_COMPILE=0 $(BIN)/python -m pip install --quiet -e '.[web,tui,compile]'
	@touch $@

# The tests also need the test tools and the optional extras they exercise.
$(VENV)/.test: $(VENV)/.play
	CANASTA_COMPILE=0 $(BIN)/python -m pip install --quiet -e '.[web,sheets,tui,test,ray,rl,openspiel,examples,compile]'
	@touch $@

# Compiles only when the compiled modules' sources changed (a minute or two); else checks and links.
compiled: $(VENV)/.play
	@$(BIN)/python scripts/compiled.py --dir $(COMPILED) $(if $(filter 0,$(COMPILE)),--off)

# `make play` serves the browser game on http://127.0.0.1:8000/ (PORT=... to change it).
PORT ?= 8000
play: $(VENV)/.play compiled
	$(RUN_BUILD) $(BIN)/canasta serve --port $(PORT) --open

# Browser tests use Debian's Chromium and axe-core from npm; storage tests a real PostgreSQL (all installed when missing).
# Everything runs interpreted; then the engine, bot and research tests run again against the compiled build.
test: $(VENV)/.test compiled
	@scripts/ensure-debian-package.sh chromium chromium
	@scripts/ensure-debian-package.sh pdftoppm poppler-utils
	@scripts/ensure-debian-package.sh npm npm
	@scripts/ensure-axe.sh >/dev/null
	$(BIN)/ruff check src tests benchmarks examples scripts setup.py
	$(BIN)/mypy --strict src/canasta
	pg="$$(scripts/ensure-postgres.sh $(VENV)/pg)" && tmp="$$(mktemp -d /tmp/ctXXXXXX)" && \
		CANASTA_TEST_PG="$$pg" CANASTA_BUILD=interpreted CANASTA_COMPILED_LIB=$(COMPILED_LIB) \
		$(PYTEST) --basetemp="$$tmp" && rm -rf "$$tmp"
	@if [ -d $(COMPILED_LIB)/canasta ]; then \
		echo "$(PYTEST) $(COMPILED_TESTS)   # again, compiled"; \
		tmp="$$(mktemp -d /tmp/ctXXXXXX)" && \
		CANASTA_BUILD=compiled CANASTA_COMPILED_LIB=$(COMPILED_LIB) PYTHONPATH=$(COMPILED_LIB) \
			$(PYTEST) -p no:cacheprovider --basetemp="$$tmp" $(COMPILED_TESTS) && rm -rf "$$tmp"; \
	else echo "no compiled build: the tests ran interpreted only"; fi

bench: $(VENV)/.test compiled
	$(BIN)/canasta bench --hands 2000 --seed 1
	$(BIN)/python benchmarks/engine.py --hands 500 --seed 1
	$(BIN)/python benchmarks/rl_env.py --steps 50000 --seed 1
	$(BIN)/python benchmarks/selfplay.py --hands 512 --workers 1 2
	@if [ -d $(COMPILED_LIB)/canasta ]; then $(RUN_BUILD) $(BIN)/canasta bench --hands 2000 --seed 1 && \
		$(BIN)/python benchmarks/rl_env.py --steps 50000 --seed 1; fi

# 200 tables over real websockets on loopback: moves per second and acknowledgement latency.
bench-web: $(VENV)/.test
	$(BIN)/python benchmarks/web_load.py --tables 200 --think 0.5 --seconds 30

soak: $(VENV)/.play compiled
	$(RUN_BUILD) $(BIN)/canasta soak --decisions 1000000 --seed 1

clean:
	-@scripts/ensure-postgres.sh $(VENV)/pg stop
	rm -rf $(VENV) build canasta.sqlite3* dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# Three processes on PostgreSQL behind Caddy (apt-get install caddy), clients on the same cores: tables vs ack
# p99 until it passes 100 ms, delivery across processes, then a run that SIGKILLs one process (docs/deploy.md).
.PHONY: bench-scale
bench-scale: $(VENV)/.test compiled
	$(BIN)/python benchmarks/scale.py --servers 3 --compiled --kill

# The container image (Containerfile, podman) and tests/deploy/test_stack.py against three containers of it. Not in
# `make test`: a change to src recompiles the engine in the image (minutes). docs/deploy.md, "Deploy with containers".
# `make compose-test` runs compose.yaml itself (podman-compose) as the project canasta-test on loopback ports.
.PHONY: image image-test compose-test
image:
	scripts/container-smoke.sh --build-only
image-test: $(VENV)/.test
	PYTHON=$(BIN)/python scripts/container-smoke.sh
compose-test: $(VENV)/.test
	PYTHON=$(BIN)/python scripts/container-compose.sh
