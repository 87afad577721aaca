"""``agentprose.json``: the site index, and the JSON Schema that describes it.

Two steps, so that problems are reported once and rendering stays a pure function:

1. :func:`check_pages` keeps the pages the index may list and returns a
   :class:`Diagnostic` for everything it left out (a page off the site, a duplicate, a
   missing title or a malformed time) or cleared (an off-origin image, prev or next).
2. :func:`render_index` / :func:`iter_index_chunks` write the checked pages. Given
   pages that :func:`check_pages` would still change, they raise :class:`InputError`
   rather than publish a URL off the site or drop a page without saying so.

The output is deterministic: posts keep the reading order they are given in, keys follow
the order of ``docs/formats.md``, and the text is exactly
``json.dumps(document, ensure_ascii=False, indent=2) + "\\n"``, whether it is built whole
or streamed in chunks.
"""

from __future__ import annotations

import dataclasses
import json
import re
from json.encoder import encode_basestring
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentprose_core.diagnostics import Diagnostic
from agentprose_core.errors import AgentproseError, InputError
from agentprose_core.render.jsontext import dumps_indented
from agentprose_core.urls import base_url_of, is_on_site, page_key, same_origin

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from importlib.abc import Traversable

    from agentprose_core.model import Heading, PageRecord, SiteRecord
    from agentprose_core.viewsize import ViewSize

__all__ = [
    "INDEX_VERSION",
    "SCHEMA_ID",
    "SCHEMA_NAME",
    "check_pages",
    "ensure_checked",
    "iter_index_chunks",
    "load_schema",
    "post_json",
    "render_index",
    "schema_path",
    "with_markdown",
]

INDEX_VERSION = 1
SCHEMA_NAME = "agentprose-1.schema.json"
SCHEMA_ID = "https://agentprose.dev/schema/agentprose-1.schema.json"

_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_UNLISTED = "Not listed in agentprose.json or llms.txt: "


# -- checking -----------------------------------------------------------------------


def check_pages(
    site: SiteRecord, pages: Sequence[PageRecord]
) -> tuple[list[PageRecord], list[Diagnostic]]:
    """The pages the site-wide files may list, and why the others were changed or left out.

    A page is left out when its URL or view URL is not under the site's base URL (the
    client only fetches its own origin, and llms.txt links must resolve to files we
    wrote), when it repeats an earlier page's URL, when its title is blank or when
    ``modified`` is not a UTC time. An optional ``published``, ``image``, ``prev`` or
    ``next`` that is malformed or off the origin is cleared and the page kept.
    Raises :class:`InputError` when the site URL itself is unusable.
    """
    base = base_url_of(site.url)
    kept: list[PageRecord] = []
    diagnostics: list[Diagnostic] = []
    seen: set[str] = set()
    for page in pages:
        problem = _exclusion(page, base, seen)
        if problem is not None:
            diagnostics.append(problem)
            continue
        seen.add(page_key(page.url))
        cleaned, notes = _clean_optional(page, base)
        kept.append(cleaned)
        diagnostics.extend(notes)
    return _Checked(kept, site.url), diagnostics


class _Checked(list["PageRecord"]):
    """The pages :func:`check_pages` kept for one site URL. Each renderer checks its
    pages again (:func:`ensure_checked`), and four renderers of a 1,000-page site did so
    in 70 ms: this list is trusted as long as it holds the very pages it was made with."""

    def __init__(self, pages: list[PageRecord], site_url: str) -> None:
        super().__init__(pages)
        self._site_url = site_url
        self._pages = tuple(pages)

    def unchanged_for(self, site: SiteRecord) -> bool:
        return (site.url == self._site_url and len(self) == len(self._pages)
                and all(now is then for now, then in zip(self, self._pages, strict=True)))


def ensure_checked(site: SiteRecord, pages: Sequence[PageRecord]) -> None:
    """Raise :class:`InputError` unless :func:`check_pages` would keep ``pages`` as they are.

    The renderers call this so that skipping the check is a loud mistake, not an index
    with someone else's URLs in it.
    """
    if isinstance(pages, _Checked) and pages.unchanged_for(site):
        return
    _, problems = check_pages(site, pages)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(
            f"Pages must go through check_pages() before rendering; it reports: "
            f"{problems[0]}{more}."
        )


