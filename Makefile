# The two set-up commands are `make demo` and `make test`; both bootstrap a fresh machine.
SHELL := /bin/bash
.DEFAULT_GOAL := help

export CARDIO_HOME ?= $(CURDIR)/var
export DAGSTER_HOME ?= $(CURDIR)
UV := $(shell command -v uv 2>/dev/null || echo $(HOME)/.local/bin/uv)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.synced

.PHONY: help install baml launcher browser postgres test demo ui lint format bench eval clean

help:
	@echo "make demo   - install everything, run the whole pipeline on the sample guidelines"
	@echo "make test   - install everything and run the test suite"
	@echo "make ui     - Dagster UI on http://127.0.0.1:3000"
	@echo "make lint   - ruff check + format check"
	@echo "make eval   - score extraction + grounding against the gold annotation (BACKEND=lexicon|llm)"

$(UV):
	@command -v uv >/dev/null 2>&1 || python3 -m pip install --quiet --user uv || python3 -m pip install --quiet --break-system-packages --user uv

# --compile-bytecode: the dependencies' .pyc files are written once here. Where the
# environment sets PYTHONDONTWRITEBYTECODE (this workplace's machines do), Python never
# writes them at import, so every process (each cardio command, Dagster run worker and step
# process, test subprocess) would compile Dagster and the rest from source again: ~4 s of a
# `cardio status` that takes ~2.7 s with them.
$(STAMP): pyproject.toml uv.lock | $(UV)
	$(UV) sync --frozen --python 3.11 --compile-bytecode
	@touch $(STAMP)

# The project's own modules likewise (stale .pyc files are ignored by Python, never wrong).
install: $(STAMP) baml launcher
	@$(PY) -m compileall -q -j 0 cardio_assets resources benchmarks tests data baml_client >/dev/null || true

# The BAML client is generated from baml_src/ by the build, never edited (and not committed).
baml: $(STAMP)
	@if [ -d baml_src ]; then $(VENV)/bin/baml-cli generate --from baml_src >/dev/null && echo "baml_client generated"; fi

# Embedded Neo4j launcher: built once from Maven Central artifacts, started by `cardio neo4j start`.
launcher:
	@if [ -f neo4j_launcher/pom.xml ]; then $(MAKE) -C neo4j_launcher build; fi

# Headless Chromium + chromedriver for tests/test_ui.py, from Debian: installed only when missing
# and running as root; otherwise a one-line notice and that test skips with how to install them.
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing chromium + chromium-driver (apt-get) for the UI test..."; \
		export DEBIAN_FRONTEND=noninteractive; \
		{ apt-get update -qq && apt-get install -y -qq chromium chromium-driver; } >/dev/null \
			|| echo "could not install chromium; tests/test_ui.py will be skipped"; \
	else \
		echo "chromium/chromedriver missing: tests/test_ui.py will be skipped (install: sudo apt-get install -y chromium chromium-driver)"; \
	fi

# PostgreSQL (Debian's package) for tests/test_postgres_instance.py, the deploy/ instance:
# installed only when missing and running as root; otherwise that test skips saying how.
postgres:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing postgresql (apt-get) for the deploy/ instance test..."; \
		export DEBIAN_FRONTEND=noninteractive; \
		{ apt-get update -qq && apt-get install -y -qq postgresql; } >/dev/null \
			|| echo "could not install postgresql; tests/test_postgres_instance.py will be skipped"; \
	else \
		echo "postgresql missing: tests/test_postgres_instance.py will be skipped (install: sudo apt-get install -y postgresql)"; \
	fi

# Two pytest-xdist workers, each with its own Neo4j and CARDIO_HOME; tests/conftest.py says
# how they are dealt out. `make test PYTEST_WORKERS=` runs them in one process.
PYTEST_WORKERS ?= -n 2 --dist loadfile --no-loadscope-reorder

test: install browser postgres
	$(VENV)/bin/pytest -q $(PYTEST_WORKERS)

demo: install
	$(VENV)/bin/cardio demo

