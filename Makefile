# Every target does its own set-up: a fresh clone needs only Python 3.11+ and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: afdocs mcp-hosts demo screenshots test lint typecheck unit test-matrix test-py313 test-lowest test-ecosystem golden bench bench-quick bench-convert fidelity fuzz realworld realworld-timing realworld-instructions realworld-memory clean

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
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory afdocs mcp-hosts; \
	else echo "unit: no npm here, the afdocs and host runtime tests will be skipped (CI installs them)"; fi
	$(BIN)/pytest

# The page menu on every theme the tests build, photographed open at a desktop and a
# phone size into screenshots/ (Chromium and Playwright, as tests/test_page_menu.py).
screenshots: $(STAMP)
	AGENTPROSE_SCREENSHOTS=$(CURDIR)/screenshots $(BIN)/pytest tests/test_page_menu.py -k browser -q
	@echo "screenshots: $(CURDIR)/screenshots"

# afdocs (the Agent-Friendly Documentation Spec's checker), pinned with its lock file in
# .ci/afdocs/; tests/test_afdocs.py runs it against the demo sites.
AFDOCS_STAMP := .ci/afdocs/node_modules/.installed
afdocs: $(AFDOCS_STAMP)

$(AFDOCS_STAMP): .ci/afdocs/package.json .ci/afdocs/package-lock.json
	cd .ci/afdocs && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The hosts' local runtimes (Miniflare for Cloudflare, Deno for Netlify), pinned with their
# lock file in .ci/mcp-hosts/; tests/test_mcp_hosts.py runs the MCP functions under them.
MCP_HOSTS_STAMP := .ci/mcp-hosts/node_modules/.installed
mcp-hosts: $(MCP_HOSTS_STAMP)

$(MCP_HOSTS_STAMP): .ci/mcp-hosts/package.json .ci/mcp-hosts/package-lock.json
	cd .ci/mcp-hosts && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The tests again (pytest only: lint and types run once, in `make test`), each run in a
# venv of its own; CI runs `make test test-matrix`. Extra pytest options: PYTEST_ARGS=...
#   test-py313   Python 3.13 with the newest dependencies. PYTHON313=/path/to/python3.13
#                picks the interpreter; else .ci/find-python looks in pyenv, PATH and
#                ~/.pyenv/versions. Without one it fails under CI=true, else is skipped.
#   test-lowest  $(PYTHON) with the lowest Sphinx and MkDocs agentprose supports
#                (.ci/lowest.txt pins them, and what their age holds back).
PYTHON313 ?=
PYTEST_ARGS ?=
PY313_VENV := .venv-py313
LOWEST_VENV := .venv-lowest

test-matrix: test-py313 test-lowest

test-py313:
	@if ! .ci/find-python 3.13 $(PYTHON313) >/dev/null; then \
	  if [ "$${CI:-}" = true ]; then echo "test-py313: no Python 3.13 (CI=true: failing)" >&2; exit 1; fi; \
	  echo "test-py313: SKIPPED, no Python 3.13 here (name one with PYTHON313=...)"; exit 0; \
	fi; \
	$(MAKE) --no-print-directory $(PY313_VENV)/.installed && \
	$(PY313_VENV)/bin/python -c 'import sys; print("test-py313: Python", sys.version.split()[0])' && \
	$(PY313_VENV)/bin/pytest $(PYTEST_ARGS)

$(PY313_VENV)/.installed: pyproject.toml
	rm -rf $(PY313_VENV)
	python=$$(.ci/find-python 3.13 $(PYTHON313)) && "$$python" -m venv $(PY313_VENV)
	$(PY313_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PY313_VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $@

test-lowest: $(LOWEST_VENV)/.installed
	@$(LOWEST_VENV)/bin/python -c 'import sys, sphinx, mkdocs; print("test-lowest: Python", \
	  sys.version.split()[0], "Sphinx", sphinx.__version__, "MkDocs", mkdocs.__version__)'
	$(LOWEST_VENV)/bin/pytest $(PYTEST_ARGS)

$(LOWEST_VENV)/.installed: pyproject.toml .ci/lowest.txt
	rm -rf $(LOWEST_VENV)
	$(PYTHON) -m venv $(LOWEST_VENV)
	$(LOWEST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOWEST_VENV)/bin/python -m pip install --quiet -e '.[test]' -c .ci/lowest.txt
	touch $@

# agentprose beside the MkDocs plugins and Sphinx extensions real sites combine it with
# (tests/ecosystem/): each in a small site built bare and with agentprose, held to the
# build's invariants, strict-clean where the bare build is, and byte-identical when built
# again. The neighbours are pinned in .ci/ecosystem.txt, in a venv of their own; CI runs it.
ECOSYSTEM_VENV := .venv-ecosystem

test-ecosystem: $(ECOSYSTEM_VENV)/.installed
	AGENTPROSE_ECOSYSTEM=1 $(ECOSYSTEM_VENV)/bin/pytest tests/ecosystem $(PYTEST_ARGS)

$(ECOSYSTEM_VENV)/.installed: pyproject.toml .ci/ecosystem.txt
	rm -rf $(ECOSYSTEM_VENV)
	$(PYTHON) -m venv $(ECOSYSTEM_VENV)
	$(ECOSYSTEM_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(ECOSYSTEM_VENV)/bin/python -m pip install --quiet -e '.[test]' -r .ci/ecosystem.txt
	touch $@

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

# What agentprose adds to a cold build of four real sites: wall, CPU, peak memory,
# interleaved pairs (bench/realworld/timing.py). Run it on a quiet machine.
realworld-timing: $(STAMP)
	$(BIN)/python bench/realworld/timing.py --checkouts $(REALWORLD_DIR)

# The same four sites, one bare and one agentprose build each under valgrind: every
# process's instruction count, by role (steady where timings are not; about an hour).
realworld-instructions: $(STAMP)
	$(BIN)/python bench/realworld/timing.py --checkouts $(REALWORLD_DIR) --instructions

# Where two MkDocs sites' builds reach their peak memory, bare beside agentprose, event
# by event (bench/realworld/memory.py).
realworld-memory: $(STAMP)
	$(BIN)/python bench/realworld/memory.py --checkouts $(REALWORLD_DIR)

clean:
	rm -rf $(VENV) $(PY313_VENV) $(LOWEST_VENV) $(ECOSYSTEM_VENV) build dist *.egg-info \
		examples/*/site
