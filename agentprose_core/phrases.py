"""The fixed sentences agentprose writes, in the language of the page they go in.

A view's site-index line, the hidden line at the top of a page's body and the prose of
``llms.txt`` are ours, not the author's: a French page gets them in French. The built-in
:data:`PHRASEBOOK` covers the languages documentation is most often translated into; the
``phrases`` setting adds a language or rewords one (``{"fi": {"site_index": "…"}}``),
and what neither gives is English.

The words readers match on stay as they are in every language: file names (``llms.txt``,
``agentprose.json``), front-matter keys, and the ``## Optional`` (llmstxt.org) and
``## Versions`` headings. Readers recognize our sentences by their shape, never by their
words, so a reworded sentence reads back like a built-in one.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from agentprose_core.lang import normalize_lang

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

__all__ = [
    "PHRASEBOOK", "PHRASE_NAMES", "PhraseOverrides", "Phrases", "phrase_problems",
    "phrases_for", "translated",
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


PHRASE_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Phrases))
"""The names the ``phrases`` setting takes."""

_PLACEHOLDERS: dict[str, frozenset[str]] = {
    "llms_summary": frozenset({"name"}),
    "llms_intro": frozenset({"name"}),
    "section_summary": frozenset({"section", "name"}),
    "section_intro": frozenset({"url"}),
}

# U+00A0 before a French colon: the space French typography puts there, never a line break.
PHRASEBOOK: dict[str, Phrases] = {
    "en": Phrases(
        site_index="Site index:",
        for_agents="For AI agents:",
        page_as_markdown="this page as Markdown",
        llms_summary="Markdown versions of the pages of {name}.",
        llms_intro="Each link below leads to a page of {name} as Markdown. The pages follow "
                   "the site's reading order, grouped by its sections.",
        llms_sections="Sections with an llms.txt of their own:",
        llms_languages="The site in other languages:",
        section_summary="The {section} pages of {name}, as Markdown.",
        section_intro="Each link below leads to a page under {url} as Markdown.",
        section_full="All of them in one file:",
        section_site="The whole site:",
        versions_default="the default version, listed above",
    ),
    "de": Phrases(
        site_index="Index der Website:",
        for_agents="Für KI-Agenten:",
        page_as_markdown="diese Seite als Markdown",
        llms_summary="Die Seiten von {name} als Markdown.",
        llms_intro="Jeder Link unten führt zu einer Seite von {name} als Markdown. Die "
                   "Seiten folgen der Lesereihenfolge der Website, nach ihren Abschnitten "
                   "gruppiert.",
        llms_sections="Abschnitte mit eigener llms.txt:",
        llms_languages="Die Website in anderen Sprachen:",
        section_summary="Die Seiten des Abschnitts {section} von {name} als Markdown.",
        section_intro="Jeder Link unten führt zu einer Seite unter {url} als Markdown.",
        section_full="Alle in einer Datei:",
        section_site="Die ganze Website:",
        versions_default="die Standardversion, oben aufgeführt",
    ),
    "es": Phrases(
        site_index="Índice del sitio:",
        for_agents="Para agentes de IA:",
        page_as_markdown="esta página en Markdown",
        llms_summary="Las páginas de {name} en Markdown.",
        llms_intro="Cada enlace de abajo lleva a una página de {name} en Markdown. Las "
                   "páginas siguen el orden de lectura del sitio, agrupadas por secciones.",
        llms_sections="Secciones con su propio llms.txt:",
        llms_languages="El sitio en otros idiomas:",
        section_summary="Las páginas de la sección {section} de {name}, en Markdown.",
        section_intro="Cada enlace de abajo lleva a una página bajo {url} en Markdown.",
        section_full="Todas en un solo archivo:",
        section_site="Todo el sitio:",
        versions_default="la versión predeterminada, listada arriba",
    ),
    "fr": Phrases(
        site_index="Index du site\u00a0:",
        for_agents="Pour les agents IA\u00a0:",
        page_as_markdown="cette page en Markdown",
        llms_summary="Les pages de {name} en Markdown.",
        llms_intro="Chaque lien ci-dessous mène à une page de {name} en Markdown. Les pages "
                   "suivent l’ordre de lecture du site, regroupées par sections.",
        llms_sections="Sections qui ont leur propre llms.txt\u00a0:",
        llms_languages="Le site dans d’autres langues\u00a0:",
        section_summary="Les pages de la section {section} de {name}, en Markdown.",
        section_intro="Chaque lien ci-dessous mène à une page sous {url} en Markdown.",
        section_full="Toutes dans un seul fichier\u00a0:",
        section_site="Le site entier\u00a0:",
        versions_default="la version par défaut, listée ci-dessus",
    ),
    "it": Phrases(
        site_index="Indice del sito:",
        for_agents="Per gli agenti IA:",
        page_as_markdown="questa pagina in Markdown",
        llms_summary="Le pagine di {name} in Markdown.",
        llms_intro="Ogni link qui sotto porta a una pagina di {name} in Markdown. Le pagine "
                   "seguono l’ordine di lettura del sito, raggruppate per sezioni.",
        llms_sections="Sezioni con un proprio llms.txt:",
        llms_languages="Il sito in altre lingue:",
        section_summary="Le pagine della sezione {section} di {name}, in Markdown.",
        section_intro="Ogni link qui sotto porta a una pagina sotto {url} in Markdown.",
        section_full="Tutte in un unico file:",
        section_site="L’intero sito:",
        versions_default="la versione predefinita, elencata sopra",
    ),
    "ja": Phrases(
        site_index="サイトの索引：",
        for_agents="AI エージェント向け：",
        page_as_markdown="このページの Markdown 版",
        llms_summary="{name} の各ページの Markdown 版です。",
        llms_intro="以下の各リンクは {name} のページの Markdown 版です。ページはサイトの"
                   "閲覧順に並び、セクションごとにまとめてあります。",
        llms_sections="独自の llms.txt を持つセクション：",
        llms_languages="他の言語のサイト：",
        section_summary="{name} の「{section}」セクションのページの Markdown 版です。",
        section_intro="以下の各リンクは {url} 以下のページの Markdown 版です。",
        section_full="すべてを 1 つのファイルで：",
        section_site="サイト全体：",
        versions_default="既定のバージョン（上に掲載）",
    ),
    "ko": Phrases(
        site_index="사이트 색인:",
        for_agents="AI 에이전트용:",
        page_as_markdown="이 페이지의 Markdown 버전",
        llms_summary="{name} 페이지의 Markdown 버전입니다.",
        llms_intro="아래의 각 링크는 {name} 페이지의 Markdown 버전으로 연결됩니다. 페이지는 "
                   "사이트의 읽기 순서를 따르며 섹션별로 묶여 있습니다.",
        llms_sections="자체 llms.txt가 있는 섹션:",
        llms_languages="다른 언어로 된 사이트:",
        section_summary="{name}의 {section} 섹션 페이지의 Markdown 버전입니다.",
        section_intro="아래의 각 링크는 {url} 아래 페이지의 Markdown 버전으로 연결됩니다.",
        section_full="모든 페이지를 하나의 파일로:",
        section_site="전체 사이트:",
        versions_default="기본 버전, 위에 나열됨",
    ),
    "nl": Phrases(
        site_index="Index van de site:",
        for_agents="Voor AI-agents:",
        page_as_markdown="deze pagina als Markdown",
        llms_summary="De pagina’s van {name} als Markdown.",
        llms_intro="Elke link hieronder leidt naar een pagina van {name} als Markdown. De "
                   "pagina’s volgen de leesvolgorde van de site, gegroepeerd per sectie.",
        llms_sections="Secties met een eigen llms.txt:",
        llms_languages="De site in andere talen:",
        section_summary="De pagina’s van de sectie {section} van {name}, als Markdown.",
        section_intro="Elke link hieronder leidt naar een pagina onder {url} als Markdown.",
        section_full="Alles in één bestand:",
        section_site="De hele site:",
        versions_default="de standaardversie, hierboven vermeld",
    ),
    "pl": Phrases(
        site_index="Indeks witryny:",
        for_agents="Dla agentów AI:",
        page_as_markdown="ta strona w formacie Markdown",
        llms_summary="Strony witryny {name} w formacie Markdown.",
        llms_intro="Każdy link poniżej prowadzi do strony witryny {name} w formacie Markdown. "
                   "Strony są ułożone w kolejności czytania witryny i pogrupowane według "
                   "sekcji.",
        llms_sections="Sekcje z własnym plikiem llms.txt:",
        llms_languages="Witryna w innych językach:",
        section_summary="Strony sekcji {section} witryny {name} w formacie Markdown.",
        section_intro="Każdy link poniżej prowadzi do strony pod adresem {url} w formacie "
                      "Markdown.",
        section_full="Wszystkie w jednym pliku:",
        section_site="Cała witryna:",
        versions_default="wersja domyślna, wymieniona powyżej",
    ),
    "pt": Phrases(
        site_index="Índice do site:",
        for_agents="Para agentes de IA:",
        page_as_markdown="esta página em Markdown",
        llms_summary="As páginas de {name} em Markdown.",
        llms_intro="Cada link abaixo leva a uma página de {name} em Markdown. As páginas "
                   "seguem a ordem de leitura do site, agrupadas por seções.",
        llms_sections="Seções com o seu próprio llms.txt:",
        llms_languages="O site em outros idiomas:",
        section_summary="As páginas da seção {section} de {name}, em Markdown.",
        section_intro="Cada link abaixo leva a uma página dentro de {url}, em Markdown.",
        section_full="Todas em um único arquivo:",
        section_site="O site inteiro:",
        versions_default="a versão padrão, listada acima",
    ),
    "ru": Phrases(
        site_index="Указатель сайта:",
        for_agents="Для ИИ-агентов:",
        page_as_markdown="эта страница в формате Markdown",
        llms_summary="Страницы сайта {name} в формате Markdown.",
        llms_intro="Каждая ссылка ниже ведёт на страницу сайта {name} в формате Markdown. "
                   "Страницы идут в порядке чтения сайта и сгруппированы по разделам.",
        llms_sections="Разделы со своим llms.txt:",
        llms_languages="Сайт на других языках:",
        section_summary="Страницы раздела {section} сайта {name} в формате Markdown.",
        section_intro="Каждая ссылка ниже ведёт на страницу из {url} в формате Markdown.",
        section_full="Все в одном файле:",
        section_site="Весь сайт:",
        versions_default="версия по умолчанию, указана выше",
    ),
    "tr": Phrases(
        site_index="Site dizini:",
        for_agents="Yapay zekâ ajanları için:",
        page_as_markdown="bu sayfanın Markdown sürümü",
        llms_summary="{name} sayfalarının Markdown sürümleri.",
        llms_intro="Aşağıdaki her bağlantı {name} sitesinin bir sayfasının Markdown sürümüne "
                   "götürür. Sayfalar sitenin okuma sırasını izler ve bölümlerine göre "
                   "gruplanmıştır.",
        llms_sections="Kendi llms.txt dosyası olan bölümler:",
        llms_languages="Sitenin diğer dillerdeki sürümleri:",
        section_summary="{name} sitesinin {section} bölümündeki sayfaların Markdown "
                        "sürümleri.",
        section_intro="Aşağıdaki her bağlantı {url} altındaki bir sayfanın Markdown sürümüne "
                      "götürür.",
        section_full="Hepsi tek bir dosyada:",
        section_site="Sitenin tamamı:",
        versions_default="varsayılan sürüm, yukarıda listelenmiştir",
    ),
    "uk": Phrases(
        site_index="Покажчик сайту:",
        for_agents="Для ШІ-агентів:",
        page_as_markdown="ця сторінка у форматі Markdown",
        llms_summary="Сторінки сайту {name} у форматі Markdown.",
        llms_intro="Кожне посилання нижче веде на сторінку сайту {name} у форматі Markdown. "
                   "Сторінки йдуть у порядку читання сайту й згруповані за розділами.",
        llms_sections="Розділи з власним llms.txt:",
        llms_languages="Сайт іншими мовами:",
        section_summary="Сторінки розділу {section} сайту {name} у форматі Markdown.",
        section_intro="Кожне посилання нижче веде на сторінку з {url} у форматі Markdown.",
        section_full="Усі в одному файлі:",
        section_site="Увесь сайт:",
        versions_default="типова версія, наведена вище",
    ),
    "zh-Hans": Phrases(
        site_index="站点索引：",
        for_agents="供 AI 智能体使用：",
        page_as_markdown="本页的 Markdown 版本",
        llms_summary="{name} 各页面的 Markdown 版本。",
        llms_intro="下面的每个链接都指向 {name} 某个页面的 Markdown 版本。页面按站点的阅读"
                   "顺序排列，并按章节分组。",
        llms_sections="拥有独立 llms.txt 的章节：",
        llms_languages="其他语言的站点：",
        section_summary="{name} 中“{section}”章节页面的 Markdown 版本。",
        section_intro="下面的每个链接都指向 {url} 下某个页面的 Markdown 版本。",
        section_full="全部页面合为一个文件：",
        section_site="整个站点：",
        versions_default="默认版本，已在上方列出",
    ),
    "zh-Hant": Phrases(
        site_index="網站索引：",
        for_agents="供 AI 代理使用：",
        page_as_markdown="本頁的 Markdown 版本",
        llms_summary="{name} 各頁面的 Markdown 版本。",
        llms_intro="下方每個連結都指向 {name} 某個頁面的 Markdown 版本。頁面依網站的閱讀"
                   "順序排列，並依章節分組。",
        llms_sections="擁有獨立 llms.txt 的章節：",
        llms_languages="其他語言的網站：",
        section_summary="{name} 中「{section}」章節頁面的 Markdown 版本。",
        section_intro="下方每個連結都指向 {url} 下某個頁面的 Markdown 版本。",
        section_full="全部頁面合併為一個檔案：",
        section_site="整個網站：",
        versions_default="預設版本，已列於上方",
    ),
}
"""The built-in phrases by language tag: English, and the languages documentation is most
often translated into."""

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


def translated(lang: str | None, overrides: PhraseOverrides = ()) -> bool:
    """Whether every phrase for ``lang`` is in that language: English text, a language
    of the phrasebook, or one the setting gives every phrase of."""
    candidates = _candidates(lang)
    if not candidates or candidates[-1] == "en" or any(tag in PHRASEBOOK for tag in candidates):
        return True
    given: set[str] = set()
    for tag, texts in overrides:
        if (normalize_lang(tag) or tag) in candidates:
            given.update(name for name, _ in texts)
    return given >= set(PHRASE_NAMES)


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
