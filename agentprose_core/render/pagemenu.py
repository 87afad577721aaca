"""The page menu (``page_actions``): a small control under a page's title that hands
the page's agent view to a person's assistant: *Copy as Markdown*, *View as Markdown*,
*Open in ChatGPT / Claude / …*, in the page's language.

Its script and style ship with the package and are written once per site under
``_agentprose/``, a content hash in their names so that a host may cache them for good;
each page gains two tags in its ``<head>``. The script builds the menu in the browser,
so the menu is never in the HTML a build converts: no view, index or ``llms-full.txt``
can hold it. Nothing leaves the site until the person clicks; there are no cookies.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache, lru_cache
from html import escape
from importlib import resources
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agentprose_core.model import LLMS_NAME
from agentprose_core.phrases import MENU_PHRASE_NAMES, PhraseOverrides, phrases_for
from agentprose_core.urls import base_url_of

if TYPE_CHECKING:
    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.settings import Settings

__all__ = ["MENU_FOLDER", "menu_files", "menu_labels", "menu_tags"]

MENU_FOLDER = "_agentprose/"
"""Where a site's menu files are, under its root."""


@cache
def menu_files() -> dict[str, str]:
    """The menu's files by their path under the site's root (``_agentprose/page-actions.
    <hash>.js`` and ``.css``)."""
    folder = resources.files("agentprose_core.render") / "static"
    found = {}
    for suffix in ("js", "css"):
        text = (folder / f"page-actions.{suffix}").read_text(encoding="utf-8")
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]
        found[f"{MENU_FOLDER}page-actions.{digest}.{suffix}"] = text
    return found


def menu_tags(page: PageRecord, site: SiteRecord, settings: Settings) -> str:
    """The page's two head tags for the menu, or ``""`` with ``page_actions`` off."""
    if not settings.page_actions:
        return ""
    base_path = urlsplit(base_url_of(site.url)).path
    script, style = sorted(menu_files(), key=lambda name: not name.endswith(".js"))
    links = _json_attribute(dict(settings.page_action_links))
    llms = base_url_of(site.url) + LLMS_NAME if settings.llms_txt else ""
    return (f'<link rel="stylesheet" href="{escape(base_path + style)}">\n'
            f'<script defer src="{escape(base_path + script)}" '
            f'data-view="{escape(page.markdown_url)}" data-llms="{escape(llms)}" '
            f'data-links={links} '
            f'data-labels={menu_labels(page.lang or site.lang, settings.phrases)}></script>')


def _json_attribute(value: object) -> str:
    """``value`` as compact ASCII JSON in a single-quoted attribute: JSON's many double
    quotes stay as they are (a double-quoted one spells each ``&quot;``)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return "'" + text.replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;") + "'"


@lru_cache(maxsize=64)  # asked once per page, of a handful of languages
def menu_labels(lang: str | None, overrides: PhraseOverrides = ()) -> str:
    """The menu's words in the page's language, as the quoted value of an attribute
    (``'{"copy":"Copy as Markdown",…}'``): what the script shows and the prompt it
    writes. ASCII, as the body hint is, so the tag is the same bytes in a page of any
    encoding."""
    words = phrases_for(lang, overrides)
    return _json_attribute({name.removeprefix("menu_"): getattr(words, name)
                            for name in MENU_PHRASE_NAMES})
