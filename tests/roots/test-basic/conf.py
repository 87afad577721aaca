project = "Coast"
extensions = ["sphinx_agentprose"]
html_baseurl = "https://coast.example/docs/"
language = "pt_BR"
html_theme = "alabaster"
exclude_patterns = ["_build", "snippets"]
agentprose_exclude = ["internal/*"]
