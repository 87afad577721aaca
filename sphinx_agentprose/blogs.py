"""A page's metadata as Sphinx and its blog extension hold it.

ablog keeps a post's date, update, authors and tags in its own records
(``env.ablog_posts``), not in the document's metadata: they join it here, under the
names agentprose reads (``date``, ``modified``, ``authors``, ``tags``), where the
document's own metadata does not say otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

    from sphinx.application import Sphinx

__all__ = ["page_metadata"]


def page_metadata(app: Sphinx, docname: str) -> Mapping[str, Any]:
    """The document's metadata, with its blog post's facts where it has them."""
    own: Mapping[str, Any] = app.env.metadata.get(docname, {})
    posts = getattr(app.env, "ablog_posts", None)
    post = posts.get(docname) if isinstance(posts, dict) else None
    if not post or not isinstance(post, list) or not isinstance(post[0], dict):
        return own
    first = post[0]
    facts: dict[str, Any] = {}
    if first.get("date"):
        facts["date"] = first["date"]
    if first.get("update") and first.get("update") != first.get("date"):
        facts["modified"] = first["update"]  # an explicit :update:, not the post's date
    authors = getattr(app.config, "blog_authors", {}) or {}
    names = [_author_name(authors, key) for key in first.get("author") or ()]
    if names:
        facts["authors"] = names
    if first.get("tags"):
        facts["tags"] = list(first["tags"])
    return {**facts, **own}


def _author_name(authors: Mapping[str, Any], key: object) -> str:
    """ablog names an author by a key of ``blog_authors``: ``{key: (name, url)}``."""
    found = authors.get(key) if isinstance(key, str) else None
    if isinstance(found, (tuple, list)) and found and isinstance(found[0], str):
        return found[0]
    return str(key)
