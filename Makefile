# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# One stamp per set of packages: running needs only the package (`pip install -e .`), the
# tests add their tools (`.[test]`). Each is redone when pyproject.toml changes, so
# `make run` then `make test` (or the other way round) installs what is missing.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test browser lint bench catalog clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

## Start the bot if DISCORD_TOKEN is set (in .env or the environment), else the local table.
run: $(RUN_STAMP)
	$(PY) -m bot run-or-console

## Lint and run the whole test suite, over two processes (the machines it runs on have two
## cores; worksteal evens out the long end-to-end files). PostgreSQL: see tests/conftest.py.
PYTEST_WORKERS ?= 2
test: $(TEST_STAMP) browser
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(PY) -m pytest -n $(PYTEST_WORKERS) --dist worksteal

## The browser tests (tests/web/test_browser.py) drive the system's Chromium, never one
## Playwright fetches: the one CHROMIUM names, else /usr/bin/chromium or chromium on PATH.
## When there is none, root with apt-get installs Debian's; anyone else is told how, and
## those tests fail saying so.
browser:
	@if [ -n "$${CHROMIUM:-}" ] || [ -x /usr/bin/chromium ] || command -v chromium >/dev/null; then \
	    :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "Installing Chromium for the browser tests (apt-get install chromium)..."; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	        apt-get install -y -qq chromium >/dev/null) \
	    || echo "Could not install Chromium: the browser tests will fail."; \
	else \
	    echo "No Chromium: the browser tests will fail. Install it (as root:" \
	        "apt-get install chromium) or set CHROMIUM to a Chromium binary's path."; \
	fi

## Print latency and image-size figures.
bench: $(RUN_STAMP)
	$(PY) -m bench

## Bring every language's message catalog (i18n/locale/*/LC_MESSAGES/messages.po) in step
## with the code: new messages added untranslated, gone ones dropped, translations kept.
catalog: $(RUN_STAMP)
	$(PY) -m bot catalog

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
