"""Which posts of a site link which: what ``related_pages`` counts, computed once."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["links_between"]

_VIEW_LINK = re.compile(r"\]\((https?://[^)\s]+)\)")


def links_between(urls: Sequence[tuple[str, str]], bodies: Sequence[str]) -> list[list[int]]:
    """For each post (its page URL and view URL, in ``urls``), the other posts its body
    (in ``bodies``) links to, by position, in order."""
    keys: dict[str, int] = {}
    for number, (url, markdown_url) in enumerate(urls):
        keys[page_key(url)] = number
        keys[page_key(markdown_url)] = number
    graph = []
    for number, body in enumerate(bodies):
        linked = {keys.get(page_key(url.split("#", 1)[0])) for url in _VIEW_LINK.findall(body)}
        graph.append(sorted(n for n in linked if n is not None and n != number))
    return graph
