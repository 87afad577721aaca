"""What mkdocs-static-i18n says about the language a build writes and each page's.

mkdocs-static-i18n builds the site once per language in one ``mkdocs build``: the
default language at the site's root, the others under their ``link`` (``/fr/``).
Each of its files knows the language of its text (``locale``: the default language's,
for a page with no translation) and its ``alternates``, the same page in every
language (its own included).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentprose_core.lang import normalize_lang
from agentprose_core.languages import Language, SiteLanguages

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

__all__ = ["page_languages", "site_languages"]


def site_languages(config: MkDocsConfig) -> SiteLanguages | None:
    """The site's languages and the one this build writes, or None without
    mkdocs-static-i18n (or with one language to build)."""
    plugin: Any = config.plugins.get("i18n")
    current = getattr(plugin, "current_language", None)
    languages = getattr(getattr(plugin, "config", None), "languages", None)
    if not current or not isinstance(languages, list):
        return None
    every = [_language(item) for item in languages if getattr(item, "build", True)]
    found = [language for language, item in zip(every, languages, strict=False)
             if getattr(item, "locale", None) == current]
    if len(every) < 2 or not found:
        return None
    return SiteLanguages(found[0], tuple(every))


def _language(item: Any) -> Language:
    locale = str(getattr(item, "locale", ""))
    link = str(getattr(item, "link", "") or "")
    root = link.strip("/") + "/" if link.startswith("/") and link.strip("/") else ""
    return Language(normalize_lang(locale) or locale, str(getattr(item, "name", "") or locale),
                    root)


def page_languages(page: Page, languages: SiteLanguages,
                   base_url: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The language of the page's text, and the same page in the other languages that
    have it translated, as ``(lang, page URL)`` in the site's language order."""
    locale = getattr(page.file, "locale", None)
    alternates = getattr(page.file, "alternates", None)
    if not isinstance(locale, str) or not isinstance(alternates, dict):
        return None, ()
    own = normalize_lang(locale) or None
    translations = []
    for key, alternate in alternates.items():
        lang = normalize_lang(str(key))
        # a language without the page shows the default language's text: no translation
        if not lang or lang == own or getattr(alternate, "locale", None) != key:
            continue
        url = str(getattr(alternate, "url", ""))
        translations.append((lang, base_url + ("" if url == "./" else url)))
    order = [language.lang for language in languages.every]
    translations.sort(key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    return own, tuple(translations)
