"""``agentprose check``'s round-trip rule: does each view render back to its page?

The page's main content is found as ``agentprose build`` finds it, normalized, and
compared block for block with what a CommonMark renderer reads from the view's body
(see :mod:`.roundtrip`). A theme that writes part of the content outside what the
plugin converts (a heading it generates from the page's title) shows up here too,
which is why the rule warns rather than fails.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.check.structure import roundtrip_mismatches
from agentprose_core.convert.tree import to_html
from agentprose_core.extract.page import parse_page

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["roundtrip_findings"]


def roundtrip_findings(
    html: str, *, page_url: str, markdown: str, site_map: Mapping[str, str]
) -> list[str]:
    """How the view body ``markdown`` fails to render back to the page ``html``. A page
    whose theme shows none of its content (a template that empties the content block,
    as Material's ``home.html``) has nothing to compare with, and one whose content
    container is unknown is not compared."""
    page = parse_page(html, url=page_url)
    if page.content is None or not page.content.text_content().strip():
        return []
    if any(note.code == "content-fallback" for note in page.diagnostics):
        # No content container the checker knows (a custom theme): it cannot tell the
        # content from the header and navigation around it, which the view rightly lacks.
        return []
    return roundtrip_mismatches(to_html(page.content), markdown, page_url=page_url,
                                site_map=site_map)
