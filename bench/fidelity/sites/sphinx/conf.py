"""Sphinx project of the agentprose fidelity benchmark.

The benchmark builds it once per theme with ``-D html_theme=<theme>`` and
``-D html_baseurl=https://fidelity.example/sphinx-<theme>/``, from a temporary copy.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # proj_example, for autodoc

project = "SphinxProj"
author = "Ana Ruiz"
copyright = "2025, Ana Ruiz"
release = "1.2.0"
version = "1.2"
language = "en"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx.ext.mathjax",
    "sphinx.ext.doctest",
    "sphinx_design",
    "sphinx_tabs.tabs",
    "myst_parser",
    "sphinx_agentprose",
]

if os.environ.get("FIDELITY_CAPTURE_DIR"):
    sys.path.insert(0, str(HERE / "_ext"))
    extensions.append("fidelity_capture")

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist", "tasklist", "substitution"]

html_theme = "alabaster"
html_title = "SphinxProj docs"
html_baseurl = "https://fidelity.example/sphinx-alabaster/"
html_last_updated_fmt = None
autodoc_typehints = "signature"
