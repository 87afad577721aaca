"""Where a page states its metadata: ``<meta>`` tags, JSON-LD, microdata, theme markup.

:func:`read_sources` gathers a parsed page's ``<meta>`` tags and its JSON-LD article
and web site nodes once; :mod:`.headmeta` and :mod:`.titles` take each field from them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from agentprose_core.convert.tree import select_in, text_of
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.model import ARTICLE_TYPES

if TYPE_CHECKING:
    from collections.abc import Container, Iterator

    from lxml import html

__all__ = ["MetaSources", "ld_text", "microdata", "read_sources"]

_PAGE_TYPES = ("WebPage",)


@dataclass
class MetaSources:
    """The raw sources of one page, and the diagnostics found while reading them."""

    root: html.HtmlElement
    url: str
    meta: dict[str, list[str]]
    ld: dict[str, Any]
    site_ld: dict[str, Any]
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source: Container[str] | None = None

    def select(self, selector: str, root: html.HtmlElement | None = None) -> list[html.HtmlElement]:
        """Elements matching ``selector`` under ``root`` (the page), skipped at once when
        the page's source lacks a name the selector needs."""
        found = select_in(self.root if root is None else root, selector, self.source)
        return cast("list[html.HtmlElement]", found)  # lxml.html trees hold HtmlElements

    def tag(self, *keys: str) -> str | None:
        """The first non-empty ``<meta>`` content under any of ``keys``."""
        return next((v for k in keys for v in self.meta.get(k, ()) if v), None)

    def values(self, key: str) -> list[str]:
        """Every non-empty ``<meta>`` content under ``key``."""
        return [v for v in self.meta.get(key, ()) if v]

    def warn(self, code: str, message: str) -> None:
        """Note a problem with the page's metadata."""
        self.diagnostics.append(Diagnostic(code, message, self.url))


def read_sources(
    root: html.HtmlElement, *, url: str, source: Container[str] | None = None
) -> MetaSources:
    """The ``<meta>`` tags and JSON-LD nodes of the page whose parsed tree is ``root``
    (a JSON-LD block that is not JSON is reported in its diagnostics). ``source``, the
    page's HTML lowercased, lets selectors that cannot match be skipped."""
    page = MetaSources(root, url, _meta_tags(root), {}, {}, source=source)
    page.ld, page.site_ld = _json_ld(page)
    return page


def _meta_tags(root: html.HtmlElement) -> dict[str, list[str]]:
    """Every ``<meta content>`` by lower-cased name, property or ``http-equiv:`` name."""
    found: dict[str, list[str]] = {}
    for element in root.iter("meta"):
        content = " ".join((element.get("content") or "").split())
        keys = [element.get("name"), element.get("property")]
        equiv = element.get("http-equiv")
        keys.append(f"http-equiv:{equiv}" if equiv else None)
        for key in {k.strip().lower() for k in keys if k}:
            found.setdefault(key, []).append(content)
    return found


def _json_ld(page: MetaSources) -> tuple[dict[str, Any], dict[str, Any]]:
    """The page's article (or web page) node and its web site node, empty if none."""
    nodes = list(_json_ld_nodes(page))
    article = next((n for n in nodes if _types(n) & set(ARTICLE_TYPES)), None)
    if article is None:
        article = next((n for n in nodes if _types(n) & set(_PAGE_TYPES)), {})
    site = next((n for n in nodes if "WebSite" in _types(n)), {})
    return article, site


def _json_ld_nodes(page: MetaSources) -> Iterator[dict[str, Any]]:
    for script in page.root.iter("script"):
        kind = (script.get("type") or "").split(";")[0].strip().lower()
        if kind != "application/ld+json":
            continue
        try:
            data = json.loads(script.text or "")
        except (ValueError, RecursionError) as error:
            page.warn("bad-json-ld", f"Ignoring a JSON-LD block that is not valid JSON: {error}")
            continue
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict):
                yield item
                graph = item.get("@graph")
                if isinstance(graph, list):
                    yield from (node for node in graph if isinstance(node, dict))


def _types(node: dict[str, Any]) -> set[str]:
    kinds = node.get("@type")
    names = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    return {re.split(r"[/:#]", name)[-1] for name in names if isinstance(name, str)}


def ld_text(page: MetaSources, key: str) -> str | None:
    """The JSON-LD field ``key`` as text, or None."""
    value = page.ld.get(key)
    if value is None:
        return None
    if isinstance(value, str):
        return " ".join(value.split()) or None
    page.warn("bad-json-ld", f"Ignoring JSON-LD {key!r}: text expected, not {value!r}.")
    return None


def microdata(page: MetaSources, prop: str) -> list[str]:
    """The texts of the page's microdata property ``prop`` outside nested items."""
    values = []
    for element in page.select(f"[itemprop~={prop}]"):
        scoped = element.get("itemscope") is not None
        names = page.select("[itemprop~=name]", element) if scoped else []
        source = names[0] if names else element
        value = source.get("datetime") or source.get("content") or text_of(source)
        if value:
            values.append(value)
    return values
