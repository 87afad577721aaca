"""Reading back ``agentprose-search.json``: the index and links a build wrote, when
they belong to the posts at hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentprose_core.search.index import SearchIndex

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["stored_search"]


def _numbers(value: object) -> bool:
    return isinstance(value, list) and all(type(item) is int and item >= 0 for item in value)


def _postings(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 2 and _numbers(value[0])
            and _numbers(value[1]) and len(value[0]) == len(value[1]))


def _well_formed(data: dict[str, Any], size: int) -> bool:
    terms, names, titles, links = (data.get(key) for key in ("terms", "names", "titles",
                                                                "links"))
    return (isinstance(terms, dict) and all(_postings(value) for value in terms.values())
            and all(isinstance(found, dict) and all(_numbers(v) for v in found.values())
                    for found in (names, titles))
            and isinstance(links, list) and len(links) == size
            and all(_numbers(value) for value in links)
            and all(n < size for value in links for n in value))


def stored_search(data: object, urls: Sequence[str]) -> tuple[SearchIndex, list[list[int]]] | None:
    """The search index and links of a decoded ``agentprose-search.json``, when it is
    version 1, well formed and made for exactly the posts ``urls`` (in order); None
    otherwise (an older build's file beside a newer index: search is built instead)."""
    if not (isinstance(data, dict) and data.get("version") == 1
            and data.get("posts") == list(urls) and data.get("size") == len(urls)
            and _well_formed(data, len(urls))):
        return None
    return SearchIndex.from_data(data), data["links"]
