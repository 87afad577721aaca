"""Each page's parts of the site files, made once and kept while its record holds.

``agentprose.json``, ``llms-full.txt`` and the link check between views take from every
page the same few things: its view's size, its post in the index, the head of its
entry in ``llms-full.txt``, the site URLs its view links and the fragments it can be
linked with. A rebuild that changed one page (Sphinx without ``-E``) used to make them
again for every page, a cost that grew with the site and not with the edit. They depend
only on the page's record, the site's base URL and the view's directive line, so a
build keeps them beside each record (:class:`~agentprose_core.records.store.RecordStore`)
and the next one takes them as they are while the record is the same.

The parts hold no copy of the page's Markdown: the post is laid out without its body
and the entry's head says where the body starts, the body is added from the record
when the file is written. What is kept stays small next to the record it belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.convert.slugs import view_targets
from agentprose_core.records.links import site_links
from agentprose_core.render.index import post_json
from agentprose_core.render.llmstxt import entry_with_body, full_entry_head
from agentprose_core.render.view import render_view, view_directive
from agentprose_core.viewsize import view_size

if TYPE_CHECKING:
    from collections.abc import Mapping

    from agentprose_core.model import PageRecord
    from agentprose_core.settings import Settings
    from agentprose_core.viewsize import ViewSize

__all__ = ["PageParts", "SiteParts"]


@dataclass
class PageParts:
    """One page's parts of the site files (see the module's text). ``made_for`` is the
    base URL and the directive line they were made with: parts made for others are not
    used. Each part is made when first asked for, and kept. (Kept in the records' memo
    between builds: a change to what they hold must change the memo's header in
    :mod:`agentprose_core.records.store`, or an older memo's parts would be taken.)"""

    made_for: tuple[str, str]
    size: ViewSize
    post: str | None = None  # its post in agentprose.json, without "markdown"
    entry_head: tuple[str, int] | None = None  # its llms-full.txt entry up to the body
    links: tuple[str, ...] | None = None  # the site URLs its view links
    targets: frozenset[str] | None = None  # the fragments its view can be linked with


class SiteParts:
    """The parts of the pages of one build, by page URL: those ``known`` from the last
    build when they were made for this one's base URL and directive line, the rest
    made as asked for. Only for pages whose record is the one ``known`` was made from:
    the caller matches them (by the record's digest)."""

    def __init__(self, base: str, settings: Settings,
                 known: Mapping[str, PageParts] | None = None) -> None:
        self.base = base
        self.settings = settings
        self.known = known or {}
        self.parts: dict[str, PageParts] = {}  # every page's asked for, by URL
        self._directives: dict[str | None, str] = {}

    def of(self, page: PageRecord, view: str | None = None) -> PageParts:
        """``page``'s parts; ``view`` is its view's text when the caller made it."""
        parts = self.parts.get(page.url)
        if parts is None:
            made_for = (self.base, self._directive(page.lang))
            parts = self.known.get(page.url)
            if parts is None or parts.made_for != made_for:
                text = view if view is not None else render_view(page, made_for[1])
                parts = PageParts(made_for, view_size(text))
            self.parts[page.url] = parts
        return parts

    def size(self, page: PageRecord, view: str | None = None) -> ViewSize:
        """The size of ``page``'s view."""
        return self.of(page, view).size

    def post(self, page: PageRecord) -> str:
        """``page``'s post in ``agentprose.json``, without its Markdown."""
        parts = self.of(page)
        if parts.post is None:
            parts.post = post_json(page, size=parts.size)
        return parts.post

    def entry(self, page: PageRecord) -> str:
        """``page``'s entry in ``llms-full.txt``."""
        parts = self.of(page)
        if parts.entry_head is None:
            parts.entry_head = full_entry_head(page)
        return entry_with_body(*parts.entry_head, page)

    def links(self, page: PageRecord) -> tuple[str, ...]:
        """The URLs on the site that ``page``'s view links."""
        parts = self.of(page)
        if parts.links is None:
            parts.links = site_links(page.markdown, self.base)
        return parts.links

    def targets(self, page: PageRecord) -> frozenset[str]:
        """The fragments ``page``'s view can be linked with."""
        parts = self.of(page)
        if parts.targets is None:
            parts.targets = view_targets(page.markdown)
        return parts.targets

    def _directive(self, lang: str | None) -> str:
        directive = self._directives.get(lang)
        if directive is None:
            directive = self._directives[lang] = view_directive(self.base, self.settings, lang)
        return directive
