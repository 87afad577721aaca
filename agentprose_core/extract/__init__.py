"""A whole themed page -> its content element, head metadata and nav order (the
`agentprose build` path).

Empty on purpose: importing one module of the package loads nothing else."""
