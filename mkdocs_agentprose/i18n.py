"""What mkdocs-static-i18n says about the language a build writes and each page's.

mkdocs-static-i18n builds the site once per language in one ``mkdocs build``: the
default language at the site's root, the others under their ``link`` (``/fr/``).
Each of its files knows the language of its text (``locale``: the default language's,
for a page with no translation) and its ``alternates``, the same page in every
language (its own included).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import ConfigurationError

from agentprose_core.errors import AgentproseError
from agentprose_core.lang import normalize_lang
from agentprose_core.languages import (
    Language,
    SiteLanguages,
    language_location,
    languages_from_setting,
)

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.pages import Page

    from agentprose_core.location import SiteLocation
    from agentprose_core.settings import Settings

__all__ = ["language_served_at", "page_languages", "site_languages", "theme_lang"]


def site_languages(config: MkDocsConfig, settings: Settings,
                   where: SiteLocation) -> SiteLanguages | None:
    """The site's languages and the one this build writes: mkdocs-static-i18n's, else
    those of the ``languages`` option (a site built once per language, each with its
    own ``mkdocs.yml``); None for a site of one language."""
    return _i18n_languages(config) or _setting_languages(config, settings, where)


def language_served_at(config: MkDocsConfig, settings: Settings,
                       where: SiteLocation) -> SiteLocation:
    """Where this build is served: the URL the ``languages`` option gives its language,
    if any, else ``where``."""
    return language_location(where, settings.languages, _build_lang(config, where))


def theme_lang(config: MkDocsConfig) -> str | None:
    """The theme's language (Material's ``language``, a theme's ``locale``)."""
    theme = config.theme.get("language") or config.theme.get("locale") or ""
    return normalize_lang(str(theme))


def _build_lang(config: MkDocsConfig, where: SiteLocation) -> str | None:
    """The theme's language, else Read the Docs'."""
    return theme_lang(config) or where.lang


def _setting_languages(config: MkDocsConfig, settings: Settings,
                       where: SiteLocation) -> SiteLanguages | None:
    """The ``languages`` option's, for a build in the theme's language."""
    try:
        return languages_from_setting(settings.languages, _build_lang(config, where),
                                      where.base_url)
    except AgentproseError as error:
        raise ConfigurationError(f"{error} Set the theme's 'language' to this build's.") \
            from error


def _i18n_languages(config: MkDocsConfig) -> SiteLanguages | None:
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
    if locale is None:  # not mkdocs-static-i18n's: one build of several, same pages in each
        return None, languages.translations_of(base_url + page.url, base_url)
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
