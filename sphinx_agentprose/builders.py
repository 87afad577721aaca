"""Which Sphinx builders get agent outputs: every one that writes a web page per
document, Sphinx's own ``html`` and ``dirhtml`` and any subclass of them a site makes
(``class B(StandaloneHTMLBuilder): name = "myhtml"``), but not those whose pages are
for something else (one single page, an e-book, a help viewer, serialized data)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.builders.singlehtml import SingleFileHTMLBuilder

if TYPE_CHECKING:
    from sphinx.builders import Builder

__all__ = ["skip_reason"]


def _serializing(builder: Builder) -> bool:
    try:
        from sphinxcontrib.serializinghtml import SerializingHTMLBuilder
    except ImportError:  # pragma: no cover - Sphinx depends on it
        return False
    return isinstance(builder, SerializingHTMLBuilder)


def skip_reason(builder: Builder) -> str | None:
    """Why ``builder`` gets no agent outputs (one line that says what to build
    instead), or None when it gets them."""
    if isinstance(builder, SingleFileHTMLBuilder):
        what = "writes one page for the whole site"
    elif not isinstance(builder, StandaloneHTMLBuilder):
        what = "writes no web pages"
    elif builder.embedded or _serializing(builder):
        what = "writes pages for an e-book, a help viewer or as data, not for the web"
    else:
        return None
    return (f"the {builder.name!r} builder {what}, so it gets no agent outputs; build html "
            "or dirhtml (or a builder made from them).")
