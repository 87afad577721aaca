"""The fixed sentences agentprose writes, in the language of the page they go in.

A view's site-index line, the hidden line at the top of a page's body, the prose of
``llms.txt`` and the page menu's labels are ours, not the author's: a French page gets
them in French. The built-in :data:`PHRASEBOOK` (a file per language under
``phrasebook/``) covers the languages documentation is most often translated into; the
``phrases`` setting adds a language or rewords one (``{"fi": {"site_index": "…"}}``),
and what neither gives is English.

The words readers match on stay as they are in every language: file names (``llms.txt``,
``agentprose.json``), front-matter keys, and the ``## Optional`` (llmstxt.org) and
``## Versions`` headings. Readers recognize our sentences by their shape, never by their
words, so a reworded sentence reads back like a built-in one.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from agentprose_core.lang import normalize_lang

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "BUILTIN_LANGUAGES", "MCP_PHRASE_NAMES", "MENU_PHRASE_NAMES", "PHRASEBOOK", "PHRASE_NAMES",
    "PhraseOverrides", "Phrases", "phrase_problems", "phrases_for", "translated",
]


@dataclass(frozen=True)
class Phrases:
    """Every fixed sentence, with its ``{placeholders}``. Labels end with their colon,
    which not every language writes the same way (``Index du site :``, ``索引：``)."""

    site_index: str
    """The label of a view's line that links ``llms.txt`` and ``agentprose.json``."""
    for_agents: str
    """The label of the hidden line at the top of a page's body."""
    page_as_markdown: str
    """The text of that line's link to the page's view."""
    llms_summary: str
    """``llms.txt``'s ``>`` line when the site has no description and no home summary."""
    llms_intro: str
    """``llms.txt``'s paragraph: how the file is laid out."""
    llms_sections: str
    """Before the links to the sections' own ``llms.txt``."""
    llms_languages: str
    """Before the links to the other languages' ``llms.txt``."""
    llms_mcp: str
    """Before the URL of the site's MCP endpoint in ``llms.txt`` (``mcp_endpoint``)."""
    section_summary: str
    """A section's ``llms.txt`` ``>`` line when the section's home has no summary."""
    section_intro: str
    """A section's ``llms.txt`` paragraph."""
    section_full: str
    """Before the link to a section's ``llms-full.txt``."""
    section_site: str
    """Before the link to the whole site's ``llms.txt``."""
    versions_default: str
    """After the default version in the ``## Versions`` list of the root ``llms.txt``."""
    menu_button: str
    """The page menu's button (``page_actions``)."""
    menu_copy: str
    """The menu's item that copies the page's view."""
    menu_view: str
    """The menu's item that opens the page's view."""
    menu_open: str
    """An item that opens an assistant (``{name}``, from ``page_action_links``)."""
    menu_copied: str
    """Announced once the view is on the clipboard."""
    menu_copy_failed: str
    """Announced when the browser refused the copy and the view opened instead."""
    menu_prompt: str
    """What an assistant is asked to do with the view at ``{url}``."""
    menu_prompt_map: str
    """The rest of that prompt, which gives the site's ``llms.txt`` at ``{url}``."""


PHRASE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Phrases))
"""The names the ``phrases`` setting takes."""

MENU_PHRASE_NAMES: tuple[str, ...] = tuple(name for name in PHRASE_NAMES
                                           if name.startswith("menu_"))
"""The phrases of the page menu: a site without the menu does not need them."""

MCP_PHRASE_NAMES: tuple[str, ...] = ("llms_mcp",)
"""The phrases about an MCP endpoint: a site without one does not need them."""

_PLACEHOLDERS: dict[str, frozenset[str]] = {
    "llms_summary": frozenset({"name"}),
    "llms_intro": frozenset({"name"}),
    "section_summary": frozenset({"section", "name"}),
    "section_intro": frozenset({"url"}),
    "menu_open": frozenset({"name"}),
    "menu_prompt": frozenset({"url"}),
    "menu_prompt_map": frozenset({"url"}),
}

_BOOK_FOLDER = "phrasebook"
BUILTIN_LANGUAGES: tuple[str, ...] = (
    "en", "de", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru", "tr", "uk", "zh-Hans",
    "zh-Hant",
)
"""The languages of the built-in phrasebook: English, and the languages documentation is
most often translated into. Each has its file, ``agentprose_core/phrasebook/<tag>.toml``."""


class _Phrasebook(Mapping[str, Phrases]):
    """The built-in phrases by language tag, each language read from its file the first
    time a page in it asks (a build meets one or two of them)."""

    def __getitem__(self, tag: str) -> Phrases:
        if tag not in BUILTIN_LANGUAGES:
            raise KeyError(tag)
        return _read_language(tag)

    def __iter__(self) -> Iterator[str]:
        return iter(BUILTIN_LANGUAGES)

    def __len__(self) -> int:
        return len(BUILTIN_LANGUAGES)


