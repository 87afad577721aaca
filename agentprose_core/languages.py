"""The languages of a site built once per language (mkdocs-static-i18n, Sphinx with
gettext, Read the Docs translations): which one a build writes, and where each
language's own files are.

Each language has a complete set of agent outputs under its root (the default
language's at the site's root, the others' under ``fr/`` and so on), listing only its
own pages; each ``llms.txt`` links the others' (see ``docs/formats.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Language", "SiteLanguages"]


@dataclass(frozen=True)
class Language:
    """One language of the site: its BCP 47 tag, its name as its readers write it, and
    its root relative to the site's base URL (``""`` or ``fr/``)."""

    lang: str
    name: str
    root: str = ""


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
        return tuple((language.lang, language.name, base_url + language.root)
                     for language in self.every)