def _exclusion(page: PageRecord, base: str, seen: set[str]) -> Diagnostic | None:
    """Why ``page`` cannot be listed at all, or None when it can."""
    where = page.url
    for name, url in (("URL", page.url), ("agent view URL", page.markdown_url)):
        if not is_on_site(url, base):
            return Diagnostic(
                "off-site-page", _UNLISTED + f"its {name} {url} is not under {base}.", where
            )
    if page_key(page.url) in seen:
        return Diagnostic("duplicate-page", _UNLISTED + "an earlier page has the same URL.", where)
    if not page.title.strip():
        return Diagnostic("untitled-page", _UNLISTED + "the page has no title.", where)
    if not _TIME.fullmatch(page.modified):
        return Diagnostic(
            "bad-date",
            _UNLISTED + f"modified {page.modified!r} is not a UTC time like 2026-03-14T10:30:00Z.",
            where,
        )
    return None


def _clean_optional(page: PageRecord, base: str) -> tuple[PageRecord, list[Diagnostic]]:
    """``page`` without the optional values the index may not publish, and why."""
    notes: list[Diagnostic] = []
    bad_time = page.published is not None and not _TIME.fullmatch(page.published)
    if bad_time:
        notes.append(_note("bad-date", f"published {page.published!r}: not a UTC time", page))
    off_origin = set()
    for key in ("image", "prev", "next"):
        value = getattr(page, key)
        if value is not None and not same_origin(value, base):
            off_origin.add(key)
            notes.append(_note("off-site-url", f"{key} {value}: not on the site's origin", page))
    if not notes:
        return page, notes
    cleaned = dataclasses.replace(
        page,
        published=None if bad_time else page.published,
        image=None if "image" in off_origin else page.image,
        prev=None if "prev" in off_origin else page.prev,
        next=None if "next" in off_origin else page.next,
    )
    return cleaned, notes


def _note(code: str, what: str, page: PageRecord) -> Diagnostic:
    return Diagnostic(code, f"Ignored {what}.", page.url)


# -- rendering ----------------------------------------------------------------------


def render_index(
    site: SiteRecord,
    pages: Sequence[PageRecord],
    *,
    generator: str,
    include_markdown: bool = True,
    sizes: Mapping[str, ViewSize] | None = None,
) -> str:
    """``agentprose.json`` for checked ``pages``, as one string.

    ``include_markdown=False`` leaves the bodies out (each post keeps ``markdown_url``),
    for sites whose index would otherwise be too large for the client to fetch.
    ``sizes``: each view's size by page URL, for the posts' ``size``.
    """
    chunks = iter_index_chunks(site, pages, generator=generator,
                               include_markdown=include_markdown, sizes=sizes)
    return "".join(chunks)


def iter_index_chunks(
    site: SiteRecord,
    pages: Sequence[PageRecord],
    *,
    generator: str,
    include_markdown: bool = True,
    sizes: Mapping[str, ViewSize] | None = None,
    posts: Callable[[PageRecord], str] | None = None,
) -> Iterator[str]:
    """``agentprose.json`` in pieces (a head, one piece per post, a tail).

    Joined, the pieces are exactly :func:`render_index`'s text; written one by one, a
    site of thousands of pages never holds the whole index in one string. The pages are
    checked now, before the first piece is produced, so a writer sees the error before
    it opens a file. ``posts`` gives each page's :func:`post_json` when the caller has
    it already (a rebuild keeps those of unchanged pages); ``sizes`` is then unused.
    """
    ensure_checked(site, pages)
    head = {"version": INDEX_VERSION, "generator": generator, "site": _site_object(site)}
    if posts is None:
        known = sizes or {}

        def posts(page: PageRecord) -> str:
            return post_json(page, size=known.get(page.url))

    return _chunks(head, pages, include_markdown=include_markdown, posts=posts)


