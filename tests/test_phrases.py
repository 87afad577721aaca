"""The fixed sentences we write, in the page's language (issue 42): the phrasebook, the
``phrases`` setting, and readers that recognize the sentences in any language."""

from __future__ import annotations

import dataclasses
import html
import json
import string
from pathlib import Path

import llms_txt
import pytest

from agentprose_core.errors import ConfigError
from agentprose_core.model import PageRecord, SiteRecord
from agentprose_core.phrases import (
    BUILTIN_LANGUAGES,
    MENU_PHRASE_NAMES,
    PHRASE_NAMES,
    PHRASEBOOK,
    Phrases,
    phrases_for,
    translated,
)
from agentprose_core.reading.llmstxt import (
    language_llms_files,
    linked_llms_files,
    parse_llms_txt,
)
from agentprose_core.reading.text import parse_view
from agentprose_core.render.bodyhint import body_hint
from agentprose_core.render.index import check_pages
from agentprose_core.render.llmstxt import render_llms_txt, render_section_llms_txt
from agentprose_core.render.pagemenu import menu_files, menu_labels
from agentprose_core.render.view import render_view, view_directive
from agentprose_core.settings import Settings, settings_from_mapping

BASE = "https://coast.example/"
LABELS = ("site_index", "for_agents", "llms_sections", "llms_languages", "section_full",
          "section_site")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", sorted(PHRASEBOOK))
def test_every_language_says_every_phrase_with_the_same_placeholders(lang: str) -> None:
    english, words = PHRASEBOOK["en"], PHRASEBOOK[lang]
    for name in PHRASE_NAMES:
        text = getattr(words, name)
        assert _fields(text) == _fields(getattr(english, name)), (lang, name)
        assert text == text.strip(), (lang, name)
        assert "\n" not in text, (lang, name)
        assert "[" not in text, (lang, name)
        if lang != "en":
            assert text != getattr(english, name) or name == "page_as_markdown", (lang, name)
    for name in LABELS:  # a label ends with its colon, as the language writes it
        assert getattr(words, name)[-1] in ":：", (lang, name)
    assert translated(lang)


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "fr"), ("fr-CA", "fr"), ("pt_BR", "pt"), ("pt-BR", "pt"), ("zh", "zh-Hans"),
    ("zh-CN", "zh-Hans"), ("zh-TW", "zh-Hant"), ("zh-Hant", "zh-Hant"), ("zh-HK", "zh-Hant"),
    ("en-GB", "en"), ("fi", "en"), (None, "en"), ("", "en"), ("not a tag", "en"),
])
def test_a_language_is_looked_up_by_its_tag_then_its_base(lang: str | None,
                                                          expected: str) -> None:
    assert phrases_for(lang) == PHRASEBOOK[expected]


def test_the_setting_rewords_or_adds_a_language_phrase_by_phrase() -> None:
    settings = settings_from_mapping({"phrases": {
        "fi": {"site_index": "Sivuston hakemisto:"},
        "fr": {"for_agents": "Pour les IA :"}}})
    finnish = phrases_for("fi", settings.phrases)
    assert finnish.site_index == "Sivuston hakemisto:"
    assert finnish.for_agents == PHRASEBOOK["en"].for_agents  # not given: English
    assert not translated("fi", settings.phrases)
    french = phrases_for("fr-BE", settings.phrases)
    assert french.for_agents == "Pour les IA :"
    assert french.site_index == PHRASEBOOK["fr"].site_index
    assert translated("fi", settings_from_mapping({"phrases": {"fi": {
        name: getattr(PHRASEBOOK["en"], name) for name in PHRASE_NAMES
        if name not in MENU_PHRASE_NAMES}}}).phrases)  # the menu's only for a site with it
    every = {name: f"{name} {{{'}{'.join(sorted(_fields(getattr(PHRASEBOOK['en'], name))))}}}"
             if _fields(getattr(PHRASEBOOK["en"], name)) else f"{name}:" for name in PHRASE_NAMES}
    assert translated("fi", settings_from_mapping({"phrases": {"fi": every}}).phrases)
    partial = settings_from_mapping({"phrases": {"fi": {
        name: text for name, text in every.items() if name != "menu_copy"}}}).phrases
    assert translated("fi", partial)
    assert not translated("fi", partial, menu=True)


@pytest.mark.parametrize(("value", "message"), [
    ("Index", "must be a mapping of language tags to phrases"),
    ({"fi": "Hakemisto"}, "must map language tags to phrases"),
    ({"fi": {"site_indx": "x"}}, "'site_indx' is no phrase"),
    ({"fi": {"site_index": ""}}, "must be text on one line"),
    ({"fi": {"site_index": 3}}, "must be text on one line"),
    ({"fi": {"site_index": "a\nb"}}, "must be text on one line"),
    ({"fi": {"site_index": "[x]:"}}, "may not hold square brackets"),
    ({"fi": {"llms_intro": "# Sivut"}}, "start with #"),
    ({"fi": {"llms_intro": "Sivut."}}, "must use {name}"),
    ({"fi": {"llms_intro": "{name.__class__}"}}, "must use {name}"),
    ({"fi": {"site_index": "{name}:"}}, "must use no placeholder"),
    ({"fi": {"llms_summary": "{name"}}, "unpaired brace"),
    ({"fi fi": {"site_index": "x:"}}, "not a language tag"),
])
def test_a_bad_phrases_setting_says_what_to_change(value: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("{", r"\{").replace("[", r"\[")):
        settings_from_mapping({"phrases": value})


