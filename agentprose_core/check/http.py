"""``agentprose check URL``: the shared rules over HTTP, plus what only a server shows.

Every request goes through a :class:`.client.Client`, which never leaves the target's
origin and stops at a request budget.

Levels, from ``docs/formats.md``: a ``.md`` view must be served (error), as Markdown or
at least ``text/plain`` (else error; ``text/plain`` or no ``charset=utf-8`` is a
warning), with a validator and a working ``304`` (warnings: static hosts decide).
A page URL that ignores ``Accept: text/markdown`` is one warning (GitHub Pages and Read
the Docs cannot negotiate). A server that *does* negotiate must do it right, so each
of its mistakes is an error: ``text/markdown; charset=utf-8``, ``Vary: Accept`` on both
representations, a validator and ``304``, the same body as the ``.md`` file, HTML for
a browser's ``Accept`` and Markdown when both types have equal weight.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from agentprose_core.check.client import Client
from agentprose_core.check.endpoint import check_endpoint
from agentprose_core.check.report import Report
from agentprose_core.check.rules import (
    Read,
    SiteCheck,
    load_index,
    text_of,
)
from agentprose_core.check.shared import SHARED_CHECKS
from agentprose_core.errors import InputError
from agentprose_core.model import INDEX_NAME
from agentprose_core.reading.fetch import Fetch, HttpResponse, urllib_fetch
from agentprose_core.reading.html import head_links
from agentprose_core.records.scopes import covering_scope
from agentprose_core.urls import base_url_of, page_key, same_origin

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["AGENT_ACCEPT", "BROWSER_ACCEPT", "HTTP_CHECKS", "check_url"]

AGENT_ACCEPT = "text/markdown, text/html;q=0.8"
TIE_ACCEPT = "text/markdown, text/html"
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
FILE_ACCEPT = "*/*"
_HTML_TYPES = ("text/html", "application/xhtml+xml")


# -- reading the site ---------------------------------------------------------------


def _reader(client: Client) -> Callable[[str, str], Read]:
    def read(url: str, kind: str) -> Read:
        accept = BROWSER_ACCEPT if kind == "page" else FILE_ACCEPT
        response = client.get(url, accept=accept)
        if response is None:
            return Read(None, url, "not fetched", reported=True)
        if response.status != 200:
            return Read(None, url, f"answered HTTP {response.status}")
        if kind == "page" and response.media_type not in _HTML_TYPES:
            return Read(None, url, f"a browser gets {response.media_type or 'no type'}, not HTML")
        try:
            text = response.body.decode("utf-8")
        except UnicodeDecodeError:
            return Read(None, url, "is not UTF-8")
        client.report.files_read += 1
        return Read(text, response.url)
    return read


def _locate_index(client: Client, url: str) -> Read:
    """``agentprose.json`` next to the target, else where its start page links it."""
    read = _reader(client)
    path = urlsplit(url).path
    if path.endswith("/" + INDEX_NAME):
        return read(url, "file")
    if path.endswith("/") or not path:
        direct = read(urljoin(url, INDEX_NAME), "file")
        if direct.text is not None or direct.reported:
            return direct
    page = read(url, "page")
    if page.text is not None:
        links = [link for link in head_links(page.text) if "agentprose-index" in link.rel]
        if links:
            return read(urljoin(page.url, links[0].href), "file")
    return Read(None, url, "no agentprose.json at the target and no "
                           "<link rel=\"agentprose-index\"> on its page")


def check_url(
    url: str,
    *,
    max_pages: int = 50,
    timeout: float = 10,
    fetch: Fetch = urllib_fetch,
    max_requests: int | None = None,
) -> Report:
    """Check the deployed site at ``url`` (its base URL or one of its pages).

    Reads at most ``max_pages`` views and pages, in the index's order, and sends at
    most ``max_requests`` requests (default ``12 + 7 * max_pages``), each with
    ``timeout`` seconds. Raises :class:`InputError` when ``url`` is not http(s).
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InputError(f"Give an http(s) URL or a site folder to check (got {url!r}).")
    if max_pages < 1:
        raise InputError(f"max_pages must be at least 1, not {max_pages}.")
    origin = f"{parts.scheme}://{parts.netloc.lower()}/"
    report = Report(target=url)
    budget = max_requests if max_requests is not None else 12 + 7 * max_pages
    client = Client(origin, fetch, report=report, timeout=timeout, max_requests=budget)
    index_read = _locate_index(client, url)
    check = SiteCheck(report, origin, index_read.url, _reader(client), where=str,
                      limit=max_pages)
    check.index = load_index(index_read, check) or {}
    base = _base(check, origin)
    if base is not None:
        check.base = base
        for rule in SHARED_CHECKS:
            rule(check)
        for http_rule in HTTP_CHECKS:
            http_rule(check, client)
    _notes(check, client)
    return report


