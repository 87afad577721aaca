"""Page metadata as build tools hand it over (front matter, docinfo), made clean.

Users write metadata by hand, so every field may come with the wrong type: a date as
an int, authors as a mapping, tags as one string. Each reader takes what it can and
reports the rest as a diagnostic that names the page and the field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from agentprose_core.characters import clean_text
from agentprose_core.diagnostics import Diagnostic
from agentprose_core.timefmt import to_utc_iso

if TYPE_CHECKING:
    from agentprose_core.extract.headmeta import PageMeta
    from agentprose_core.model import SiteRecord

__all__ = ["PageFacts", "head_facts", "opted_out", "read_metadata"]

# What front matter commonly calls the times. Not the git-revision-date-localized
# plugin's ``git_*_raw_iso_datetime``: that is another reading of git (author times, or
# the build time where it finds no history); our own git history dates the page.
_MODIFIED_KEYS = ("modified", "updated", "last_modified")
_PUBLISHED_KEYS = ("published", "date", "created")


@dataclass(frozen=True)
class PageFacts:
    """What a page's metadata says, cleaned: strings stripped, times in UTC ``Z`` form."""

    title: str | None = None
    description: str | None = None
    authors: tuple[str, ...] = ()
    published: str | None = None
    modified: str | None = None
    tags: tuple[str, ...] = ()
    image: str | None = None
    excluded: bool = False
    draft: bool = False
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)


def _text(value: Any) -> str | None:
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        text = " ".join(clean_text(str(value)).split())
        return text or None
    return None


def _json_list(text: str) -> list[Any] | None:
    if not (text.startswith("[") and text.endswith("]")):
        return None
    try:
        found = json.loads(text)
    except ValueError:
        return None
    return found if isinstance(found, list) else None


def _names(value: Any) -> list[str]:
    """Author or tag names from a string, a list, or mappings with a ``name``."""
    if isinstance(value, str):
        listed = _json_list(value)
        if listed is not None:  # MyST hands docinfo lists over as JSON text
            return _names(listed)
        return [part.strip() for part in clean_text(value).split(",") if part.strip()]
    if isinstance(value, Mapping):
        name = _text(value.get("name"))
        return [name] if name else [n for v in value.values() for n in _names(v)]
    if isinstance(value, (list, tuple)):
        return [n for item in value for n in _names(item)]
    text = _text(value)
    return [text] if text else []


