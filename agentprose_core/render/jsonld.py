"""What a page says about itself in its ``<head>``: JSON-LD and OpenGraph article tags.

Built from the same record as the agent view, so title, times and canonical URL agree.
Tags the page already has (a theme's, sphinxext-opengraph's, Material's social plugin's)
are left alone; only what is missing is added.
"""

from __future__ import annotations

import json
import re
from html import escape
from typing import TYPE_CHECKING, Any

from agentprose_core.model import ARTICLE_TYPES

if TYPE_CHECKING:
    from agentprose_core.model import PageRecord, SiteRecord

__all__ = ["article_data", "head_tags", "script_tag"]

# Characters that could end the <script> element or break JavaScript parsing of JSON.
_BREAKOUTS = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026",
              "\u2028": "\\u2028", "\u2029": "\\u2029"}
_LD_BLOCK = re.compile(
    r"<script[^>]*application/ld\+json[^>]*>(.*?)</script>", re.IGNORECASE | re.DOTALL
)
_OG_ARTICLE = re.compile(
    r"<meta\s[^>]*property\s*=\s*[\"']og:type[\"'][^>]*content\s*=\s*[\"']article[\"']",
    re.IGNORECASE,
)
_META = re.compile(r"<meta\s[^>]*(?:property|name)\s*=\s*[\"']([^\"']+)[\"']", re.IGNORECASE)


def _person(name: str) -> dict[str, str]:
    return {"@type": "Person", "name": name}


def article_data(
    page: PageRecord, site: SiteRecord, *, kind: str = "TechArticle"
) -> dict[str, Any]:
    """The schema.org article describing ``page``; absent values are left out."""
    data: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": kind,
        "headline": page.title,
        "url": page.canonical or page.url,
        "mainEntityOfPage": {"@type": "WebPage", "@id": page.canonical or page.url},
        "isPartOf": {"@type": "WebSite", "name": site.name, "url": site.url},
        "dateModified": page.modified,
    }
    optional: dict[str, Any] = {
        "description": page.summary,
        "datePublished": page.published,
        "author": [_person(name) for name in page.authors] or None,
        "inLanguage": page.lang,
        "keywords": list(page.tags) or None,
        "image": page.image,
    }
    data.update({key: value for key, value in optional.items() if value})
    return data


def script_tag(data: dict[str, Any]) -> str:
    """A JSON-LD ``<script>`` whose content can never close the element early."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for character, replacement in _BREAKOUTS.items():
        text = text.replace(character, replacement)
    return f'<script type="application/ld+json">{text}</script>'


def _types(node: Any) -> set[str]:
    if isinstance(node, list):
        return {t for item in node for t in _types(item)}
    if not isinstance(node, dict):
        return set()
    kinds = node.get("@type")
    found = set(kinds) if isinstance(kinds, list) else {kinds} if isinstance(kinds, str) else set()
    return {str(k) for k in found} | _types(node.get("@graph"))


def _has_article(head: str) -> bool:
    for block in _LD_BLOCK.findall(head):
        try:
            if _types(json.loads(block)) & set(ARTICLE_TYPES):
                return True
        except ValueError:
            continue
    return False


def _og(page: PageRecord) -> list[tuple[str, str]]:
    tags = [("og:type", "article"), ("article:modified_time", page.modified)]
    if page.published:
        tags.append(("article:published_time", page.published))
    tags += [("article:author", name) for name in page.authors]
    tags += [("article:tag", tag) for tag in page.tags]
    return tags


def head_tags(head: str, page: PageRecord, site: SiteRecord, *, kind: str = "TechArticle") -> str:
    """The tags to add to a page whose ``<head>`` is ``head``: never a duplicate.

    An article JSON-LD block already there is kept as the only one; OpenGraph
    properties already there (any ``og:type``, say ``website``) are not written again.
    """
    present = {name.lower() for name in _META.findall(head)}
    other_type = "og:type" in present and not _OG_ARTICLE.search(head)
    tags = [] if other_type else [  # og:type=website: article:* would contradict it
        f'<meta property="{prop}" content="{escape(value)}">'
        for prop, value in _og(page) if prop not in present
    ]
    if not _has_article(head):
        tags.insert(0, script_tag(article_data(page, site, kind=kind)))
    return "\n".join(tags)
