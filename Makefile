# sgf-ratings: `make help` lists every target.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# RAW and OUT default to the configuration's [ingest] raw and out (relative to the configuration file);
# set them to override it: make ratings RAW=/srv/go/records CONFIG=/srv/club/ratings.toml
RAW    ?=
OUT    ?=
CONFIG ?= config/ratings.toml
BENCH_N ?= 20000
FUZZ_N ?= 100000
SCALE_N ?= 100000
SITE   ?= data/site
PYBABEL := $(BIN)/python -m babel.messages.frontend
CATALOGS := $(wildcard pipeline/locale/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)
# The package's bytecode, compiled at build time: a process started with PYTHONDONTWRITEBYTECODE (set by
# many container images, and on the project's machine) never writes __pycache__, and would otherwise
# compile every module it imports each time it starts (docs/design.md#bytecode).
BYTECODE := $(VENV)/.bytecode
SOURCES  := $(shell find pipeline -name '*.py')
PATHS  := $(if $(RAW),--raw $(RAW)) $(if $(OUT),--out $(OUT))

.DEFAULT_GOAL := help
.PHONY: help install ratings site test test-quick lint bench bench-scale bench-site bench-player bench-backtest bench-league equivalence fuzz sample check docs i18n clean

help: ## List every target with what it does
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(BYTECODE): $(STAMP) $(SOURCES)
	$(BIN)/python -m compileall -q pipeline
	touch $(BYTECODE)

# The catalogs are compiled into the package here, at build time (never when the package is imported).
pipeline/locale/%/LC_MESSAGES/messages.mo: pipeline/locale/%/LC_MESSAGES/messages.po $(STAMP)
	$(PYBABEL) compile --domain messages --directory pipeline/locale --locale $* --statistics

install: $(STAMP) $(COMPILED) $(BYTECODE) ## Create .venv, install the package with its dev tools, compile its catalogs and bytecode (done by every target that needs it)

ratings: $(STAMP) $(COMPILED) $(BYTECODE) ## Run the pipeline (CONFIG, RAW, OUT override config/ratings.toml), then show the standings
	$(BIN)/ratings run --config $(CONFIG) $(PATHS)
	$(BIN)/ratings show --config $(CONFIG) $(if $(OUT),--out $(OUT))

site: $(STAMP) $(COMPILED) $(BYTECODE) ## Write the club's static web site of the output (OUT, default data/processed) into SITE (default data/site)
	$(BIN)/ratings site $(SITE) --config $(CONFIG) $(if $(OUT),--out $(OUT))

test: $(STAMP) $(COMPILED) $(BYTECODE) ## Run the test suite on every core (set SGF_CORPORA to read the real corpora from elsewhere)
	$(BIN)/python -m pytest -n auto

test-quick: $(STAMP) $(COMPILED) $(BYTECODE) ## Run the unit tests (not marked slow) in under a minute
	$(BIN)/python -m pytest -n auto -m "not slow"

lint: $(STAMP) ## ruff, mypy --strict on pipeline/ and fuzz/, and the layers' import contracts (lint-imports)
	$(BIN)/ruff check pipeline tests bench fuzz i18n
	$(BIN)/ruff format --check pipeline tests bench fuzz i18n
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(STAMP) $(COMPILED) $(BYTECODE) ## Benchmark ingest (files/s, BENCH_N synthetic records and ../shared/corpora) and charset detection
	$(BIN)/python bench/ingest_bench.py --n $(BENCH_N)
	$(BIN)/python bench/charset_survey.py

bench-scale: $(STAMP) $(COMPILED) $(BYTECODE) ## Full, no-change and incremental runs of every rule set on a SCALE_N-game server archive
	$(BIN)/python bench/scale_bench.py --n $(SCALE_N)

bench-site: $(STAMP) $(COMPILED) $(BYTECODE) ## Time and peak memory of ratings site beside the run, on a SCALE_N-game archive and the corpora
	$(BIN)/python bench/site_bench.py --n $(SCALE_N) --corpora

bench-player: $(STAMP) $(COMPILED) $(BYTECODE) ## Time and peak memory of explain, audit --player, plot --player and show --date on a SCALE_N-game archive and the corpora
	$(BIN)/python bench/player_bench.py --n $(SCALE_N) --corpora

bench-backtest: $(STAMP) $(COMPILED) $(BYTECODE) ## Time and peak memory of ratings backtest and compare beside ratings run, on a SCALE_N-game archive
	$(BIN)/python bench/backtest_bench.py --n $(SCALE_N)

bench-league: $(STAMP) $(COMPILED) $(BYTECODE) ## Log-loss of each rule set on synthetic leagues: ranks declared once, true or noisy, strengths fixed or drifting
	$(BIN)/python bench/league_bench.py --noise 0,100,200,400 --drift 0,100 --registered

equivalence: $(STAMP) $(COMPILED) $(BYTECODE) ## Every table of every rule set's output on the sample, the corpora and a SCALE_N archive, as digests (BEFORE=DIR: compare with that checkout's)
	$(BIN)/python bench/equivalence.py record --code . --scale-n $(SCALE_N) --out bench/out/equivalence-after.json
	$(if $(BEFORE),$(BIN)/python bench/equivalence.py record --code $(BEFORE) --scale-n $(SCALE_N) --out bench/out/equivalence-before.json && $(BIN)/python bench/equivalence.py compare bench/out/equivalence-before.json bench/out/equivalence-after.json)

sample: $(STAMP) $(COMPILED) $(BYTECODE) ## Rewrite the sample records (Go: data/raw; Gomoku: data/gomoku/raw) from the project's own generator
	$(BIN)/python -m pipeline.synth sample $(or $(RAW),data/raw)
	$(BIN)/python -m pipeline.synth gomoku data/gomoku/raw

check: $(STAMP) $(COMPILED) $(BYTECODE) ## Check data/processed against the output contract (../shared/tools/check_output.py)
	$(BIN)/python ../shared/tools/check_output.py $(or $(OUT),data/processed)

fuzz: $(STAMP) $(COMPILED) $(BYTECODE) ## Fuzz the whole `ratings run` with FUZZ_N mutated records (report in fuzz/out/report.md)
	$(BIN)/python -m fuzz.driver --inputs $(FUZZ_N) --batch 10000 --seed 1 --report fuzz/out/report.md

docs: $(STAMP) ## Regenerate docs/columns.md (the column dictionary) from the Arrow schemas
	$(BIN)/python -m pipeline.reports.columns > docs/columns.md

i18n: $(STAMP) ## Extract the messages (pybabel extract), update the catalogs, draft new traditional ones from simplified (OpenCC), compile
	$(PYBABEL) extract --mapping-file babel.cfg --add-comments TRANSLATORS: --sort-by-file --width 110 \
		--project sgf-ratings --output-file pipeline/locale/messages.pot .
	$(PYBABEL) update --input-file pipeline/locale/messages.pot --output-dir pipeline/locale --domain messages \
		--no-fuzzy-matching --ignore-obsolete --width 110
	$(BIN)/python -m i18n.catalogs traditional
	$(PYBABEL) compile --domain messages --directory pipeline/locale --statistics

clean: ## Remove outputs, their generations and caches (keeps .venv)
	rm -rf data/processed/* data/processed/.gen data/processed/.cache .pytest_cache .mypy_cache .ruff_cache bench/out fuzz/out data/site site-screenshots
	touch data/processed/.gitkeep
