"""Fragment -> Markdown: the engines, the normalisation of the element tree and its rules.

Empty on purpose: importing one module of the package loads nothing else."""
