"""An example Sphinx project with agentprose: one line in extensions, and html_baseurl."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

project = "Shore notes"
author = "Coast volunteers"
extensions = ["sphinx.ext.autodoc", "myst_parser", "sphinx_sitemap", "sphinx_agentprose"]
html_baseurl = "https://shore.example/notes/"
# A sitemap lets checkers such as afdocs compare llms.txt with every page of the site.
sitemap_url_scheme = "{link}"
sitemap_excludes = ["search.html", "genindex.html", "py-modindex.html"]
html_theme = "furo"
exclude_patterns = ["_build", "README.md"]
