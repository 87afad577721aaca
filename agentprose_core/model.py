"""What we know about a page and a site: the records every output is rendered from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentprose_core.diagnostics import Diagnostic

__all__ = [
    "ARTICLE_TYPES",
    "INDEX_NAME",
    "LLMS_FULL_NAME",
    "LLMS_NAME",
    "SEARCH_NAME",
    "VERSIONS_SECTION",
    "Conversion",
    "Heading",
    "PageRecord",
    "SiteRecord",
]

# The site files, at the root of the site (and of each section for llms.txt).
INDEX_NAME = "agentprose.json"
LLMS_NAME = "llms.txt"
LLMS_FULL_NAME = "llms-full.txt"
SEARCH_NAME = "agentprose-search.json"
"""What an MCP endpoint searches with (:mod:`agentprose_core.render.searchfile`)."""
VERSIONS_SECTION = "Versions"
"""The ``llms.txt`` section of a versioned site's root that links every version's."""

# The schema.org types that make a page an article, for JSON-LD written and read.
ARTICLE_TYPES = ("TechArticle", "Article", "BlogPosting", "NewsArticle", "ScholarlyArticle")


@dataclass(frozen=True)
class Heading:
    """One heading of a page's outline."""

    level: int
    id: str
    title: str


@dataclass(frozen=True)
class PageRecord:
    """One page with its agent view, in the terms of ``docs/formats.md``.

    Every URL is absolute. Times are UTC ISO 8601 strings (``2026-03-14T10:30:00Z``).
    """

    url: str
    markdown_url: str
    title: str
    modified: str
    markdown: str = ""
    published: str | None = None
    authors: tuple[str, ...] = ()
    summary: str | None = None
    tags: tuple[str, ...] = ()
    image: str | None = None
    lang: str | None = None
    section: tuple[str, ...] = ()
    headings: tuple[Heading, ...] = ()
    prev: str | None = None
    next: str | None = None
    in_nav: bool = True
    unanchored: tuple[str, ...] = ()
    """As :attr:`Conversion.unanchored`: not part of any output."""
    canonical: str | None = None
    """The URL the page is cited by, when not ``url`` (the project names another
    version's, or another host's): see :mod:`agentprose_core.location`."""
    version: str | None = None
    """The version of the site the page was built in, on a versioned site."""
    latest: str | None = None
    """The same page in the site's default version, when this is another version's."""
    translations: tuple[tuple[str, str], ...] = ()
    """The same page in the site's other languages: ``(lang, page URL)`` pairs."""


@dataclass(frozen=True)
class SiteRecord:
    """The site as a whole."""

    name: str
    url: str
    description: str | None = None
    lang: str | None = None
    scopes: tuple[tuple[str, str], ...] = ()
    """The sections with an ``llms.txt`` of their own: ``(folder, title)``, the folder
    relative to ``url`` (``guide/``); see :mod:`agentprose_core.records.scopes`."""
    languages: tuple[tuple[str, str, str], ...] = ()
    """On a site built once per language: every language as ``(lang, name, root URL)``,
    this one's included; see :mod:`agentprose_core.languages`."""


@dataclass(frozen=True)
class Conversion:
    """A page's Markdown body, its outline and what to tell the user."""

    markdown: str
    headings: tuple[Heading, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    unanchored: tuple[str, ...] = ()
    """Ids of the page's content that no heading or anchor of its view carries (index
    entries, widgets' ids, automatic ids): a link to one of them from another view has
    lost its target (see :mod:`agentprose_core.records.links`)."""
