"""The errors agentprose raises; plugins re-raise them as their tool's own errors."""

from __future__ import annotations

__all__ = ["AgentproseError", "ConfigError", "InputError", "OutputError"]


class AgentproseError(Exception):
    """Base of every error agentprose raises on purpose."""


class ConfigError(AgentproseError):
    """A setting has a value we cannot use; the message says what to change."""


class InputError(AgentproseError):
    """The site or a page cannot be processed as given (no such directory, bad URL)."""


class OutputError(AgentproseError):
    """An output file could not be written (read-only directory, full disk)."""