@cache
def _read_language(tag: str) -> Phrases:
    text = (resources.files("agentprose_core") / _BOOK_FOLDER / f"{tag}.toml").read_text(
        encoding="utf-8")
    return Phrases(**tomllib.loads(text))


PHRASEBOOK: Mapping[str, Phrases] = _Phrasebook()
"""The built-in phrases by language tag (:data:`BUILTIN_LANGUAGES`)."""

# Chinese written in traditional characters where the region says so, simplified elsewhere.
_TRADITIONAL_REGIONS = frozenset({"TW", "HK", "MO"})

PhraseOverrides = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
"""The ``phrases`` setting: language tags, each with phrase names and their text."""


def _candidates(lang: str | None) -> list[str]:
    """The tags to look a language up by, most specific first (``pt-BR``, ``pt``)."""
    tag = normalize_lang(lang or "") or ""
    if not tag:
        return []
    parts = tag.split("-")
    found = ["-".join(parts[:end]) for end in range(len(parts), 0, -1)]
    if parts[0] == "zh":
        script = "Hant" if "Hant" in parts or _TRADITIONAL_REGIONS & set(parts) else "Hans"
        found.insert(len(found) - 1, f"zh-{script}")
    return found


@lru_cache(maxsize=64)  # asked once per page, of a handful of languages
def phrases_for(lang: str | None, overrides: PhraseOverrides = ()) -> Phrases:
    """The phrases for text in ``lang``: the setting's, else the built-in ones of the
    language (or of its base language: ``pt`` for ``pt-BR``), else English, phrase by
    phrase."""
    given = {normalize_lang(tag) or tag: dict(texts) for tag, texts in overrides}
    chosen = PHRASEBOOK["en"]
    for tag in reversed(_candidates(lang)):
        chosen = PHRASEBOOK.get(tag, chosen)
    changes: dict[str, str] = {}
    for tag in reversed(_candidates(lang)):
        changes.update(given.get(tag, {}))
    return replace(chosen, **changes) if changes else chosen


def translated(lang: str | None, overrides: PhraseOverrides = (), *,
               menu: bool = False, mcp: bool = False) -> bool:
    """Whether every phrase for ``lang`` is in that language: English text, a language
    of the phrasebook, or one the setting gives every phrase of (those of the page menu
    only for a site that shows it, those of an MCP endpoint for a site that has one)."""
    candidates = _candidates(lang)
    if not candidates or candidates[-1] == "en" or any(tag in PHRASEBOOK for tag in candidates):
        return True
    given: set[str] = set()
    for tag, texts in overrides:
        if (normalize_lang(tag) or tag) in candidates:
            given.update(name for name, _ in texts)
    needed = set(PHRASE_NAMES) - set(() if menu else MENU_PHRASE_NAMES) \
        - set(() if mcp else MCP_PHRASE_NAMES)
    return given >= needed


def phrase_problems(overrides: Iterable[tuple[str, Mapping[str, object]]]) -> list[str]:
    """What is wrong with the ``phrases`` setting's values, one sentence each."""
    problems = []
    for tag, texts in overrides:
        if normalize_lang(tag) is None:
            problems.append(f"{tag!r} is not a language tag (like 'fi' or 'pt-BR')")
        for name, text in texts.items():
            if name not in PHRASE_NAMES:
                problems.append(f"{name!r} is no phrase; the phrases are: "
                                f"{', '.join(PHRASE_NAMES)}")
            elif not isinstance(text, str) or not text.strip() or "\n" in text:
                problems.append(f"{tag}.{name} must be text on one line, not {text!r}")
            elif "[" in text or "]" in text or text.lstrip()[0] in "#>-*+":
                # Read as Markdown: a link's text, a heading, a quote or a list item.
                problems.append(f"{tag}.{name} may not hold square brackets or start with "
                                f"#, >, -, * or +: {text!r}")
            else:
                problems += _placeholder_problems(tag, name, text)
    return problems


def _placeholder_problems(tag: str, name: str, text: str) -> list[str]:
    try:
        used = {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}
    except ValueError:
        return [f"{tag}.{name} has an unpaired brace: write {{{{ or }}}} for a brace itself"]
    wanted = _PLACEHOLDERS.get(name, frozenset())
    if used != wanted:
        need = ", ".join(f"{{{field}}}" for field in sorted(wanted)) or "no placeholder"
        return [f"{tag}.{name} must use {need}, not {text!r}"]
    return []
