"""The rules that rewrite the element tree before the engine: code, tables, widgets,
anchors, hidden content, escapes.

Empty on purpose: importing one module of the package loads nothing else."""
