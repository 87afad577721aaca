"""A site as the tools see it: the posts of its ``agentprose.json``, read and checked.

:func:`site_from_index` takes the decoded JSON of an index (and of its parts, for a
split index) and returns a :class:`LoadedSite`, or raises :class:`IndexProblem` with a
sentence that says what is wrong. Only what the tools use is checked; unknown keys
are ignored, as the format asks of readers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["Heading", "IndexProblem", "LoadedSite", "Post", "parts_of", "site_from_index"]


class IndexProblem(Exception):
    """The index cannot be used; the message says why and what to change."""


@dataclass(frozen=True)
class Heading:
    """One heading of a page's outline, as the index lists it."""
    level: int
    title: str
    id: str = ""


@dataclass(frozen=True)
class Post:
    """One page of the site, as the index lists it."""
    number: int
    """Position in reading order."""
    url: str
    markdown_url: str
    title: str
    modified: str
    summary: str = ""
    authors: tuple[str, ...] = ()
    published: str = ""
    tags: tuple[str, ...] = ()
    section: tuple[str, ...] = ()
    headings: tuple[Heading, ...] = ()
    prev: str = ""
    next: str = ""
    lang: str = ""
    markdown: str | None = None
    """The view's body, when the index carries it."""


@dataclass
class LoadedSite:
    """A site's index as loaded: its name, URL and pages in reading order."""
    name: str
    url: str
    posts: list[Post]
    description: str = ""
    lang: str = ""
    generator: str = ""
    _keys: dict[str, Post] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for post in self.posts:
            self._keys.setdefault(page_key(post.url), post)
            self._keys.setdefault(page_key(post.markdown_url), post)

    @property
    def has_bodies(self) -> bool:
        """True when every page's Markdown is in the index."""
        return all(post.markdown is not None for post in self.posts)

    def find(self, url_or_path: str) -> Post | None:
        """The post a page URL, view URL or site path names (``/guide/install/``,
        ``guide/install``, ``guide/install.md``; a fragment or query is ignored)."""
        wanted = url_or_path.strip()
        if not wanted:
            return None
        if "://" not in wanted:
            wanted = urljoin(self.url, wanted.lstrip("/"))
        wanted = wanted.split("#", 1)[0].split("?", 1)[0]
        for candidate in (wanted, wanted + "/", wanted.removesuffix(".md"),
                          wanted.removesuffix(".md") + "/", wanted.removesuffix(".html"),
                          wanted.removesuffix("index.md")):
            post = self._keys.get(page_key(candidate))
            if post is not None:
                return post
        return None

    def sections(self) -> list[tuple[str, int]]:
        """Each top-level section with its number of pages, in reading order."""
        counts: dict[str, int] = {}
        for post in self.posts:
            name = post.section[0] if post.section else ""
            counts[name] = counts.get(name, 0) + 1
        return list(counts.items())


def parts_of(data: Mapping[str, Any], index_url: str) -> list[str]:
    """The URLs of a split index's further files, in order (``[]`` for a whole index)."""
    parts = data.get("parts", [])
    if not isinstance(parts, list) or not all(isinstance(part, str) for part in parts):
        raise IndexProblem("'parts' must be a list of URLs of the index's further files")
    return [urljoin(index_url, part) for part in parts]


def site_from_index(data: object, parts: Sequence[object] = ()) -> LoadedSite:
    """The site an index describes; ``parts`` are the decoded files a split index names."""
    root = _document(data, "the index")
    site = _mapping(root.get("site"), "the index's 'site'")
    base = _text(site, "url", "the index's 'site'")
    if not base.endswith("/") or urlsplit(base).scheme not in ("http", "https"):
        raise IndexProblem(f"the site URL {base!r} is not an http(s) URL ending with '/'")
    raw_posts = list(_list(root, "posts", "the index"))
    for number, part in enumerate(parts, 1):
        raw_posts += _list(_document(part, f"part {number} of the index"), "posts",
                           f"part {number} of the index")
    posts = [_post(raw, number, base) for number, raw in enumerate(raw_posts)]
    return LoadedSite(name=_text(site, "name", "the index's 'site'"), url=base, posts=posts,
                      description=_optional(site, "description"),
                      lang=_optional(site, "lang"),
                      generator=_optional(root, "generator"))


def _document(data: object, name: str) -> Mapping[str, Any]:
    document = _mapping(data, name)
    if document.get("version") != 1:
        raise IndexProblem(f"{name} has version {document.get('version')!r}; this agentprose "
                           "reads version 1: upgrade agentprose")
    return document


def _post(raw: object, number: int, base: str) -> Post:
    where = f"post {number + 1} of the index"
    post = _mapping(raw, where)
    url = _text(post, "url", where)
    markdown_url = _text(post, "markdown_url", where)
    origin = _origin(base)
    for value in (url, markdown_url):
        if _origin(value) != origin:
            raise IndexProblem(f"{where}: {value!r} is not on the site's origin "
                               f"{origin[0]}://{origin[1]}")
    markdown = post.get("markdown")
    if markdown is not None and not isinstance(markdown, str):
        raise IndexProblem(f"{where}: 'markdown' is not a string")
    return Post(
        number=number, url=url, markdown_url=markdown_url, title=_text(post, "title", where),
        modified=_optional(post, "modified"), summary=_optional(post, "summary"),
        authors=_texts(post, "authors"), published=_optional(post, "published"),
        tags=_texts(post, "tags"), section=_texts(post, "section"),
        headings=tuple(_heading(item) for item in post.get("headings") or ()
                       if isinstance(item, dict)),
        prev=_optional(post, "prev"), next=_optional(post, "next"),
        lang=_optional(post, "lang"), markdown=markdown,
    )


def _heading(raw: Mapping[str, Any]) -> Heading:
    level = raw.get("level")
    return Heading(level if isinstance(level, int) else 2, str(raw.get("title", "")),
                   str(raw.get("id", "")))


def _origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc.lower()


def _mapping(value: object, name: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise IndexProblem(f"{name} is not a JSON object")
    return value


def _list(data: Mapping[str, Any], key: str, name: str) -> list[object]:
    value = data.get(key)
    if not isinstance(value, list):
        raise IndexProblem(f"{name} has no '{key}' list")
    return value


def _text(data: Mapping[str, Any], key: str, name: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise IndexProblem(f"{name} has no '{key}' text")
    return value


def _optional(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _texts(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key)
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(item for item in value if isinstance(item, str))
    return ()
