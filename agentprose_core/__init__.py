"""agentprose's core: agent views, ``agentprose.json`` and ``llms.txt`` from built HTML.

Nothing here imports MkDocs, Sphinx or docutils. What a program calls (the
"Python API" page of the docs lists it, generated from here):

- :class:`Settings` and :func:`settings_from_mapping`: every option, checked;
- :func:`convert_fragment`: one page's content HTML -> its agent view's Markdown;
- :func:`build_site`: every output for a site another tool built (``agentprose build``),
  and its :class:`BuildResult`;
- :class:`CollectingBuild` with :class:`CollectedPage`, :class:`SiteSources`,
  :class:`UnrenderedPage` and :class:`Published`: a build session for a tool that
  hands over each page it renders (the MkDocs plugin is one);
- :class:`Conversion`, :class:`PageRecord`, :class:`SiteRecord`, :class:`Heading`:
  what conversions and records hold;
- :class:`Diagnostic`, and the errors (:class:`AgentproseError` and its kinds).

The functions and the session load on first use: importing the package loads neither
lxml nor a Markdown engine (the plugins' start-up and the workers depend on that).
Everything else in the package is internal; ``docs/contributing.md`` maps it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError, ConfigError, InputError, OutputError
from agentprose_core.model import Conversion, Heading, PageRecord, SiteRecord
from agentprose_core.settings import Settings, settings_from_mapping
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from agentprose_core.build.assemble import CollectedPage, SiteSources
    from agentprose_core.build.collect import CollectingBuild, Published
    from agentprose_core.build.pagestore import UnrenderedPage
    from agentprose_core.build.postbuild import BuildResult, build_site
    from agentprose_core.convert.fragment import convert_fragment


__all__ = [
    "AgentproseError",
    "BuildResult",
    "CollectedPage",
    "CollectingBuild",
    "ConfigError",
    "Conversion",
    "Diagnostic",
    "Heading",
    "InputError",
    "OutputError",
    "PageRecord",
    "Published",
    "Settings",
    "SiteRecord",
    "SiteSources",
    "UnrenderedPage",
    "__version__",
    "build_site",
    "convert_fragment",
    "settings_from_mapping",
]

_LAZY = {
    "convert_fragment": "agentprose_core.convert.fragment",
    "build_site": "agentprose_core.build.postbuild",
    "BuildResult": "agentprose_core.build.postbuild",
    "Published": "agentprose_core.build.collect",
    "CollectingBuild": "agentprose_core.build.collect",
    "UnrenderedPage": "agentprose_core.build.pagestore",
    "CollectedPage": "agentprose_core.build.assemble",
    "SiteSources": "agentprose_core.build.assemble",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'agentprose_core' has no attribute {name!r}")
