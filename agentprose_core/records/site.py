"""Which pages of a site get a view, and the site map they are converted with: what
every assembly (MkDocs', Sphinx's, ``agentprose build``'s) decides the same way.
"""

from __future__ import annotations

import fnmatch
import re
from typing import TYPE_CHECKING

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.urls import NO_VIEW, page_key, site_map, view_collisions

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from agentprose_core.records.metadata import PageFacts

__all__ = [
    "exclusion", "is_excluded", "is_redirect_stub", "is_source_excluded", "left_out_note",
    "site_views",
]


def is_source_excluded(source: str, patterns: Sequence[str]) -> bool:
    """True for a source path that an ``exclude`` glob leaves out."""
    return any(fnmatch.fnmatch(source, pattern) for pattern in patterns)


def is_excluded(facts: PageFacts, source: str, patterns: Sequence[str]) -> bool:
    """True for pages that get no agent output: ``agentprose: false``, drafts, globs."""
    return exclusion(facts, source, patterns) is not None


def exclusion(facts: PageFacts, source: str, patterns: Sequence[str]) -> str | None:
    """Why a page gets no agent output (as :func:`left_out_note` says it), or None."""
    if facts.draft:
        return "draft: true"
    if facts.excluded:
        return "agentprose: false"
    return "exclude" if is_source_excluded(source, patterns) else None


def left_out_note(reasons: Mapping[str, str]) -> list[Diagnostic]:
    """One info naming the pages (by source) that get no view, each with why: a build
    tells of every page it writes without a view."""
    if not reasons:
        return []
    named = ", ".join(f"{source} ({why})" for source, why in list(reasons.items())[:_NAMED])
    more = f" and {len(reasons) - _NAMED} more" if len(reasons) > _NAMED else ""
    return [Diagnostic("no-view", f"{len(reasons)} page(s) get no agent view: {named}{more}.",
                       severity="info")]


_NAMED = 5


_REFRESH = re.compile(r"""<meta\b[^>]*http-equiv\s*=\s*["']?refresh\b[^>]*url\s*=""",
                      re.IGNORECASE)


def is_redirect_stub(content_html: str) -> bool:
    """True for a page whose content is a redirect (a ``<meta http-equiv="refresh">``
    written in its Markdown, as some sites move pages): nothing to read there."""
    return "<meta" in content_html and _REFRESH.search(content_html) is not None


def site_views(kept: Sequence[str], left_out: Iterable[str], base_url: str,
               layout: str) -> tuple[dict[str, str], list[Diagnostic]]:
    """The site map the pages are converted with (page key -> view URL), and a warning
    for each view URL two pages would share. The pages ``left_out`` are in it as
    ``NO_VIEW``: links to them become plain text, toctree entries naming them go."""
    views = {**{page_key(url): NO_VIEW for url in left_out}, **site_map(kept, base_url, layout)}
    notes = [Diagnostic("view-collision", message)
             for message in view_collisions(kept, base_url, layout)]
    return views, notes
