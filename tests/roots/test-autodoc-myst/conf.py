import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
project = "API site"
extensions = ["sphinx.ext.autodoc", "myst_parser", "sphinx_agentprose"]
html_baseurl = "https://api.example/"
exclude_patterns = ["_build"]
