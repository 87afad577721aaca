"""The rules both targets of ``agentprose check`` share: a site folder and a URL.

The checks read the site through a :data:`Reader` (a file system or HTTP), so each rule
is written once. They run in the order of
:data:`~agentprose_core.check.shared.SHARED_CHECKS`, after :func:`load_index` has read
``agentprose.json``; the ``llms.txt`` rules are in :mod:`.llmsrules`.

``url`` and ``markdown_url`` must be under the site's base URL; ``image``, ``prev`` and
``next`` on its origin, as the index writer and the contract ask (an image may live
outside a sub-path site's folder).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias
from urllib.parse import urljoin

from agentprose_core.check.roundtrip import roundtrip_findings
from agentprose_core.check.schema_subset import validate
from agentprose_core.reading.html import body_top_links, head_links
from agentprose_core.reading.llmstxt import (
    linked_urls,
)
from agentprose_core.reading.text import parse_view
from agentprose_core.records.scopes import covering_scope
from agentprose_core.render.index import load_schema
from agentprose_core.urls import is_on_site, page_key, same_origin
from agentprose_core.viewsize import view_size

if TYPE_CHECKING:
    from collections.abc import Iterable

    from agentprose_core.check.report import Report
    from agentprose_core.reading.text import Finding, View

__all__ = [
    "Read",
    "Reader",
    "SiteCheck",
    "add_findings",
    "check_discovery",
    "check_posts",
    "check_views",
    "has_discovery_links",
    "load_index",
    "text_of",
]


@dataclass(frozen=True)
class Read:
    """One file of the site as read: its text, or why there is none.

    ``url`` is where the text came from (after redirects). ``reported`` is true when
    the reader already recorded why there is no text, or chose not to fetch it (a
    request budget): the rules then say nothing more about it.
    """

    text: str | None
    url: str
    reason: str = ""
    reported: bool = False


Reader: TypeAlias = Callable[[str, str], Read]
"""Reads a URL of the site; the kind is ``"file"`` (any file) or ``"page"`` (HTML)."""


@dataclass
class SiteCheck:
    """A site under check: where it is, how to read it, and the report to fill."""

    report: Report
    base: str
    index_url: str
    read: Reader
    where: Callable[[str], str]
    limit: int | None = None
    index: dict[str, Any] = field(default_factory=dict)
    served: set[str] = field(default_factory=set)  # page keys of views read
    scopes: list[str] = field(default_factory=list)  # folders of the sections' llms.txt

    @property
    def posts(self) -> list[dict[str, Any]]:
        """The index's posts that are objects (others are reported elsewhere)."""
        posts = self.index.get("posts")
        return [post for post in posts if isinstance(post, dict)] if isinstance(posts, list) else []

    def checked_posts(self) -> list[dict[str, Any]]:
        """The posts whose view and page are read: all, or the first ``limit``."""
        return self.posts if self.limit is None else self.posts[: self.limit]

    def add(self, rule: str, url: str, message: str, line: int = 0) -> None:
        """Report a problem of ``rule`` at ``url`` (and ``line``, when known)."""
        where = self.where(url) + (f":{line}" if line else "")
        self.report.add(rule, where, message)

    def missing(self, rule: str, read: Read, what: str) -> None:
        """Report that ``what`` could not be read, unless that was said already."""
        if not read.reported:
            self.add(rule, read.url, f"{what}: {read.reason}")


def text_of(post: dict[str, Any], key: str) -> str | None:
    """A post's non-empty string field ``key``, or None."""
    value = post.get(key)
    return value if isinstance(value, str) and value else None


# -- agentprose.json ----------------------------------------------------------------


def load_index(read: Read, check: SiteCheck) -> dict[str, Any] | None:
    """Parse and validate ``agentprose.json``; None when it cannot be used at all."""
    if read.text is None:
        check.missing("index-missing", read, "no agentprose.json")
        return None
    try:
        index = json.loads(read.text)
    except json.JSONDecodeError as error:
        check.add("index-json", read.url, f"not JSON: {error}")
        return None
    if not isinstance(index, dict):
        check.add("index-json", read.url, "not a JSON object")
        return None
    for message in validate(index, load_schema()):
        check.add("index-schema", read.url, message)
    return index


