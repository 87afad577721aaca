"""Writing the site files.

Empty on purpose: importing one module of the package loads nothing else."""