def _base(check: SiteCheck, origin: str) -> str | None:
    """The site's base URL from the index, when it is usable and on the origin."""
    site: Any = check.index.get("site")
    url = site.get("url") if isinstance(site, dict) else None
    if not isinstance(url, str):
        return None
    try:
        base = base_url_of(url)
    except InputError:
        return None
    if not same_origin(base, origin):
        check.add("index-base", check.index_url,
                  f"site.url {url} is not on {origin}: the rest was not checked")
        return None
    return base


def _notes(check: SiteCheck, client: Client) -> None:
    total = len(check.posts)
    if check.limit is not None and total > check.limit:
        check.report.notes.append(
            f"Checked the views and pages of the first {check.limit} of {total} posts "
            "(--max-pages).")
    if client.skipped:
        check.report.notes.append(
            f"Request budget of {client.max_requests} reached: {client.skipped} requests "
            "not sent.")


# -- what only a server shows -------------------------------------------------------


def check_served_views(check: SiteCheck, client: Client) -> None:
    """Each view fetched (a post's or an llms.txt link): type, validator and ``304``."""
    views = [text_of(post, "markdown_url") for post in check.checked_posts()]
    # (an agent skill's SKILL.md is Markdown, and no view)
    views += [url for url, accept in client.cache if accept == FILE_ACCEPT and
              urlsplit(url).path.endswith(".md") and "/.well-known/" not in url]
    for url in dict.fromkeys(view for view in views if view):
        response = client.cached(url, FILE_ACCEPT)
        if response is None or response.status != 200:
            continue
        _view_type(check, response)
        if response.validator() is None:
            check.add("view-validator", response.url, "no ETag or Last-Modified")
        elif not _revalidates(client, response, FILE_ACCEPT):
            check.add("view-revalidate", response.url,
                      "a conditional request with its validator did not get 304")


def _view_type(check: SiteCheck, response: HttpResponse) -> None:
    kind, charset = response.media_type, response.charset
    if kind not in ("text/markdown", "text/plain"):
        check.add("view-content-type", response.url,
                  f"served as {kind or 'no content type'}, not text/markdown")
    elif kind != "text/markdown" or charset != "utf-8":
        check.add("view-content-type-plain", response.url,
                  f"served as {response.header('content-type')!r}, not "
                  "'text/markdown; charset=utf-8'")


def _revalidates(client: Client, response: HttpResponse, accept: str) -> bool:
    validator = response.validator()
    if validator is None:
        return False
    again = client.get(response.url, accept=accept, extra=dict([validator]))
    return again is not None and again.status == 304


def check_negotiation(check: SiteCheck, client: Client) -> None:
    """Page URLs asked for Markdown: one warning if the host cannot, else every rule."""
    for number, post in enumerate(check.checked_posts()):
        url, view = text_of(post, "url"), text_of(post, "markdown_url")
        if url is None or view is None:
            continue
        answer = client.get(url, accept=AGENT_ACCEPT, extra={"Cache-Control": "no-cache"})
        if answer is None:
            continue
        if answer.status != 200:
            check.add("http-status", url, f"answered HTTP {answer.status} to {AGENT_ACCEPT}")
        elif answer.media_type == "text/html":
            check.add("negotiation-unsupported", url,
                      f"Accept: {AGENT_ACCEPT} gets HTML; agents must follow the link")
            if number == 0:
                return  # a host that cannot negotiate: one warning is enough
        else:
            _negotiated(check, client, answer, view, first=number == 0)


