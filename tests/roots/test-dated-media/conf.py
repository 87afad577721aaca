project = "Coast"
extensions = ["sphinx_agentprose"]
html_baseurl = "https://coast.example/docs/"
