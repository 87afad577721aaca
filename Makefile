# Every target does its own set-up: a fresh clone needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit golden bench bench-quick bench-convert fidelity fuzz realworld clean

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

# The property suites (converter, round trip, front matter, index, llms.txt) with 5,000
# examples each, then 10,000 random tag-soup fragments per engine (bench/fuzz.py).
fuzz: $(STAMP)
	AGENTPROSE_HYPOTHESIS=fuzz $(BIN)/pytest tests/test_convert_properties.py \
		tests/test_roundtrip.py tests/test_frontmatter.py tests/test_index.py \
		tests/test_llmstxt.py tests/test_hostile.py
	$(BIN)/python bench/fuzz.py --count 10000

golden: $(STAMP)
	$(BIN)/pytest tests/test_golden.py --regen-golden
	git diff --stat -- tests/golden

# Build time, CPU and memory with and without agentprose (and its competitors when they
# install), on synthetic MkDocs/Material and Sphinx/Furo sites. Never run by the tests.
# bench/perf.py needs only the standard library: the builds run in a venv of its own
# (bench/perf/benchenv.py), so a fresh clone does not wait for the test tools' install.
bench:
	$(PYTHON) bench/perf.py

bench-quick:
	$(PYTHON) bench/perf.py --quick

bench-convert: $(STAMP)
	$(BIN)/python bench/convert.py

# Builds a corpus of sites with many themes and measures recall, noise and structure.
fidelity: $(STAMP)
	$(BIN)/python -m pip install --quiet -r bench/fidelity/requirements.txt
	$(BIN)/python bench/fidelity.py

# Builds real public docs sites (checkouts in REALWORLD_DIR, see bench/realworld/README.md)
# bare and with agentprose, one at a time, and checks the outputs. Never run by the tests.
REALWORLD_DIR ?= /work/realsites
realworld: $(STAMP)
	$(BIN)/python bench/realworld/run.py --checkouts $(REALWORLD_DIR)

clean:
	rm -rf $(VENV) build dist *.egg-info examples/*/site
