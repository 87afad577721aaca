"""agentprose core: agent views, agentprose.json and llms.txt from built HTML.

Pure Python: nothing here imports MkDocs, Sphinx or docutils.
"""

from __future__ import annotations

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError, ConfigError, InputError, OutputError
from agentprose_core.model import Heading, PageRecord, SiteRecord
from agentprose_core.settings import Settings, settings_from_mapping

__version__ = "0.1.0"

__all__ = [
    "AgentproseError",
    "ConfigError",
    "Diagnostic",
    "Heading",
    "InputError",
    "OutputError",
    "PageRecord",
    "Settings",
    "SiteRecord",
    "__version__",
    "settings_from_mapping",
]