def _site(lang: str, **changes: object) -> tuple[SiteRecord, list[PageRecord]]:
    site = SiteRecord(name="Côte", url=BASE, lang=lang, **changes)  # type: ignore[arg-type]
    pages = [PageRecord(url=BASE + path,
                        markdown_url=BASE + (path.rstrip("/") or "index") + ".md",
                        title=title, modified="2026-01-01T00:00:00Z", markdown="Text.",
                        section=section, lang=lang)
             for path, title, section in [("", "Accueil", ()), ("guide/a/", "A", ("Guide",)),
                                          ("guide/b/", "B", ("Guide",)),
                                          ("guide/c/", "C", ("Guide",))]]
    kept, _ = check_pages(site, pages)
    return site, kept


@pytest.mark.parametrize("lang", sorted(PHRASEBOOK))
def test_views_and_llms_txt_read_back_in_every_language(lang: str) -> None:
    words = PHRASEBOOK[lang]
    site, pages = _site(lang, scopes=(("guide/", "Guide"),),
                        languages=((lang, "Ici", BASE), ("sv", "Svenska", BASE + "sv/")))
    directive = view_directive(BASE, Settings(), lang)
    assert directive.startswith(f"> {words.site_index} [llms.txt]({BASE}llms.txt)")
    view = parse_view(render_view(pages[1], directive))
    assert view.directive == directive
    assert view.body == "Text."
    text = render_llms_txt(site, pages, phrases=words)
    assert words.llms_intro.format(name="Côte") in text
    parsed = parse_llms_txt(text)
    assert not parsed.findings
    assert linked_llms_files(parsed.info) == [BASE + "guide/llms.txt"]
    assert language_llms_files(parsed.info) == [BASE + "sv/llms.txt"]
    reference = llms_txt.parse_llms_file(text)
    assert reference.title == "Côte"
    section = render_section_llms_txt(site, pages, "guide/", "Guide", full=True, phrases=words)
    assert f"{words.section_site} [llms.txt]({BASE}llms.txt)." in section
    assert not parse_llms_txt(section).findings


@pytest.mark.parametrize("lang", sorted(PHRASEBOOK))
def test_the_body_hint_is_ascii_in_every_language(lang: str) -> None:
    site, pages = _site(lang)
    hint = body_hint(pages[1], site, Settings())
    assert hint.isascii()
    words = PHRASEBOOK[lang]
    assert f">{words.for_agents} <a " in html.unescape(hint)
    assert f">{words.page_as_markdown}</a>" in html.unescape(hint)


def test_an_english_site_keeps_its_sentences_byte_for_byte() -> None:
    site, pages = _site("en")
    assert view_directive(BASE, Settings(), "en") == \
        f"> Site index: [llms.txt]({BASE}llms.txt) · [agentprose.json]({BASE}agentprose.json)"
    assert view_directive(BASE, Settings(), None) == view_directive(BASE, Settings(), "en")
    assert ">For AI agents: <a " in body_hint(pages[1], site, Settings())
    assert "Each link below leads to a page of Côte as Markdown." in \
        render_llms_txt(site, pages, phrases=phrases_for("en"))


def test_phrases_are_a_frozen_record_of_every_name() -> None:
    assert tuple(f.name for f in dataclasses.fields(Phrases)) == PHRASE_NAMES
    with pytest.raises(dataclasses.FrozenInstanceError):
        PHRASEBOOK["en"].site_index = "x"  # type: ignore[misc]


def test_the_phrasebook_has_a_file_for_each_language_and_nothing_else() -> None:
    folder = Path(__file__).parents[1] / "agentprose_core" / "phrasebook"
    assert sorted(path.stem for path in folder.glob("*.toml")) == sorted(BUILTIN_LANGUAGES)
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        f"{tag}.toml" for tag in BUILTIN_LANGUAGES)
    assert list(PHRASEBOOK) == list(BUILTIN_LANGUAGES)
    assert "fi" not in PHRASEBOOK
    with pytest.raises(KeyError):
        PHRASEBOOK["fi"]


@pytest.mark.parametrize("lang", sorted(PHRASEBOOK))
def test_the_menus_words_are_the_pages_and_ascii(lang: str) -> None:
    labels = menu_labels(lang)
    assert labels.isascii()
    words = PHRASEBOOK[lang]
    assert labels[0] == labels[-1] == "'"
    assert json.loads(html.unescape(labels[1:-1])) == {
        name.removeprefix("menu_"): getattr(words, name) for name in MENU_PHRASE_NAMES}
    if lang == "en":  # every word comes from the page, none is the script's own
        script = next(text for name, text in menu_files().items() if name.endswith(".js"))
        for name in MENU_PHRASE_NAMES:
            english = getattr(PHRASEBOOK["en"], name).split("{")[0].strip()
            assert english not in script, english
