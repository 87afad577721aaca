"""Worker processes: the pool, the worker, speculative conversion, the conversion cache.

Empty on purpose: importing one module of the package loads nothing else."""