# `dagster dev` = dagster-webserver + the daemon, which launches queued runs (dagster.yaml uses
# the QueuedRunCoordinator) and ticks the guideline inbox sensor. The guideline partitions are
# registered first, so the UI lists them at once (loading the definitions writes nothing).
ui: install
	$(VENV)/bin/cardio partitions sync
	$(VENV)/bin/dagster dev -h 127.0.0.1 -p 3000 -w workspace.yaml

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

# Quality of extraction + grounding against the gold annotation (data/gold/gold.jsonl):
# `cardio rows` on the sample documents, `cardio extract`, `cardio eval` (table + targets).
# Then the team-written row gold (data/gold/written_rows/, text in the repository).
# BACKEND=llm MODEL=<models.yaml client> scores the llm backend instead. CORPUS=<mddocs folder>
# also scores the real-row gold's development split (data/gold/real_rows/, text read from there).
BACKEND ?= lexicon
MODEL ?=
EVAL_DIR := $(CARDIO_HOME)/eval
# the -dev halves of the team-written sets (data/gold/written_rows/README.md); one more per set
WRITTEN_DEV_SPLITS ?= written1-dev,written2-dev,written3-dev,written4-dev,written5-dev,written6-dev,written7-dev,written8-dev,written9-dev,written10-dev,written11-dev,written12-dev,written13-dev,written14-dev,written15-dev,written16-dev,written17-dev,written18-dev,written19-dev,written20-dev,written21-dev,written22-dev,written23-dev
eval: $(STAMP) baml
	@umask 077 && mkdir -p $(EVAL_DIR)
	$(VENV)/bin/cardio rows data/guidelines/ccs-sample/ccs-sample.html --out $(EVAL_DIR)/ccs-sample.rows.jsonl
	$(VENV)/bin/cardio rows data/guidelines/hf-sample/hf-sample.md --out $(EVAL_DIR)/hf-sample.rows.jsonl
	umask 077 && cat $(EVAL_DIR)/ccs-sample.rows.jsonl $(EVAL_DIR)/hf-sample.rows.jsonl > $(EVAL_DIR)/rows.jsonl
	$(VENV)/bin/cardio extract --rows $(EVAL_DIR)/rows.jsonl --out $(EVAL_DIR)/pred-$(BACKEND).jsonl --backend $(BACKEND) $(if $(MODEL),--model $(MODEL))
	@echo "== sample gold (77 rows the rules were written against and the span tagger learned from: a training score)"
	$(VENV)/bin/cardio eval --pred $(EVAL_DIR)/pred-$(BACKEND).jsonl --gold data/gold/gold.jsonl
	@echo "== team-written rows, development halves (data/gold/written_rows/; first scores in the README; the -test halves are scored by hand)"
	$(PY) benchmarks/written_rows.py --split $(WRITTEN_DEV_SPLITS) --backend $(BACKEND) $(if $(MODEL),--model $(MODEL))
	@if [ -n "$(CORPUS)" ]; then \
	  echo "== real-row gold, development split (rows from $(CORPUS); rules were tuned on it, the span tagger learned it)"; \
	  $(PY) benchmarks/real_rows.py --corpus "$(CORPUS)" --split dev --backend $(BACKEND) $(if $(MODEL),--model $(MODEL)); \
	else \
	  echo "== real-row gold: pass CORPUS=<fetched mddocs/ folder> (README, Extraction quality)"; \
	fi

# Benchmarks print numbers; none of them is a test. snomed_scale builds a synthetic
# International-size release (~10 min, ~2.5 GB RAM); neo4j_load needs the local Neo4j launcher.
bench: install
	$(PY) benchmarks/lexicon_eval.py
	$(PY) benchmarks/llm_replay.py --rows 80 --delay 0.2 --concurrency 1 4 8
	$(PY) benchmarks/neo4j_load.py
	$(PY) benchmarks/ask.py
	$(PY) benchmarks/snomed_scale.py
	$(PY) benchmarks/backfill.py
	$(PY) benchmarks/rerun.py

clean:
	rm -rf var baml_client neo4j_launcher/target
