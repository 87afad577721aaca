"""Records -> text: the agent view, agentprose.json, llms.txt, head tags and JSON-LD.

Empty on purpose: importing one module of the package loads nothing else."""
