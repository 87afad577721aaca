"""`agentprose serve`: the preview server, its path mapping and content negotiation.

Empty on purpose: importing one module of the package loads nothing else."""
