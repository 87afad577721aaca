import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
project = "Coast"
extensions = ["sitebuilder", "sphinx_agentprose"]
html_baseurl = "https://coast.example/docs/"
