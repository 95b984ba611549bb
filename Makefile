# The two commands of the README: `make run` and `make test`. Both create .venv when missing,
# install the project, migrate and load the rules data, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000
# `make test` spreads the test files over one process per core (pytest-xdist), at most four: each
# process that reaches a browser test serves its own site and drives its own browser.
TEST_PROCESSES ?= auto

.PHONY: run test setup install migrate rules lint format clean chromium firefox

run: setup
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) tabletop.asgi:application

test: setup chromium firefox
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n $(TEST_PROCESSES) --maxprocesses 4 --dist loadfile $(PYTEST_ARGS)

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

# Browser tests drive Debian's Chromium; install it when missing and when we may (root or sudo).
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	{ if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else SUDO=none; fi; \
	  if [ "$$SUDO" != none ]; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium chromium-driver >/dev/null \
	    || { $$SUDO apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium chromium-driver >/dev/null; } \
	    || echo "could not install chromium: browser tests will be skipped"; \
	  else echo "chromium missing and no root: browser tests will be skipped"; fi; }

# Firefox ESR for the Firefox browser test (driven over WebDriver BiDi: no geckodriver needed).
firefox:
	@command -v firefox-esr >/dev/null 2>&1 || command -v firefox >/dev/null 2>&1 || \
	{ if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else SUDO=none; fi; \
	  if [ "$$SUDO" != none ]; then \
	    echo "installing Debian's firefox-esr for the browser tests"; \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q firefox-esr >/dev/null \
	    || { $$SUDO apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q firefox-esr >/dev/null; } \
	    || echo "could not install firefox-esr: the Firefox test will be skipped"; \
	  else echo "firefox missing and no root: the Firefox test will be skipped"; fi; }

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

clean:
	rm -rf $(VENV) var/*.sqlite3
