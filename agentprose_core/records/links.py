"""Links between views, checked once the site's records are complete: a build reports
what it can tell is wrong instead of publishing it (the contract's "every build checks
itself").

- ``link-not-view``: a view links a page of the site that has a view by the page's
  HTML URL (the conversion found no view for the spelling the link used);
- ``fragment-lost``: a view links ``view.md#x`` where the target page's HTML has the id
  ``x`` but its view has no heading or anchor for it.

A fragment that the target's HTML lacks too is the site's own broken link, not ours,
and is not reported. Each code is one warning for the build, naming a few places.
"""

from __future__ import annotations

import re
from html import unescape
from typing import TYPE_CHECKING
from urllib.parse import unquote

from agentprose_core.convert.slugs import outside_code, view_targets
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from agentprose_core.model import PageRecord

__all__ = ["link_findings", "site_links"]

_MARKDOWN_LINK = re.compile(r"\]\((<[^>\n]*>|[^)\s]+)")
_HTML_LINK = re.compile(r'href="([^"]*)"')
_NAMED = 3  # places a warning names before it says how many more


def site_links(markdown: str, base: str) -> tuple[str, ...]:
    """The URLs on the site (under ``base``) that a view's ``markdown`` links, as
    written, in order (not in code blocks, where a page may show link syntax with the
    site's URLs)."""
    return tuple(_links(markdown, base)) if base in markdown else ()


def _links(markdown: str, base: str) -> Iterator[str]:
    if "```" in markdown or "~~~" in markdown:
        markdown = "\n".join(outside_code(markdown))
    for match in _MARKDOWN_LINK.finditer(markdown):
        url = match.group(1).strip("<>")
        if url.startswith(base):
            yield url
    if 'href="' in markdown:  # tables kept as HTML
        for found in _HTML_LINK.findall(markdown):
            url = unescape(found)
            if url.startswith(base):
                yield url


def link_findings(pages: Sequence[PageRecord], base: str, *,
                  links: Callable[[PageRecord], Sequence[str]] | None = None,
                  targets: Callable[[PageRecord], frozenset[str]] | None = None,
                  ) -> list[Diagnostic]:
    """What is wrong with the links between ``pages``' views (see the module's text).
    ``links`` and ``targets`` give a page's :func:`site_links` and
    :func:`~agentprose_core.convert.slugs.view_targets` when the caller keeps them."""
    links_of = links or (lambda page: site_links(page.markdown, base))
    targets_of = targets or (lambda page: view_targets(page.markdown))
    by_view = {page.markdown_url: page for page in pages}
    by_page = {page_key(page.url): page for page in pages}
    found: dict[str, frozenset[str]] = {}
    not_views: list[str] = []
    lost: list[str] = []
    for page in pages:
        for url in links_of(page):
            address, _, fragment = url.partition("#")
            target = by_view.get(address)
            if target is None:
                if page_key(address) in by_page:  # a page with a view, by its HTML URL
                    not_views.append(f"{page.markdown_url} links {url}")
                continue
            if not fragment or not target.unanchored:
                continue
            if address not in found:
                found[address] = targets_of(target)
            plain = unquote(fragment)
            if plain not in found[address] and plain in target.unanchored:
                lost.append(f"{page.markdown_url} links {url}")
    return [*_one("link-not-view", not_views, "link(s) between views lead to a page's HTML "
                  "URL instead of its view"),
            *_one("fragment-lost", lost, "link(s) lead to a fragment that the target page "
                  "has but its view lost")]


def _one(code: str, places: list[str], what: str) -> list[Diagnostic]:
    if not places:
        return []
    named = "; ".join(places[:_NAMED]) + (
        f"; and {len(places) - _NAMED} more" if len(places) > _NAMED else "")
    return [Diagnostic(code, f"{len(places)} {what}: {named}. Please report the pages to "
                       "agentprose.")]