def check_posts(check: SiteCheck) -> None:
    """Every post's URLs on the site, and no URL listed twice."""
    seen: set[str] = set()
    for post in check.posts:
        url = text_of(post, "url")
        for key in ("url", "markdown_url", "image", "prev", "next"):
            value = text_of(post, key)
            on_site = is_on_site if key in ("url", "markdown_url") else same_origin
            if value is not None and not on_site(value, check.base):
                check.add("post-off-site", check.index_url,
                          f"{key} {value} of post {url} is not on the site ({check.base})")
        if url is not None:
            if page_key(url) in seen:
                check.add("index-duplicate", check.index_url, f"{url} is listed twice")
            seen.add(page_key(url))


# -- agent views --------------------------------------------------------------------


def check_views(check: SiteCheck) -> None:
    """Each checked post's view: readable, well formed, saying what the index says."""
    for post in check.checked_posts():
        url = text_of(post, "markdown_url")
        if url is None or not is_on_site(url, check.base):
            continue
        check.report.pages_checked += 1
        read = check.read(url, "file")
        if read.text is None:
            check.missing("view-missing", read, f"no agent view for {post.get('url')}")
            continue
        check.served.add(page_key(url))
        view = parse_view(read.text)
        add_findings(check, url, view.findings)
        _check_directive(check, url, view)
        if view.front:
            _compare(check, url, view, post)
            _compare_size(check, url, read.text, post.get("size"))
            _check_translations(check, url, view.front.get("translations"))


def _check_translations(check: SiteCheck, url: str, translations: object) -> None:
    """Every translation a view names under this site's URL is a page of the site (one
    elsewhere, another language's own site, is checked there)."""
    for item in translations if isinstance(translations, list) else ():
        page = item.get("url") if isinstance(item, dict) else None
        if isinstance(page, str) and is_on_site(page, check.base) \
                and check.read(page, "page").text is None:
            check.add("view-translation", url, f"the translation {page} is no page of the site")


def _check_directive(check: SiteCheck, url: str, view: View) -> None:
    if not view.directive:
        check.add("view-directive", url, "no site-index line ('> Site index: …' or its "
                  "translation) after the front matter")
        return
    for link in linked_urls(view.directive):
        if not is_on_site(link, check.base) or link.rsplit("/", 1)[-1] not in (
                "llms.txt", "agentprose.json") or "/" in link[len(check.base):]:
            check.add("view-directive", url,
                      f"the site-index line links {link}, not a file at the site's root")


def add_findings(check: SiteCheck, url: str, findings: Iterable[Finding]) -> None:
    """Report each of a parsed file's ``findings`` at ``url``."""
    for rule, line, message in findings:
        check.add(rule, url, message, line)


_SAME_AS_INDEX = (
    ("title", "title"), ("modified", "modified"),
    ("published", "published"), ("lang", "lang"), ("prev", "prev"), ("next", "next"),
)


def _compare(check: SiteCheck, url: str, view: View, post: dict[str, Any]) -> None:
    cited = post.get("canonical") or post.get("url")
    if view.front.get("canonical") != cited:
        check.add("view-index", url, f"canonical is {view.front.get('canonical')!r}; "
                                     f"agentprose.json says {cited!r}")
    for front_key, post_key in _SAME_AS_INDEX:
        ours, theirs = view.front.get(front_key), post.get(post_key)
        if ours != theirs:
            check.add("view-index", url,
                      f"{front_key} is {ours!r}; agentprose.json says {post_key} {theirs!r}")
    author = view.front.get("author")
    authors = [author] if isinstance(author, str) else author
    if authors != post.get("authors"):
        check.add("view-index", url,
                  f"author is {author!r}; agentprose.json says {post.get('authors')!r}")
    if "markdown" in post and post["markdown"] != view.body:
        check.add("view-index", url, "the body differs from the post's markdown in the index")
    for key in ("canonical", "prev", "next"):
        value = view.front.get(key)
        if isinstance(value, str) and not same_origin(value, check.base):
            check.add("post-off-site", url, f"{key} {value} is not on the site's origin")


