"""A page's metadata as Sphinx and its blog extension hold it.

ablog keeps a post's date, update, authors and tags in its own records
(``env.ablog_posts``), not in the document's metadata: they join it here, under the
names agentprose reads (``date``, ``modified``, ``authors``, ``tags``), where the
document's own metadata does not say otherwise. The pages ablog generates to list its
posts get views too (:func:`listing_pages`), dated by the newest post they list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.util import logging

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from sphinx.application import Sphinx

__all__ = ["listing_pages", "page_metadata"]

logger = logging.getLogger(__name__)


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


def listing_pages(app: Sphinx) -> dict[str, tuple[str, ...]]:
    """The pages ablog will generate that list posts (the blog's index, its archive,
    tags, categories, authors, locations and languages), by page name, each with the
    documents of the posts it lists, newest first; ``{}`` without ablog.

    Asked once reading is done (``env-updated``), so that these pages are in the site
    map when the posts that link them are converted. ablog's own catalog says which
    pages it will write: the same loop as its ``html-collect-pages`` handler, without
    the drafts page (what is not published is not listed) and the redirect stubs.
    """
    if "ablog" not in app.extensions:
        return {}
    try:
        from ablog.blog import Blog
        from ablog.post import register_posts

        blog = Blog(app)
        if not blog:  # ablog registers its posts on first use; it is used here first
            register_posts(app)
        return _listed(blog, app.env.found_docs)
    except (ImportError, AttributeError, KeyError, TypeError) as error:
        logger.warning("agentprose: ablog's listing pages get no agent view: its catalog "
                       "could not be read (%s). Please report it with your ablog version.",
                       error, type="agentprose", subtype="blog")
        return {}


def _listed(blog: Any, found: set[str]) -> dict[str, tuple[str, ...]]:
    pages = {blog.posts.docname: _docnames(blog.posts)}
    catalogs = (blog.author, blog.location, blog.language, blog.category, blog.archive,
                blog.tags)
    for catalog in catalogs:
        if not catalog:
            continue
        if catalog.docname not in found:
            pages[catalog.docname] = _docnames(post for group in catalog for post in group)
        for collection in catalog:
            if collection and collection.docname not in found:
                pages[collection.docname] = _docnames(collection)
    return {name: posts for name, posts in pages.items() if posts and name not in found}


def _docnames(posts: Iterable[Any]) -> tuple[str, ...]:
    """The posts' documents, newest post first, each once (a document can hold several
    posts)."""
    ordered = sorted(posts, key=lambda post: post.date, reverse=True)
    return tuple(dict.fromkeys(str(post.docname) for post in ordered))
