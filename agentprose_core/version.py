"""The version of agentprose: written once, here; pyproject.toml reads it."""

__version__ = "0.1.0"
