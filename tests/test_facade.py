"""The package's public face: a few names, loaded on first use."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version

import agentprose_core


def test_the_facade_names_what_it_exports() -> None:
    for name in agentprose_core.__all__:
        assert getattr(agentprose_core, name) is not None, name


def test_importing_the_package_loads_no_parser_nor_engine() -> None:
    code = ("import sys, agentprose_core; "
            "print(sorted(m for m in ('lxml', 'html_to_markdown', 'markdownify') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_the_version_is_written_once() -> None:
    assert version("agentprose") == agentprose_core.__version__