def _flag(value: Any) -> bool | None:
    """A yes/no switch, also as docinfo writes it (``:agentprose: false`` is a string)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("false", "no", "off", "0"):
            return False
        if word in ("true", "yes", "on", "1"):
            return True
    return None


def opted_out(meta: Mapping[str, Any] | None) -> bool:
    """True for a page whose metadata turns its agent output off (``agentprose: false``,
    ``draft: true``, a redirect stub): the two facts :func:`read_metadata` gives as
    ``excluded`` and ``draft``, without reading the rest (a build asks it of every page
    up front)."""
    data = meta or {}
    return _switched_off(data) or _is_draft(data)


def _switched_off(data: Mapping[str, Any]) -> bool:
    return _flag(data.get("agentprose", True)) is False or _is_redirect(data)


def _is_redirect(data: Mapping[str, Any]) -> bool:
    """A stub that sends readers elsewhere (``template: redirect.html``, as Material's
    own docs do): no content of its own, so no view."""
    template = data.get("template")
    return isinstance(template, str) and \
        template.replace("\\", "/").rsplit("/", 1)[-1].split(".")[0] == "redirect"


def _is_draft(data: Mapping[str, Any]) -> bool:
    return _flag(data.get("draft")) is True


class _Reader:
    def __init__(self, meta: Mapping[str, Any], location: str) -> None:
        self.meta = meta
        self.location = location
        self.notes: list[Diagnostic] = []

    def warn(self, key: str, problem: str) -> None:
        self.notes.append(Diagnostic(
            "bad-metadata", f"metadata '{key}' {problem}; it is ignored.", self.location))

    def text(self, key: str) -> str | None:
        if key not in self.meta or self.meta[key] is None:
            return None
        value = _text(self.meta[key])
        if value is None:
            self.warn(key, f"should be text, not {type(self.meta[key]).__name__}")
        return value

    def time(self, keys: tuple[str, ...], nested: str) -> str | None:
        for key in keys:
            value = self.meta.get(key)
            if isinstance(value, Mapping):  # Material blog: date: {created: …, updated: …}
                value = value.get(nested)
            if value is None:
                continue
            if isinstance(value, (int, float)):  # 20250602 or 2025: not a timestamp
                self.warn(key, f"is a number ({value!r}), not a date: write it as YYYY-MM-DD")
                continue
            found = to_utc_iso(value)
            if found is None:
                self.warn(key, f"is not a date or time ({value!r})")
                continue
            return found
        return None


# What a metadata value may hold before it is walked: a YAML alias bomb (nine levels of
# nine references to the level below) is a few lines of front matter and 387 million
# strings to walk. Anything larger is no author or tag list.
MAX_VALUE_NODES = 10_000
MAX_VALUE_DEPTH = 32


def _oversized(value: Any) -> bool:
    """True when walking ``value`` would visit more than MAX_VALUE_NODES values (shared
    ones counted each time they are reached) or go deeper than MAX_VALUE_DEPTH."""
    budget = MAX_VALUE_NODES
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        budget -= 1
        if budget < 0 or depth > MAX_VALUE_DEPTH:
            return True
        if isinstance(item, Mapping):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((child, depth + 1) for child in item)
    return False


def _bounded(reader: _Reader, meta: Mapping[str, Any]) -> Mapping[str, Any]:
    """``meta`` without the values too large to walk; one warning names them."""
    dropped = [key for key, value in meta.items()
               if isinstance(value, (Mapping, list, tuple)) and _oversized(value)]
    if not dropped:
        return meta
    names = ", ".join(f"'{key}'" for key in dropped[:5]) + (
        f" and {len(dropped) - 5} more" if len(dropped) > 5 else "")
    reader.notes.append(Diagnostic(
        "bad-metadata", f"metadata {names}: more than {MAX_VALUE_NODES:,} values or nested "
        f"deeper than {MAX_VALUE_DEPTH} levels (a YAML alias bomb?); ignored.", reader.location))
    return {key: value for key, value in meta.items() if key not in dropped}


def read_metadata(meta: Mapping[str, Any] | None, *, location: str) -> PageFacts:
    """Clean metadata of one page (``location`` names it in diagnostics)."""
    reader = _Reader(meta or {}, location)
    reader.meta = data = _bounded(reader, reader.meta)
    authors = _names(data.get("authors", data.get("author")))
    tags = _names(data.get("tags", data.get("keywords")))
    dated = isinstance(data.get("date"), Mapping)
    return PageFacts(
        title=reader.text("title"),
        description=reader.text("description") or reader.text("summary"),
        authors=tuple(dict.fromkeys(authors)),
        published=reader.time(_PUBLISHED_KEYS, "created"),
        modified=reader.time(("date", *_MODIFIED_KEYS) if dated else _MODIFIED_KEYS, "updated"),
        tags=tuple(dict.fromkeys(tags)),
        image=reader.text("image"),
        excluded=_switched_off(data),
        draft=_is_draft(data),
        diagnostics=tuple(reader.notes),
    )


def head_facts(meta: PageMeta, source: PageFacts | None, site: SiteRecord) -> PageFacts:
    """What the page says of itself: its source's front matter (``--source``) first,
    as the MkDocs plugin reads it, then its head's metadata. Without a source, the
    head's title (its metadata's, else the content's ``<h1>``) is the page's; with
    one, the ``<h1>`` comes before the head's. A description that only repeats the
    site's (themes copy it into every page) is not the page's."""
    own = meta.description if meta.description != site.description else None
    title = source.title if source is not None else meta.title
    source = source or PageFacts()
    return replace(
        source,
        title=title,
        description=source.description or own,
        modified=source.modified or meta.modified,
        published=source.published or meta.published,
        authors=source.authors or meta.authors,
        tags=source.tags or meta.tags,
        image=source.image or meta.image,
    )
