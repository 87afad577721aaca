"""Tiny package documented with autodoc in the fixture site."""
