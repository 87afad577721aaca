"""The languages of a site built once per language (mkdocs-static-i18n, Sphinx with
gettext, Read the Docs translations): which one a build writes, and where each
language's own files are.

Each language has a complete set of agent outputs under its root (the default
language's at the site's root, the others' under ``fr/`` and so on), listing only its
own pages; each ``llms.txt`` links the others' (see ``docs/formats.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from agentprose_core.errors import ConfigError
from agentprose_core.lang import normalize_lang
from agentprose_core.urls import base_url_of

if TYPE_CHECKING:
    from collections.abc import Sequence

    from agentprose_core.location import SiteLocation

__all__ = [
    "LANGUAGE_NAMES", "Language", "SiteLanguages", "language_location", "languages_from_setting",
]

LANGUAGE_NAMES = {
    "en": "English", "de": "Deutsch", "es": "Español", "fr": "Français", "it": "Italiano",
    "ja": "日本語", "ko": "한국어", "nl": "Nederlands", "pl": "Polski", "pt": "Português",
    "pt-BR": "Português (Brasil)", "ru": "Русский", "tr": "Türkçe", "uk": "Українська",
    "zh": "中文", "zh-CN": "简体中文", "zh-Hans": "简体中文", "zh-TW": "繁體中文",
    "zh-Hant": "繁體中文",
}
"""Languages by the name their readers give them, for the links between languages."""


@dataclass(frozen=True)
class Language:
    """One language of the site: its BCP 47 tag, its name as its readers write it, and
    its root relative to the site's base URL (``""`` or ``fr/``)."""

    lang: str
    name: str
    root: str = ""
    """Relative to the site's base URL, or, for a language built on its own, its URL."""


@dataclass(frozen=True)
class SiteLanguages:
    """The language a build writes (``current``) among the site's (``every``, in the
    site's order)."""

    current: Language
    every: tuple[Language, ...]

    def root_url(self, base_url: str) -> str:
        """The URL of the current language's root, under the site's ``base_url``."""
        return base_url + self.current.root

    def listed(self, base_url: str) -> tuple[tuple[str, str, str], ...]:
        """Every language as ``(lang, name, root URL)``, for the site record."""
        return tuple((language.lang, language.name, _under(base_url, language.root))
                     for language in self.every)

    def translations_of(self, url: str, base_url: str) -> tuple[tuple[str, str], ...]:
        """The same page in the other languages, on a site whose languages are built one
        by one from the same documents (Sphinx with gettext, a Read the Docs
        translation): the page at the same place under each language's root."""
        if not url.startswith(base_url):
            return ()
        place = url[len(base_url):]
        return tuple((language.lang, _under(base_url, language.root) + place)
                     for language in self.every if language != self.current)


def language_location(where: SiteLocation, setting: Sequence[tuple[str, str]],
                      lang: str | None) -> SiteLocation:
    """Where a build in ``lang`` is served when the ``languages`` option names its URL:
    there, whatever the project's own URL (one ``html_baseurl`` for every language, as
    many ``conf.py`` have), which then stays the base its pages are cited by, as their
    canonical links say. ``where`` unchanged otherwise."""
    current = normalize_lang(lang or "")
    named = [url for tag, url in setting if url and normalize_lang(tag) == current]
    if not named or base_url_of(named[0]) == where.base_url:
        return where
    return replace(where, base_url=base_url_of(named[0]),
                   canonical_base=where.canonical_base or where.base_url)


def _under(base_url: str, root: str) -> str:
    return root if "://" in root else base_url + root


def languages_from_setting(setting: Sequence[tuple[str, str]], lang: str | None,
                           base_url: str) -> SiteLanguages | None:
    """The languages the ``languages`` setting names for a build in ``lang`` served at
    ``base_url``: each tag with its root URL, or with ``""`` for the URL of this build
    with its language's path segment changed (``/fr/latest/`` -> ``/en/latest/``, as
    Read the Docs serves translations). None when the setting is empty.

    Raises :class:`ConfigError` when the build's own language is not among them or a
    URL cannot be found."""
    if not setting:
        return None
    current = normalize_lang(lang or "")
    tags = [normalize_lang(tag) or tag for tag, _ in setting]
    if current not in tags:
        raise ConfigError(
            f"agentprose option 'languages' names {', '.join(tags)}, but this build is in "
            f"{current or 'no language'}: add {current or 'its language'} to it (or set "
            "the build's language).")
    every = [Language(tag, LANGUAGE_NAMES.get(tag, tag),
                      "" if tag == current else _root(url, tag, current, base_url))
             for tag, (_, url) in zip(tags, setting, strict=True)]
    return SiteLanguages(every[tags.index(current)], tuple(every))


def _root(url: str, tag: str, current: str, base_url: str) -> str:
    """A language's root URL: as given, or this build's with the language changed."""
    if url:
        return url if url.endswith("/") else url + "/"
    parts = urlsplit(base_url)
    segments = parts.path.split("/")
    found = [n for n, segment in enumerate(segments)
             if (normalize_lang(segment) or "").lower() == current.lower()]
    if not found:
        raise ConfigError(
            f"agentprose option 'languages': the URL of this build, {base_url}, has no "
            f"'{current}' in its path to change into '{tag}': give each language's URL, "
            f"like {{'{current}': '{base_url}', '{tag}': 'https://…/{tag.lower()}/'}}.")
    at = found[0]
    segments[at] = tag.lower() if segments[at].islower() else tag
    return urlunsplit(parts._replace(path="/".join(segments)))
