"""What a page URL links in its ``Link`` header, and the Markdown ``404``, per folder.

A host configuration cannot look at the disk, so it is told which folders of the site
hold an ``llms.txt`` (``llms_scopes``: ``""`` for the root, ``"guide/"``...) and whether
the site has an ``agentprose.json``; a request then takes the rule of the longest folder
its path starts with, as ``agentprose serve`` takes the nearest ``llms.txt`` on disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from agentprose_core.agents import link_header, not_found_markdown
from agentprose_core.errors import InputError
from agentprose_core.model import INDEX_NAME, LLMS_NAME
from agentprose_core.sitepaths import SAFE

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["UNSAFE", "LinkRule", "link_rules", "normalize_scopes"]

UNSAFE = frozenset('"$\\{};`') | {chr(c) for c in range(32)} | {"\x7f"}
"""Characters no generated configuration can hold unquoted."""


@dataclass(frozen=True)
class LinkRule:
    """The links of the page URLs under one folder (or of any URL: ``prefix`` None)."""

    prefix: str | None
    """The decoded URL path the rule covers (``/docs/guide/``); None for the fallback."""
    describedby: str | None
    """The percent-encoded URL path of the folder's ``llms.txt``."""
    index: str | None
    """The percent-encoded URL path of ``agentprose.json``."""

    @property
    def links(self) -> str:
        """The ``Link`` value of a page's Markdown answer ("" when there is nothing)."""
        return link_header(describedby=self.describedby, index=self.index)

    def html_links(self, view: str) -> str:
        """The ``Link`` value of a page's HTML answer, whose view is at ``view``."""
        return link_header(view=view, describedby=self.describedby, index=self.index)

    @property
    def not_found(self) -> str:
        """The body of the Markdown ``404`` for a path under the folder."""
        return not_found_markdown(describedby=self.describedby, index=self.index)


def normalize_scopes(llms_scopes: Iterable[str]) -> tuple[str, ...]:
    """``("", "/guide", "api/")`` -> ``("", "guide/", "api/")``: site-relative folders,
    each once, longest first (the order a first-match rule list needs)."""
    found: set[str] = set()
    for scope in llms_scopes:
        segments = [s for s in scope.strip().split("/") if s]
        if any(s in (".", "..") for s in segments) or UNSAFE & set(scope):
            raise InputError(f"The llms.txt folder {scope!r} cannot go into a server "
                             "configuration: give a plain folder of the site, like guide/.")
        found.add("".join(s + "/" for s in segments))
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


def link_rules(base: str, llms_scopes: Iterable[str], *, index: bool) -> tuple[LinkRule, ...]:
    """The rules for a site under ``base`` (normalized, ``/docs/``), most specific first,
    then the fallback for a path no folder covers."""
    index_url = quote(base + INDEX_NAME, safe=SAFE) if index else None
    rules = [LinkRule(base + scope, quote(base + scope + LLMS_NAME, safe=SAFE), index_url)
             for scope in normalize_scopes(llms_scopes)]
    return (*rules, LinkRule(None, None, index_url))
