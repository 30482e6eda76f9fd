# The two things a new user runs (see README): `make example` and `make test`.
# Both set up .venv first. TORCH pins the CPU build that pip takes on this kind of
# machine; elsewhere, see README "Set-up" for the CPU wheel index.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH ?= torch==2.13.0

.PHONY: setup example test lint snapshots screenshot bench-validate bench-scale bench-scifact

$(VENV)/.setup-done: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "$(TORCH)" -e '.[dev,local,multilingual,mcp,review,attachments]'
	touch $@

setup: $(VENV)/.setup-done

example: setup
	./scripts/run-example

test: setup
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q

# After an intended change to the review UI: rewrite its snapshot SVGs, then look at them
# (tests/review/__snapshots__/) before committing.
snapshots: setup
	$(BIN)/python -m pytest tests/review/test_snapshots.py --snapshot-update -p no:xdist -q

# The README's screenshot of the review UI on the example vault.
screenshot: setup
	$(BIN)/python scripts/review-screenshot docs/review-ui.svg

lint: setup
	$(BIN)/ruff check curator tests benchmarks
	$(BIN)/mypy curator

# Benchmarks print figures, never assert them (docs/benchmarks.md says what each measures and
# how to read it); SHARED is the folder of benchmark data beside the checkout.
SHARED ?= ../shared/data

bench-scifact: setup
	$(BIN)/curator bench $(SHARED)/scifact --mode all

bench-scale: setup
	$(BIN)/python benchmarks/scale_powershell.py

bench-validate: setup
	$(BIN)/python benchmarks/validate_proposals.py
