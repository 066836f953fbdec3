# Pegboard: `make run` serves the demo club, `make serve` your own club (see "Start your own
# club" in docs/operators/install.md), `make test` runs the whole suite (on every core), `make
# docs` builds the docs.
# Both create .venv with the machine's python3 on first use and are safe to run again.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

# The demo site runs in development mode unless the environment says otherwise.
export DEBUG ?= 1

.PHONY: run serve test install migrate demo bench bench-clubs docs lint format clean

# Every recipe line that `make bench` runs is silent on standard output (`@`, its own output sent
# to standard error), so `make bench > bench.json` holds the JSON document alone, even on a fresh
# clone. (Run from another folder, `make -C pegboard` prints "Entering directory" on standard
# output before it reads this file: add --no-print-directory there.)

$(BIN)/python:
	@echo "creating $(VENV) with $(PYTHON)" >&2
	@$(PYTHON) -m venv $(VENV) >&2

$(STAMP): pyproject.toml | $(BIN)/python
	@echo "installing Pegboard and its dependencies into $(VENV)" >&2
	@$(BIN)/python -m pip install --quiet --upgrade pip >&2
	@$(BIN)/python -m pip install --quiet -e '.[dev]' >&2
	@touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py load_demo

run: demo
	@echo "Pegboard is at http://$(HOST):$(PORT)/ (demo logins in README.md; Ctrl-C stops it)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Your own club (made with `manage.py club_create`): migrates and serves, without the demo club.
serve: migrate
	@echo "Pegboard is at http://$(HOST):$(PORT)/ (Ctrl-C stops it)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# The suite runs in one worker process per core (pytest-xdist), each taking tests from the others'
# queues when its own runs dry (`--dist worksteal`: a few tests take a minute, most a fraction of
# a second). Tests named in PYTEST_ARGS (`make test PYTEST_ARGS=tests/web/test_pages.py`) run in
# this one process, without workers; TEST_WORKERS=N (0: none) says otherwise. A `-n` in
# PYTEST_ARGS wins too: pytest reads the last one given.
# PYTHONDONTWRITEBYTECODE is emptied for the run: with it set, every worker and every manage.py
# the tests start compiles the project's modules (and pytest rewrites each test module's asserts)
# from the source again, instead of reading what the last run cached in __pycache__/.
TEST_WORKERS ?= $(if $(filter tests/% ./tests/%,$(PYTEST_ARGS)),0,auto)

test: install
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

# Prints one JSON document on stdout (progress goes to stderr).
bench: install
	@$(BIN)/python manage.py migrate --noinput -v 0 >&2
	@$(BIN)/python manage.py bench

# A hundred clubs on PostgreSQL (DATABASE_URL's server, else postgres@127.0.0.1:5432), in a
# database of its own that the bench creates and drops; its own JSON document on stdout.
bench-clubs: install
	@$(BIN)/python manage.py bench --clubs

# The docs (docs/, ordered by reader in mkdocs.yml) as a site in .artifacts/docs, which git
# ignores (as the suite's checks of the sources do: the theme's pages carry inline scripts).
# Strict: a warning fails the build, and every broken link between pages or to a heading is one.
docs: install
	$(BIN)/mkdocs build --strict --site-dir .artifacts/docs

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) staticfiles .artifacts/docs .pytest_cache .hypothesis
