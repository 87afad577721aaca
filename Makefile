# Every target does its own set-up: a fresh clone needs only Python 3.10+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit golden bench-convert fidelity clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python examples/demo.py

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check agentprose_core mkdocs_agentprose sphinx_agentprose tests bench examples/demo.py docs/hooks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

golden: $(STAMP)
	$(BIN)/pytest tests/test_golden.py --regen-golden
	git diff --stat -- tests/golden

bench-convert: $(STAMP)
	$(BIN)/python bench/convert.py

# Builds a corpus of sites with many themes and measures recall, noise and structure.
fidelity: $(STAMP)
	$(BIN)/python -m pip install --quiet -r bench/fidelity/requirements.txt
	$(BIN)/python bench/fidelity.py

clean:
	rm -rf $(VENV) build dist *.egg-info examples/*/site
