project = "No URL"
extensions = ["sphinx_agentprose"]
