# sgf-ratings: `make help` lists every target.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
RAW    ?= data/raw
OUT    ?= data/processed
CONFIG ?= config/ratings.toml
BENCH_N ?= 20000

.DEFAULT_GOAL := help
.PHONY: help install ratings test lint bench sample check clean

help: ## List every target with what it does
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## Create .venv and install the package with its dev tools (done by every target that needs it)

ratings: $(STAMP) ## Run the whole pipeline on data/raw with config/ into data/processed, then show the standings
	$(BIN)/ratings run --config $(CONFIG) --raw $(RAW) --out $(OUT)
	$(BIN)/ratings show --out $(OUT)

test: $(STAMP) ## Run the test suite (set SGF_CORPORA to read the real corpora from elsewhere)
	$(BIN)/python -m pytest

lint: $(STAMP) ## ruff, and mypy --strict on pipeline/
	$(BIN)/ruff check pipeline tests bench
	$(BIN)/ruff format --check pipeline tests bench
	$(BIN)/mypy

bench: $(STAMP) ## Benchmark ingest (files/s, BENCH_N synthetic records and ../shared/corpora) and charset detection
	$(BIN)/python bench/ingest_bench.py --n $(BENCH_N)
	$(BIN)/python bench/charset_survey.py

sample: $(STAMP) ## Rewrite the sample records in data/raw from the project's own generator
	$(BIN)/python -m pipeline.synth sample $(RAW)

check: $(STAMP) ## Check data/processed against the output contract (../shared/tools/check_output.py)
	$(BIN)/python ../shared/tools/check_output.py $(OUT)

clean: ## Remove outputs, their generations and caches (keeps .venv)
	rm -rf $(OUT)/* $(OUT)/.gen $(OUT)/.cache .pytest_cache .mypy_cache .ruff_cache bench/out
	touch $(OUT)/.gitkeep
