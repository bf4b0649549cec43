# The two set-up commands of the README. Each creates or updates .venv first.
VENV ?= .venv
OUT ?= runs/main
export HF_HUB_OFFLINE = 1
export TRANSFORMERS_OFFLINE = 1
export HF_DATASETS_OFFLINE = 1

.PHONY: venv run test lint docs bench clean

venv:
	VENV=$(VENV) bash scripts/setup_venv.sh

## main job: the default models on every suite whose data is available
run: venv
	$(VENV)/bin/sentiprobe data verify || $(VENV)/bin/sentiprobe data fetch
	$(VENV)/bin/sentiprobe run --out $(OUT)

## the test suite (real-data tests need SENTIPROBE_DATA_DIR, e.g. ../shared/data)
test: venv lint docs
	$(VENV)/bin/python -m pytest -q tests

## linter, type checker and the import layers of docs/architecture.md (part of the test command)
lint: venv
	$(VENV)/bin/ruff check src tests benchmarks tools scripts
	$(VENV)/bin/mypy src
	$(VENV)/bin/lint-imports --no-cache

## the documentation site (README + docs/) into build/site; --strict: a broken link, anchor or nav entry fails
docs: venv
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

bench: venv
	for b in benchmarks/bench_*.py; do $(VENV)/bin/python $$b || exit 1; done

clean:
	rm -rf $(VENV) runs .pytest_cache
