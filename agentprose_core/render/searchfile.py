"""``agentprose-search.json``: a site's search index, computed at build time.

Written beside ``agentprose.json`` when the site serves an MCP endpoint, so that an
endpoint (``agentprose mcp``, ``agentprose serve --mcp``, a host's function) answers a
search with a lookup and a sum instead of indexing every page at its first request.
The format (version 1, :func:`load_search_schema`; docs/formats.md):

- ``posts``: the page URLs of ``agentprose.json``'s posts, in its order: the numbers
  below are positions in it, and a reader whose index lists other pages ignores the file;
- ``size``: how many posts;
- ``terms``: each search term (:mod:`agentprose_core.search.terms`) with two lists, the
  posts it is in and its score in each, in ten-thousandths of a point (BM25 per field,
  weighted: :mod:`agentprose_core.search.index`);
- ``names``: each name of an API object a page documents, with its posts;
- ``titles``: each page title, lower-cased, with its posts;
- ``links``: for each post, the posts its body links to.

The documents are the index's own values (title, the outline's headings, summary, the
body as the index gives it), so an endpoint that indexes ``agentprose.json`` itself
finds the same numbers.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from agentprose_core.model import SEARCH_NAME
from agentprose_core.search.index import SearchIndex, document_of
from agentprose_core.search.links import links_between

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agentprose_core.model import PageRecord

__all__ = ["SEARCH_NAME", "SEARCH_VERSION", "load_search_schema", "render_search_file"]

SEARCH_VERSION = 1


def render_search_file(pages: Sequence[PageRecord], *, generator: str) -> str:
    """The search index of the checked ``pages`` (``agentprose.json``'s posts), as JSON
    text: compact, keys in a fixed order, the same bytes for the same pages."""
    bodies = [page.markdown.strip("\n") for page in pages]
    index = SearchIndex.build([
        document_of(page.title, [(h.title, h.id) for h in page.headings
                                 if 1 <= h.level <= 6 and h.title.strip()],
                    page.summary or "", body)
        for page, body in zip(pages, bodies, strict=True)])
    data: dict[str, Any] = {"version": SEARCH_VERSION, "generator": generator,
                            "posts": [page.url for page in pages], **index.to_data(),
                            "links": links_between([(p.url, p.markdown_url) for p in pages],
                                                   bodies)}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def load_search_schema() -> dict[str, Any]:
    """The JSON Schema of ``agentprose-search.json``."""
    schema = resources.files("agentprose_core.schema") / "agentprose-search-1.schema.json"
    text = schema.read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
