# The two commands of the README: `make run` and `make test`. Both create .venv when missing,
# install the project, migrate and load the rules data, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup install migrate rules lint format clean

run: setup
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) tabletop.asgi:application

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m pytest $(PYTEST_ARGS)

setup: install migrate rules

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the dependency list changes; the stamp makes `make` idempotent and fast.
$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

migrate: install
	@mkdir -p var
	$(PY) manage.py migrate --noinput

rules: migrate
	$(PY) manage.py load_rules

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) var/*.sqlite3
