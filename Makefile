# The two things a new user runs (see README): `make example` and `make test`.
# Both set up .venv first. TORCH pins the CPU build that pip takes on this kind of
# machine; elsewhere, see README "Set-up" for the CPU wheel index.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH ?= torch==2.13.0

.PHONY: setup example test lint bench-validate bench-scale bench-scifact

$(VENV)/.setup-done: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "$(TORCH)" -e '.[dev,local,mcp]'
	touch $@

setup: $(VENV)/.setup-done

example: setup
	./scripts/run-example

test: setup
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q

lint: setup
	$(BIN)/ruff check curator tests benchmarks
	$(BIN)/mypy curator