def _negotiated(check: SiteCheck, client: Client, answer: HttpResponse, view: str, *,
                first: bool) -> None:
    url = answer.url
    if answer.media_type != "text/markdown" or answer.charset != "utf-8":
        check.add("negotiation-content-type", url,
                  f"answered {answer.header('content-type')!r}")
    browser = client.cached(url, BROWSER_ACCEPT)
    if not answer.varies_on_accept() or (browser is not None and not browser.varies_on_accept()):
        check.add("negotiation-vary", url, "a negotiated answer lacks Vary: Accept")
    if browser is not None and browser.media_type not in _HTML_TYPES:
        check.add("negotiation-browser", url, f"a browser gets {browser.media_type!r}")
    served = client.cached(view, FILE_ACCEPT)
    if served is not None and served.status == 200 and served.body != answer.body:
        check.add("negotiation-body", url, f"the Markdown differs from {view}")
    if answer.validator() is None:
        check.add("negotiation-validator", url, "no ETag or Last-Modified")
    elif not _revalidates(client, answer, AGENT_ACCEPT):
        check.add("negotiation-revalidate", url,
                  "a conditional request with its validator did not get 304")
    if first:
        tie = client.get(url, accept=TIE_ACCEPT, extra={"Cache-Control": "no-cache"})
        if tie is not None and tie.media_type != "text/markdown":
            check.add("negotiation-tie", url,
                      f"Accept: {TIE_ACCEPT} gets {tie.media_type!r}; a tie goes to Markdown")


_LINK_VALUE = re.compile(r"<(?P<url>[^>]*)>(?P<params>(?:\s*;\s*[^;,]*)*)")
_REL = re.compile(r"""(?:^|;)\s*rel\s*=\s*(?:"(?P<quoted>[^"]*)"|(?P<token>[^\s;,]+))""",
                  re.IGNORECASE)


def link_relations(value: str, base: str) -> dict[str, list[str]]:
    """A ``Link`` field (RFC 8288) as relation -> absolute target URLs."""
    relations: dict[str, list[str]] = {}
    for match in _LINK_VALUE.finditer(value):
        rel = _REL.search(match["params"])
        if rel is None:
            continue
        for name in (rel["quoted"] or rel["token"] or "").lower().split():
            relations.setdefault(name, []).append(urljoin(base, match["url"].strip()))
    return relations


def check_link_headers(check: SiteCheck, client: Client) -> None:
    """Page URLs send the discovery links as a ``Link`` header too (many fetchers keep
    the headers and drop the ``<head>``): one warning if the host sends none."""
    for number, post in enumerate(check.checked_posts()):
        url, view = text_of(post, "url"), text_of(post, "markdown_url")
        page = client.cached(url, BROWSER_ACCEPT) if url else None
        if url is None or view is None or page is None or page.status != 200:
            continue
        relations = link_relations(page.header("link"), page.url)
        if not relations and number == 0:
            check.add("http-link", url, "no Link header: agents that drop the <head> find the "
                                        "view only through the body's hint and llms.txt")
            return
        expected = {
            "alternate": view,
            "describedby": check.base + covering_scope(url, check.base, check.scopes)
            + "llms.txt",
        }
        for rel, target in expected.items():
            if [page_key(found) for found in relations.get(rel, [])] != [page_key(target)]:
                check.add("http-link", url, f"the Link header's rel={rel} is "
                                            f"{relations.get(rel) or 'missing'}, not {target}")


HTTP_CHECKS: tuple[Callable[[SiteCheck, Client], None], ...] = (
    check_served_views,
    check_negotiation,
    check_link_headers,
    check_endpoint,
)
