# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

## Start the bot if DISCORD_TOKEN is set (in .env or the environment), else the local table.
run: $(STAMP)
	$(PY) -m bot run-or-console

## Lint and run the whole test suite.
test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest

## Print latency and image-size figures.
bench: $(STAMP)
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
