"""An example Sphinx project with agentprose: one line in extensions, and html_baseurl."""

project = "Shore notes"
author = "Coast volunteers"
extensions = ["sphinx.ext.autodoc", "myst_parser", "sphinx_agentprose"]
html_baseurl = "https://shore.example/notes/"
html_theme = "furo"
exclude_patterns = ["_build", "README.md"]
