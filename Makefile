# PhoneBuddy — `make help` lists the verbs.
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
# Re-run setup when any distribution's metadata or the pins change.
SETUP_STAMP := $(VENV)/.setup-stamp
# What `make demo` needs is a subset: a full setup also satisfies it.
DEMO_STAMP := $(VENV)/.demo-stamp
SETUP_INPUTS := infra/setup.sh constraints.txt requirements-dev.txt \
	$(wildcard libs/*/pyproject.toml services/*/pyproject.toml training-jobs/*/pyproject.toml)

.DEFAULT_GOAL := help
.PHONY: help setup fmt lint test test-slow check-dists bench up demo chart images check clean

help: ## List the verbs
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: ## Install system packages and every distribution into .venv (idempotent)
	./infra/setup.sh
	@touch $(SETUP_STAMP) $(DEMO_STAMP)

$(SETUP_STAMP): $(SETUP_INPUTS)
	./infra/setup.sh
	@touch $@ $(DEMO_STAMP)

$(DEMO_STAMP): $(SETUP_INPUTS)
	./infra/setup.sh --demo
	@touch $@

fmt: $(SETUP_STAMP) ## Format and auto-fix the code
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

lint: $(SETUP_STAMP) ## ruff: lint and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: $(SETUP_STAMP) ## Run the default test suite (real servers, no GPU, no slow tests)
	$(BIN)/pytest

test-slow: $(SETUP_STAMP) ## Run only the slow tests
	$(BIN)/pytest -m slow

check-dists: $(SETUP_STAMP) ## Install each distribution alone in a fresh venv and import all of it
	$(PY) infra/check_distributions.py

bench: $(SETUP_STAMP) ## Run the benchmarks; each prints one JSON document
	@for b in benchmarks/*.py; do $(PY) $$b || exit 1; done

up: $(SETUP_STAMP) ## Start the local stack (NATS, S3, Prometheus) in the foreground; Ctrl-C stops it
	$(BIN)/phonebuddy up

demo: $(DEMO_STAMP) ## The main job on embedded defaults: stack, teacher rollouts, SFT, eval, RL, eval, report + viewer
	$(BIN)/phonebuddy demo

chart: $(SETUP_STAMP) ## Regenerate the chart's values.schema.json and NATS users, then lint the chart
	$(PY) infra/chart_files.py
	$(BIN)/helm lint --strict charts/phonebuddy -f charts/phonebuddy/ci/cpu-only-values.yaml

images: $(SETUP_STAMP) ## Build every image offline (Debian roots + the project's wheels) into build/images; prints sizes
	$(PY) infra/images/build.py

check: lint check-dists test ## What CI runs: lint, the distribution check, then the tests

clean: ## Remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