def _compare_size(check: SiteCheck, url: str, text: str, given: object) -> None:
    """The size the index gives is the view's: an agent plans its reading by it."""
    if not isinstance(given, dict):
        return
    size = view_size(text)
    if (given.get("characters"), given.get("tokens")) != (size.characters, size.tokens):
        check.add("view-index", url,
                  f"agentprose.json gives a size of {given.get('characters')!r} characters, "
                  f"{given.get('tokens')!r} tokens; the view has {size.characters} characters, "
                  f"{size.tokens} tokens by the rule")


# -- discovery links ----------------------------------------------------------------


def check_discovery(check: SiteCheck) -> None:
    """Each checked post's page links its view once and the index once, and its view
    renders back to its content."""
    views = _site_map(check)
    for post in check.checked_posts():
        url, view = text_of(post, "url"), text_of(post, "markdown_url")
        if url is None or view is None or not is_on_site(url, check.base):
            continue
        read = check.read(url, "page")
        if read.text is None:
            check.missing("page-missing", read, "no HTML page")
            continue
        describedby = check.base + covering_scope(url, check.base, check.scopes) + "llms.txt"
        for rule, message in _discovery_findings(read.text, read.url, view, check.index_url,
                                                describedby):
            check.add(rule, url, message)
        top = [urljoin(read.url, href) for href in body_top_links(read.text)]
        if page_key(view) not in {page_key(href) for href in top}:
            check.add("discovery-hint", url,
                      "the top of the body has no link to the page's view, for agents "
                      "that drop the <head>")
        markdown = post.get("markdown")
        if isinstance(markdown, str):
            for message in roundtrip_findings(read.text, page_url=url, markdown=markdown,
                                              site_map=views):
                check.add("view-roundtrip", view, message)


def _site_map(check: SiteCheck) -> dict[str, str]:
    return {page_key(str(post["url"])): str(post["markdown_url"]) for post in check.posts
            if isinstance(post.get("url"), str) and isinstance(post.get("markdown_url"), str)}


def _discovery_findings(
    html: str, page_url: str, view: str, index_url: str, describedby: str | None = None
) -> list[tuple[str, str]]:
    """What is wrong with the discovery links of a page whose view is ``view``;
    ``describedby``, when given, is the llms.txt its ``rel=describedby`` must name."""
    links = head_links(html)
    views = [link for link in links if "alternate" in link.rel and link.type == "text/markdown"]
    indexes = [link for link in links if "agentprose-index" in link.rel]
    described = [urljoin(page_url, link.href) for link in links if "describedby" in link.rel]
    found: list[tuple[str, str]] = []
    if not views:
        found.append(("discovery-missing", "no <link rel=\"alternate\" type=\"text/markdown\">"))
    elif len(views) > 1:
        found.append(("discovery-duplicate", f"{len(views)} text/markdown alternate links"))
    elif page_key(urljoin(page_url, views[0].href)) != page_key(view):
        found.append(("discovery-href", f"the alternate link points at {views[0].href}"))
    if len(indexes) != 1:
        found.append(("discovery-index", f"{len(indexes)} rel=\"agentprose-index\" links"))
    elif urljoin(page_url, indexes[0].href) != index_url:
        found.append(("discovery-index", f"the index link points at {indexes[0].href}"))
    if describedby is not None and described != [describedby]:
        found.append(("discovery-describedby",
                      (f"rel=\"describedby\" links {described or 'nothing'}; the llms.txt "
                       f"that covers the page is {describedby}")))
    return found


def has_discovery_links(html: str) -> bool:
    """True when a page's head carries either discovery link."""
    return any(
        ("alternate" in link.rel and link.type == "text/markdown")
        or "agentprose-index" in link.rel
        for link in head_links(html)
    )
