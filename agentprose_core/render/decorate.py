"""The tags a page's ``<head>`` gains: discovery links, JSON-LD, OpenGraph article tags."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from agentprose_core.audience import hide_agent_only_bytes
from agentprose_core.records.scopes import describedby_url
from agentprose_core.render.bodyhint import (
    body_hint,
    hint_position,
    insert_hint,
    insert_hint_bytes,
    without_hint,
)
from agentprose_core.render.head import add_to_head, discovery_tags, head_of
from agentprose_core.render.jsonld import head_tags
from agentprose_core.render.pagemenu import menu_tags
from agentprose_core.urls import base_url_of, index_url

if TYPE_CHECKING:
    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.settings import Settings

__all__ = [
    "INJECTED_MARK",
    "decorate_page", "decorate_text", "head_additions", "redecorate_page", "without_injected",
]

_HEAD_CLOSE = re.compile(r"</head\s*>", re.IGNORECASE)

_DISCOVERY_MARKER = 'rel="agentprose-index"'


def head_additions(
    head: str, page: PageRecord, site: SiteRecord, settings: Settings, *, kind: str | None = None
) -> str:
    """What to add to a ``<head>`` that already holds ``head``: only what is missing."""
    tags = []
    if settings.discovery_links and _DISCOVERY_MARKER not in head and (
        'type="text/markdown"' not in head
    ):
        describedby = (describedby_url(page.url, base_url_of(site.url), site.scopes)
                       if settings.llms_txt else None)
        tags.append(discovery_tags(page.markdown_url,
                                   index_url(site.url) if settings.index else None,
                                   describedby))
    if settings.json_ld:
        extra = head_tags(head, page, site, kind=kind or settings.article_type)
        if extra:
            tags.append(extra)
    if settings.page_actions and "/page-actions." not in head:
        tags.append(menu_tags(page, site, settings))
    return "\n".join(tags)


def decorate_page(
    document: bytes, page: PageRecord, site: SiteRecord, settings: Settings,
    *, kind: str | None = None,
) -> bytes | None:
    """``document`` with its head tags added, or None when it needs none (or has no head)."""
    tags = head_additions(head_of(document), page, site, settings, kind=kind)
    changed = add_to_head(document, _marked(tags)) if tags else document
    changed = insert_hint_bytes(changed, body_hint(page, site, settings)) or changed
    return None if changed == document else changed


_INJECTED_OPEN = b"<!-- agentprose: head -->"
INJECTED_MARK = _INJECTED_OPEN
"""What opens the tags agentprose adds to a page's head (once per decorated page)."""
_INJECTED_CLOSE = b"<!-- /agentprose: head -->"
_INJECTED = re.compile(re.escape(_INJECTED_OPEN) + rb".*?" + re.escape(_INJECTED_CLOSE) + rb"\n?",
                       re.DOTALL)


def without_injected(document: bytes) -> bytes:
    """``document`` without the tags and the body hint an earlier ``agentprose build``
    added to it (marked by :func:`redecorate_page`): what the site's own build wrote."""
    plain = _INJECTED.sub(b"", document) if _INJECTED_OPEN in document else document
    return without_hint(plain)


def redecorate_page(
    document: bytes, page: PageRecord, site: SiteRecord, settings: Settings,
    *, kind: str | None = None,
) -> bytes | None:
    """For a page another tool built (``agentprose build``): the tags an earlier run
    added replaced by this run's, marked so that the next run can do the same; None
    when nothing changes. Run twice, it gives the same bytes; run with a new base URL,
    no old link stays."""
    plain = without_injected(document)
    tags = head_additions(head_of(plain), page, site, settings, kind=kind)
    if tags:
        plain = add_to_head(plain, _marked(tags))
    plain = insert_hint_bytes(plain, body_hint(page, site, settings)) or plain
    plain = hide_agent_only_bytes(plain)  # the site's blocks for agents only
    return None if plain == document else plain


def _marked(tags: str) -> str:
    """Tags between the markers that :func:`without_injected` finds them by."""
    return f"{_INJECTED_OPEN.decode()}\n{tags}\n{_INJECTED_CLOSE.decode()}"


def decorate_text(
    document: str, page: PageRecord, site: SiteRecord, settings: Settings,
    *, kind: str | None = None,
) -> str | None:
    """:func:`decorate_page` for a document a build tool holds as text: no encoding of
    the whole page (a Material page with a large nav is hundreds of kilobytes)."""
    end = _head_end(document)
    if end < 0:  # no head for the tags; the body's hint still helps
        return insert_hint(document, body_hint(page, site, settings))
    head = document[:end]
    tags = head_additions(head, page, site, settings, kind=kind)
    hint = body_hint(page, site, settings)
    at = hint_position(document, end) if hint else None
    if not tags and at is None:
        return None
    # The tags marked, so that a later dirty build can replace them (its date changed,
    # say). The page is put together in one copy, by replacing the short stretch from
    # ``</head>`` to the body's tag (its first occurrence: no ``</head>`` comes before
    # ``end``): slices of the page would be copies of it too, alive beside it and the
    # result (three copies at once of a megabyte-sized API page, at the build's peak).
    marked = f"{_marked(tags)}\n" if tags else ""
    middle = document[end:at] if at is not None else document[end:document.find(">", end) + 1]
    added = f"{marked}{middle}{hint}\n" if at is not None else f"{marked}{middle}"
    return document.replace(middle, added, 1)


def _head_end(document: str) -> int:
    """Where ``</head>`` starts, or -1; the literal search first (a case-insensitive
    regex over a page of hundreds of kilobytes is ten times slower)."""
    end = document.find("</head>")
    if end >= 0:
        earlier = _HEAD_CLOSE.search(document, 0, end)  # "</HEAD >" before it: rare
        return earlier.start() if earlier else end
    close = _HEAD_CLOSE.search(document)
    return close.start() if close else -1
