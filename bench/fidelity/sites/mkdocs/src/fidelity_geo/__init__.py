"""Tiny package documented by mkdocstrings in the fidelity corpus."""
