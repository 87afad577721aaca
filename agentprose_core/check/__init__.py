"""`agentprose check`: the rules, the text checks, the HTTP checks and the report.

Empty on purpose: importing one module of the package loads nothing else."""