def _chunks(
    head: dict[str, object], pages: Sequence[PageRecord], *, include_markdown: bool,
    posts: Callable[[PageRecord], str],
) -> Iterator[str]:
    if not pages:
        yield dumps_indented({**head, "posts": []}) + "\n"
        return
    yield dumps_indented(head)[: -len("\n}")] + ',\n  "posts": [\n'
    for number, page in enumerate(pages):
        post = posts(page)
        if include_markdown:
            post = with_markdown(post, page)
        yield (",\n    " if number else "    ") + post
    yield "\n  ]\n}\n"


def post_json(page: PageRecord, *, size: ViewSize | None) -> str:
    """``page``'s post in ``agentprose.json`` without its ``markdown`` (the last key), as
    the index lays it out: :func:`with_markdown` adds the body."""
    return dumps_indented(_post_object(page, size=size), _POST_LEVEL)


_POST_LEVEL = 2  # a post is two containers down: the document, its "posts"
_POST_END = "\n" + "  " * _POST_LEVEL + "}"


def with_markdown(post: str, page: PageRecord) -> str:
    """The post ``post`` (:func:`post_json`) with ``page``'s Markdown as its last key:
    the very text of the post made with it, without laying the rest out again."""
    body = page.markdown.strip("\n")
    if not body:  # absent keys are left out, never written empty
        return post
    indent = "\n" + "  " * (_POST_LEVEL + 1)
    return (post[: -len(_POST_END)] + f",{indent}\"markdown\": " + encode_basestring(body)
            + _POST_END)


def _site_object(site: SiteRecord) -> dict[str, object]:
    return _present(
        ("name", site.name),
        ("description", site.description),
        ("url", base_url_of(site.url)),
        ("lang", site.lang),
    )


def _post_object(page: PageRecord, *, size: ViewSize | None) -> dict[str, object]:
    """A post without its ``markdown``: :func:`with_markdown` adds it as the last key."""
    return _present(
        ("url", page.url),
        ("markdown_url", page.markdown_url),
        ("canonical", page.canonical),
        ("title", page.title),
        ("summary", page.summary),
        ("authors", _texts(page.authors)),
        ("published", page.published),
        ("modified", page.modified),
        ("tags", _texts(page.tags)),
        ("image", page.image),
        ("lang", page.lang),
        ("section", _texts(page.section)),
        ("headings", [_heading_object(h) for h in page.headings if _usable(h)]),
        ("prev", page.prev),
        ("next", page.next),
        ("translations", [{"lang": lang, "url": url} for lang, url in page.translations]),
        ("size", {"characters": size.characters, "tokens": size.tokens} if size else None),
    )


def _heading_object(heading: Heading) -> dict[str, object]:
    return _present(("level", heading.level), ("id", heading.id), ("title", heading.title))


def _usable(heading: Heading) -> bool:
    """Headings the outline can show: a real level and a title to show."""
    return 1 <= heading.level <= 6 and bool(heading.title.strip())


def _texts(values: Sequence[str]) -> list[str]:
    return [value for value in values if value.strip()]


def _present(*items: tuple[str, object]) -> dict[str, object]:
    """The items whose value exists: absent keys are left out, never written empty."""
    return {key: value for key, value in items if value is not None and value not in ("", [])}


# -- the schema ---------------------------------------------------------------------


def schema_path() -> Path:
    """Where the installed package keeps the JSON Schema (to copy it next to the index).

    Raises :class:`AgentproseError` when the package is not on a file system (a zip
    import); :func:`load_schema` still works there.
    """
    resource = _schema_resource()
    if not isinstance(resource, Path):
        raise AgentproseError(
            f"The schema is inside {resource!r}, not a file; use load_schema() instead."
        )
    return resource


def load_schema() -> dict[str, Any]:
    """The JSON Schema of ``agentprose.json`` version 1, as a dict."""
    schema: dict[str, Any] = json.loads(_schema_resource().read_text(encoding="utf-8"))
    return schema


def _schema_resource() -> Traversable:
    # Imported here: importlib.resources is a tenth of a build's import of the plugins.
    from importlib.resources import files

    return files("agentprose_core") / "schema" / SCHEMA_NAME
