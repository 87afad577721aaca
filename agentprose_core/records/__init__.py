"""Page and site records, assembled the same way for MkDocs, Sphinx and `agentprose build`.

Empty on purpose: importing one module of the package loads nothing else."""
