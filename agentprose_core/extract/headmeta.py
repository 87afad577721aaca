"""A page's metadata, read from its full HTML: JSON-LD, OpenGraph, ``<meta>``, theme markup.

Each field takes the first usable value in this order; a value that is there but bad
(an unparseable date, a number where JSON-LD wants text) is reported as a
:class:`Diagnostic` and the next source is tried. :mod:`.metasources` gathers the
sources, :mod:`.titles` reads the title and the site name, this module the rest.

=========== ==========================================================================
field       sources, first usable wins
=========== ==========================================================================
title       JSON-LD ``headline``/``name``; ``og:title`` unless it only repeats
            ``<title>``; ``dc.title``; the content's first ``<h1>``; ``<title>``
            without the site name
description JSON-LD ``description``; ``og:description``; ``description``;
            ``dc.description``
authors     JSON-LD ``author``; ``article:author`` (names, not profile URLs);
            microdata ``author``; Material blog authors; ``author``; ``dc.creator``
published   JSON-LD ``datePublished``; ``article:published_time``; microdata
            ``datePublished``; Material blog date; ``date``, ``dc.date``,
            ``dcterms.date``, ``dcterms.created``, ``dcterms.issued``
modified    JSON-LD ``dateModified``; ``article:modified_time``; ``og:updated_time``;
            microdata ``dateModified``; ``dcterms.modified``, ``dc.date.modified``,
            ``last-modified``; Material blog update
revision_date  the git-revision-date plugin's "last update" (Material's
            ``.md-source-file``): used only where git has no date for the page
tags        JSON-LD ``keywords``; ``article:tag``; Material tags (``.md-tag``);
            ``keywords``; ``dc.subject``
image       JSON-LD ``image``; ``og:image``; ``twitter:image``
lang        ``<html lang>``; JSON-LD ``inLanguage``; ``og:locale``;
            ``content-language``; ``dc.language``
canonical   ``<link rel=canonical>``; ``og:url``
site_name   ``og:site_name``; JSON-LD ``WebSite`` name; ``application-name``; what
            ``<title>`` has besides the page title
=========== ==========================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agentprose_core import urls
from agentprose_core.convert.tree import text_of
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.extract.metasources import MetaSources, ld_text, microdata, read_sources
from agentprose_core.extract.titles import title_and_site_name
from agentprose_core.lang import normalize_lang
from agentprose_core.timefmt import to_utc_iso

if TYPE_CHECKING:
    from collections.abc import Container, Iterable

    from lxml import html

__all__ = ["PageMeta", "read_meta"]

_GIT_DATE = ".git-revision-date-localized-plugin"
_BLOG_POST = ".md-sidebar--post"  # Material's blog post page: its sidebar holds the post's meta


@dataclass(frozen=True)
class PageMeta:
    """What a page says about itself. Times are UTC ISO (``2026-03-14T10:30:00Z``)."""

    title: str | None = None
    description: str | None = None
    authors: tuple[str, ...] = ()
    published: str | None = None
    modified: str | None = None
    tags: tuple[str, ...] = ()
    image: str | None = None
    lang: str | None = None
    canonical: str | None = None
    site_name: str | None = None
    revision_date: str | None = None
    """The git-revision-date plugin's "last update": another tool's reading of git (the
    author time, or the build time where it had no history), used only when our own git
    history has no date for the page."""
    prev: str | None = None
    next: str | None = None
    """The pages ``<link rel="prev">`` and ``<link rel="next">`` name (Sphinx themes
    write them): the reading order of a site whose navigation cannot be read."""


def read_meta(
    root: html.HtmlElement, *, url: str, h1: str | None = None, source: Container[str] | None = None
) -> tuple[PageMeta, list[Diagnostic]]:
    """The metadata of the page whose parsed tree is ``root``.

    ``h1`` is the text of the content's first ``<h1>`` (without permalink signs); it
    is the title when no metadata gives one. ``source``, the page's HTML lowercased,
    lets theme-specific lookups that cannot match be skipped. Nothing here raises on
    bad input.
    """
    page = read_sources(root, url=url, source=source)
    title, site_name = title_and_site_name(page, h1)
    meta = PageMeta(
        title=title,
        description=_description(page),
        authors=_authors(page),
        published=_published(page),
        modified=_modified(page),
        tags=_keywords(page),
        image=_image(page),
        lang=_lang(page),
        canonical=_canonical(page),
        site_name=site_name,
        revision_date=_time(page, "the modification date", [
            ("the git-revision-date plugin", _git_revision_date(page))]),
        prev=_linked(page, "prev"),
        next=_linked(page, "next"),
    )
    return meta, page.diagnostics


# --- fields ------------------------------------------------------------------------------


def _description(page: MetaSources) -> str | None:
    return ld_text(page, "description") or page.tag(
        "og:description", "description", "dc.description", "dcterms.description"
    )


def _names(page: MetaSources, value: object) -> list[str]:
    """Author names from a JSON-LD ``author``: text, an object with a name, or a list."""
    items = value if isinstance(value, list) else [value]
    names = []
    for item in items:
        name = item.get("name") if isinstance(item, dict) else item
        if isinstance(name, str) and name.strip():
            names.append(" ".join(name.split()))
        elif not isinstance(item, dict):
            page.warn("bad-json-ld", f"Ignoring a JSON-LD author that is not a name: {item!r}.")
    return names


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    """Non-empty values, whitespace folded, each once, in order."""
    folded = (" ".join(v.split()) for v in values)
    return tuple(dict.fromkeys(v for v in folded if v))


def _split(values: Iterable[str]) -> tuple[str, ...]:
    """Comma-separated lists (``keywords``, Docusaurus' ``article:tag``) as items."""
    return _unique(part for value in values for part in value.split(","))


def _authors(page: MetaSources) -> tuple[str, ...]:
    if page.ld.get("author") is not None:
        names = _unique(_names(page, page.ld["author"]))
        if names:
            return names
    blog = page.select(f"{_BLOG_POST} .md-post__authors .md-profile__description strong")
    candidates = (
        [a for a in page.values("article:author") if not a.startswith(("http:", "https:"))],
        microdata(page, "author"),
        [text_of(e) for e in blog],
        page.values("author"),
        page.values("dc.creator") + page.values("dcterms.creator"),
    )
    return next((found for found in map(_unique, candidates) if found), ())


def _time(page: MetaSources, what: str, candidates: Iterable[tuple[str, object]]) -> str | None:
    """The first candidate that is a time; the bad ones before it are reported."""
    for source, value in candidates:
        if value is None or value == "":
            continue
        iso = to_utc_iso(value) if isinstance(value, str) else None
        if iso:
            return iso
        page.warn("bad-date", f"Ignoring {what} from {source}: not a date: {value!r}.")
    return None


def _published(page: MetaSources) -> str | None:
    blog = page.select(f"{_BLOG_POST} .md-post__meta time[datetime]")
    return _time(page, "the publication date", [
        ("JSON-LD datePublished", page.ld.get("datePublished")),
        ("article:published_time", page.tag("article:published_time")),
        *(("microdata datePublished", v) for v in microdata(page, "datePublished")[:1]),
        ("the Material blog", blog[0].get("datetime") if blog else None),
        *((f"<meta name={k}>", page.tag(k)) for k in (
            "date", "dc.date", "dcterms.date", "dcterms.created", "dc.date.created",
            "dcterms.issued")),
    ])


def _modified(page: MetaSources) -> str | None:
    blog = page.select(f"{_BLOG_POST} .md-post__meta time[datetime]")
    return _time(page, "the modification date", [
        ("JSON-LD dateModified", page.ld.get("dateModified")),
        ("article:modified_time", page.tag("article:modified_time")),
        ("og:updated_time", page.tag("og:updated_time")),
        *(("microdata dateModified", v) for v in microdata(page, "dateModified")[:1]),
        *((f"<meta name={k}>", page.tag(k)) for k in (
            "dcterms.modified", "dc.date.modified", "last-modified")),
        ("the Material blog", blog[1].get("datetime") if len(blog) > 1 else None),
    ])


def _git_revision_date(page: MetaSources) -> str | None:
    """The "last update" of Material's source-file footer or the plugin's own span."""
    times = page.select(".md-source-file time[datetime]")
    if times:
        return str(times[0].get("datetime"))
    spans = page.select(_GIT_DATE)
    if not spans:
        return None
    timeago = page.select(".timeago[datetime]", spans[0])
    text = timeago[0].get("datetime") if timeago else text_of(spans[0])
    if text and to_utc_iso(text):
        return to_utc_iso(text)
    page.diagnostics.append(Diagnostic(
        "bad-date",
        f"Cannot read the git-revision-date plugin's date {text!r}; "
        "set its `type` to `iso_datetime` to have it used.",
        page.url, severity="info",
    ))
    return None


def _keywords(page: MetaSources) -> tuple[str, ...]:
    value = page.ld.get("keywords")
    if isinstance(value, str):
        found = _split([value])
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        found = _unique(value)
    else:
        if value is not None:
            page.warn("bad-json-ld", f"Ignoring JSON-LD 'keywords': {value!r}.")
        found = ()
    candidates = (
        _split(page.values("article:tag")),
        _unique(text_of(e) for e in page.select(".md-tags .md-tag")),
        _split(page.values("keywords")),
        _split(page.values("dc.subject") + page.values("dcterms.subject")),
    )
    return found or next((tags for tags in candidates if tags), ())


def _absolute(page: MetaSources, what: str, href: str | None) -> str | None:
    if not href or urls.unsafe_scheme(href):
        return None
    absolute = urls.resolve(href, page.url)
    if urlsplit(absolute).scheme not in ("http", "https"):
        page.warn("bad-url", f"Ignoring the {what} {href!r}: not an http(s) URL.")
        return None
    return absolute


def _ld_image(page: MetaSources) -> str | None:
    value = page.ld.get("image")
    for item in value if isinstance(value, list) else [value]:
        url = (item.get("url") or item.get("contentUrl")) if isinstance(item, dict) else item
        if isinstance(url, str) and url.strip():
            return url
        if url is not None:
            page.warn("bad-json-ld", f"Ignoring JSON-LD 'image': {item!r}.")
    return None


def _image(page: MetaSources) -> str | None:
    href = _ld_image(page) or page.tag(
        "og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"
    )
    return _absolute(page, "image", href)


def _lang(page: MetaSources) -> str | None:
    root = page.root
    ld_lang = page.ld.get("inLanguage")
    candidates = (
        root.get("lang"),
        root.get("xml:lang"),
        ld_lang if isinstance(ld_lang, str) else None,
        page.tag("og:locale"),
        page.tag("http-equiv:content-language", "content-language", "language"),
        page.tag("dc.language", "dcterms.language"),
    )
    for value in candidates:
        if not value or not value.strip():
            continue
        lang = normalize_lang(value.split(",")[0])
        if lang:
            return lang
        page.warn("bad-lang", f"Ignoring the language {value!r}: not a BCP 47 tag.")
    return None


def _linked(page: MetaSources, relation: str) -> str | None:
    for link in page.root.iter("link"):
        if relation in (link.get("rel") or "").lower().split():
            href = link.get("href")
            return urls.resolve(href, page.url) if href and not urls.unsafe_scheme(href) \
                else None
    return None


def _canonical(page: MetaSources) -> str | None:
    for link in page.root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split():
            return _absolute(page, "canonical URL", link.get("href"))
    return _absolute(page, "canonical URL", page.tag("og:url"))
