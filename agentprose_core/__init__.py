"""agentprose's core: agent views, ``agentprose.json`` and ``llms.txt`` from built HTML.

Nothing here imports MkDocs, Sphinx or docutils. The public API:

- :class:`Settings` and :func:`settings_from_mapping`: every option, checked;
- :func:`convert_fragment`: a page's content HTML -> its agent view's Markdown;
- :func:`build_records`: the pages a build tool collected -> the site's records;
- :func:`publish`: records -> the views, ``agentprose.json``, ``llms.txt``,
  ``llms-full.txt`` in a site folder;
- :func:`build_site`: all of it for a site another tool built (``agentprose build``);
- :class:`PageRecord`, :class:`SiteRecord`, :class:`Heading`: the records;
- :class:`Diagnostic`, and the errors (:class:`AgentproseError` and its kinds).

The functions load on first use: importing the package loads neither lxml nor a
Markdown engine (the plugins' start-up and the workers depend on that). Everything
else in the package is internal; ``docs/contributing.md`` maps it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError, ConfigError, InputError, OutputError
from agentprose_core.model import Heading, PageRecord, SiteRecord
from agentprose_core.settings import Settings, settings_from_mapping
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from agentprose_core.convert.fragment import convert_fragment
    from agentprose_core.output.publish import publish
    from agentprose_core.postbuild import build_site
    from agentprose_core.records.site import build_records


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
    "build_records",
    "build_site",
    "convert_fragment",
    "publish",
    "settings_from_mapping",
]

_LAZY = {
    "convert_fragment": "agentprose_core.convert.fragment",
    "build_records": "agentprose_core.records.site",
    "publish": "agentprose_core.output.publish",
    "build_site": "agentprose_core.postbuild",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'agentprose_core' has no attribute {name!r}")
