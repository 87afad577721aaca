"""An example Sphinx project with agentprose: one line in extensions, and html_baseurl."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

project = "Shore notes"
author = "Coast volunteers"
extensions = ["sphinx.ext.autodoc", "myst_parser", "sphinx_agentprose"]
html_baseurl = "https://shore.example/notes/"
html_theme = "furo"
exclude_patterns = ["_build", "README.md"]
