"""Host configurations that serve the agent views: servers, edge functions, Accept rules.

Empty on purpose: importing one module of the package loads nothing else."""
