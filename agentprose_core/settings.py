"""Every agentprose option, declared once.

Each :class:`Settings` field carries its default, help, kinds of value and choices;
:func:`options` hands them to the MkDocs config, the Sphinx ``agentprose_*`` values and
the docs, which are made from it, and :func:`settings_from_mapping` checks values by it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import NoneType
from typing import TYPE_CHECKING, Any, Literal, get_args

from agentprose_core.errors import ConfigError
from agentprose_core.lang import normalize_lang
from agentprose_core.model import ARTICLE_TYPES
from agentprose_core.phrases import PhraseOverrides, phrase_problems

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

HOSTS = ("netlify", "cloudflare", "apache", "none")

__all__ = [
    "ENGINES", "VIEW_LAYOUTS", "Option", "Settings", "options", "settings_from_mapping",
    "unknown_option_hint",
]

Engine = Literal["html-to-markdown", "markdownify"]
ViewLayout = Literal["sibling", "directory", "index-html"]
ENGINES: tuple[str, ...] = get_args(Engine)
VIEW_LAYOUTS: tuple[str, ...] = get_args(ViewLayout)


def _opt(
    default: Any, help: str, *, kinds: tuple[type, ...], choices: tuple[str, ...] = ()
) -> Any:
    """A :class:`Settings` field with what the front-ends need to know about it: its
    ``help``, the ``kinds`` of value a config file may give (``list`` a list of strings,
    ``dict`` a mapping of titles to lists of patterns, ``NoneType`` unset) and, for a
    string, its ``choices``. A value in the field's own form (a tuple) passes too."""
    return field(default=default, metadata={"help": help, "kinds": kinds, "choices": choices})


@dataclass(frozen=True)
class Settings:
    """The options of agentprose, with their defaults."""

    enabled: bool = _opt(True, "Turn every agentprose output on or off.", kinds=(bool,))
    converter: Engine = _opt(
        "html-to-markdown",
        "Markdown engine: `html-to-markdown` (fast, Rust) or `markdownify` (pure Python).",
        kinds=(str,), choices=ENGINES,
    )
    view_layout: ViewLayout = _opt(
        "sibling",
        "Where a page's agent view lives: `sibling` (`/a/` -> `/a.md`), "
        "`directory` (`/a/` -> `/a/index.md`) or `index-html` (`/a/` -> `/a/index.html.md`).",
        kinds=(str,), choices=VIEW_LAYOUTS,
    )
    content_selector: str | None = _opt(
        None, "CSS selector of the main content in a built page (for `agentprose build`).",
        kinds=(str, NoneType),
    )
    exclude: tuple[str, ...] = _opt(
        (), "Glob patterns of pages to leave out of every output (source paths or page paths).",
        kinds=(list, tuple),
    )
    cache: bool = _opt(
        True,
        "Keep converted pages in a cache (MkDocs: `.cache/agentprose` beside `mkdocs.yml`; "
        "Sphinx: the doctree folder) so unchanged pages are not converted again.",
        kinds=(bool,),
    )
    workers: bool = _opt(
        True,
        "Convert pages in background processes on the build machine's spare CPUs while the "
        "build renders the rest (MkDocs, `agentprose build`, and Sphinx writing pages one "
        "at a time, in one worker; a first `sphinx-build -j N` converts in Sphinx's own "
        "writer processes); a Sphinx rebuild's worker also writes the site files while Sphinx "
        "finishes. `agentprose build` converts a site of up to 16 pages in its own process.",
        kinds=(bool,),
    )
    index: bool = _opt(True, "Write `agentprose.json` at the site root.", kinds=(bool,))
    index_markdown: bool = _opt(
        True, "Put each page's full Markdown into `agentprose.json` (`markdown_url` stays).",
        kinds=(bool,),
    )
    index_max_bytes: int | None = _opt(
        None,
        "Largest `agentprose.json` to write; past it the bodies are left out (every post "
        "keeps its `markdown_url`) and the build says so.",
        kinds=(int, NoneType),
    )
    llms_txt: bool = _opt(True, "Write `llms.txt` at the site root.", kinds=(bool,))
    llms_full_txt: bool = _opt(True, "Write `llms-full.txt` at the site root.", kinds=(bool,))
    section_llms_txt: bool = _opt(
        True,
        "Also write an `llms.txt` under each top-level section of several pages that has a "
        "folder of its own (`guide/llms.txt`), and its `llms-full.txt` when the section is "
        "large; the root `llms.txt` links to them.",
        kinds=(bool,),
    )
    directive: bool = _opt(
        True,
        "Start every agent view, after its front matter, with a line that links the "
        "site's `llms.txt` and `agentprose.json`.",
        kinds=(bool,),
    )
    llms_full_max_bytes: int | None = _opt(
        None,
        "Largest `llms-full.txt` to write; the pages past it are left out, with a closing "
        "line that says how many.",
        kinds=(int, NoneType),
    )
    discovery_links: bool = _opt(
        True, "Add the `<link>` tags for the agent view and the index to every page's head.",
        kinds=(bool,),
    )
    body_hint: bool = _opt(
        True,
        "Add one visually hidden line at the top of every page's body that links its agent "
        "view and `llms.txt`, for agents whose fetcher drops the `<head>`.",
        kinds=(bool,),
    )
    detect_agents: bool = _opt(
        False,
        "Make the host configuration the build writes answer the agent view to known "
        "agent fetchers (`Claude-User`, `ChatGPT-User`, ...) even when they ask for HTML.",
        kinds=(bool,),
    )
    json_ld: bool = _opt(
        True,
        "Add a JSON-LD article block and OpenGraph article tags to each page's head, unless "
        "the page already has them.",
        kinds=(bool,),
    )
    article_type: str = _opt(
        "TechArticle", "The schema.org type of the JSON-LD block.",
        kinds=(str,), choices=ARTICLE_TYPES,
    )
    host: str = _opt(
        "none",
        "Write the host's configuration file into the built site: `netlify` or `cloudflare` "
        "(`_headers`), `apache` (`.htaccess`), or `none`.",
        kinds=(str,), choices=HOSTS,
    )
    site_description: str | None = _opt(
        None, "Site description for `llms.txt` and the index, when the build tool has none.",
        kinds=(str, NoneType),
    )
    preprocess: str | None = _opt(
        None,
        "A function `package.module:function(element, url)` called with each page's content "
        "(an lxml element) before conversion, to drop or rewrite parts of it.",
        kinds=(str, NoneType),
    )
    sections: tuple[tuple[str, tuple[str, ...]], ...] = _opt(
        (),
        "`llms.txt` sections instead of the nav's: each title with glob patterns of the "
        "source paths of its pages (`Guide: [guide/*.md]`); other pages go under Optional.",
        kinds=(dict,),
    )
    languages: tuple[tuple[str, str], ...] = _opt(
        (),
        "On a site built once per language (Sphinx with gettext, Read the Docs "
        "translations): every language's tag, with the URL its build is served at "
        "(`{en: 'https://x.org/en/', fr: 'https://x.org/fr/'}`), or as a list of tags when "
        "the URLs differ only in the language (`[en, fr]`, as on Read the Docs). Each "
        "page then names its translations, each `llms.txt` links the other languages'.",
        kinds=(dict, list),
    )
    phrases: PhraseOverrides = _opt(
        (),
        "The fixed sentences agentprose writes (the views' site-index line, the pages' "
        "hidden line for agents, the prose of `llms.txt`, the page menu's words) for a "
        "language, by phrase name: `{fi: {site_index: 'Sivuston hakemisto:'}}`. Built in: "
        "en, de, es, fr, it, ja, ko, nl, pl, pt, ru, tr, uk, zh-Hans, zh-Hant; what is "
        "given neither here nor there is English.",
        kinds=(dict,),
    )
    page_actions: bool = _opt(
        False,
        "Show a small menu under each page's title that hands its agent view to a "
        "person's assistant: Copy as Markdown, View as Markdown, Open in ChatGPT or "
        "Claude (`page_action_links`). Its script and style are written once, under "
        "`_agentprose/`; the agent outputs stay the same bytes.",
        kinds=(bool,),
    )
    page_action_links: tuple[tuple[str, str], ...] = _opt(
        (("ChatGPT", "https://chatgpt.com/?q={prompt}"),
         ("Claude", "https://claude.ai/new?q={prompt}")),
        "The menu's *Open in* entries: each name with its URL, where `{prompt}` is the "
        "request to read the page's view (URL-encoded) and `{url}` the view's URL. `{}` "
        "for none.",
        kinds=(dict,),
    )
    mcp_endpoint: str | None = _opt(
        None,
        "Where the site's MCP endpoint answers: an absolute http(s) URL, or a path from "
        "the root of the site's domain such as `/mcp`. The build then writes "
        "`agentprose-search.json` (the search index an endpoint answers from), names the "
        "endpoint in `llms.txt` and, at a domain's root, writes its MCP server card and "
        "an agent skill under `.well-known/`. Unset, nothing is written for an endpoint.",
        kinds=(str, NoneType),
    )
    quiet: tuple[str, ...] = _opt(
        (),
        "Codes of the warnings to keep quiet, as the build shows them in brackets "
        "(`[no-git]`, `[view-collision]`): for a strict build that knows about them. "
        "Sphinx's `suppress_warnings = ['agentprose.no-git']` does the same.",
        kinds=(list, tuple),
    )


@dataclass(frozen=True)
class Option:
    """One option as the plugins and the docs see it."""

    name: str
    type: Any
    default: Any
    help: str
    choices: tuple[str, ...]
    kinds: tuple[type, ...]

    @property
    def written_default(self) -> Any:
        """The default as a config file spells it: a list, or a mapping for pairs."""
        if not isinstance(self.default, tuple):
            return self.default
        return dict(self.default) if dict in self.kinds else list(self.default)


def options() -> tuple[Option, ...]:
    """Every option of :class:`Settings`, in declaration order."""
    return tuple(
        Option(
            name=f.name,
            type=f.type,
            default=f.default,
            help=f.metadata["help"],
            choices=f.metadata["choices"],
            kinds=f.metadata["kinds"],
        )
        for f in dataclasses.fields(Settings)
    )


_OPTIONS = {option.name: option for option in options()}


def unknown_option_hint(name: str, *, prefix: str = "", also: Sequence[str] = ()) -> str:
    """What to say of ``name``, which is no option: the option it most likely meant,
    else every option's name (each written with ``prefix``, as the tool spells them;
    ``also`` are the tool's own options)."""
    import difflib  # only for a mistake: not loaded with every build

    known = [*_OPTIONS, *also]
    close = difflib.get_close_matches(name.removeprefix(prefix), known, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{prefix}{close[0]}'?"
    return f"the options are: {', '.join(prefix + option for option in sorted(known))}."


def _kind_name(name: str, kinds: tuple[type, ...]) -> str:
    mapping = {"phrases": "a mapping of language tags to phrases",
               "languages": "a mapping of language tags to URLs",
               "page_action_links": "a mapping of names to URLs"}.get(
                   name, "a mapping of titles to lists of patterns")
    names = {bool: "true or false", str: "a string", list: "a list of strings",
             int: "a whole number of bytes", dict: mapping}
    return " or ".join(names.get(k, "nothing") for k in kinds if k is not tuple)


def _check(name: str, value: Any) -> Any:
    option = _OPTIONS[name]
    accepted = (*option.kinds, type(option.default))  # and the form Settings keeps
    if not isinstance(value, accepted) or (isinstance(value, bool) and bool not in accepted):
        raise ConfigError(
            f"agentprose option '{name}' must be {_kind_name(name, option.kinds)}, not {value!r}."
        )
    if option.choices and value not in option.choices:
        allowed = ", ".join(repr(c) for c in option.choices)
        raise ConfigError(f"agentprose option '{name}' must be one of {allowed}, not {value!r}.")
    if name == "sections":
        return _sections(value)
    if name == "phrases":
        return _phrases(value)
    if name == "languages":
        return _languages(value)
    if name == "page_action_links":
        return _action_links(value)
    if name == "mcp_endpoint" and value is not None and not (
            isinstance(value, str) and value.startswith(("https://", "http://", "/"))):
        raise ConfigError("agentprose option 'mcp_endpoint' must be an absolute http(s) URL "
                          f"or a path on the site that starts with '/', like '/mcp', not "
                          f"{value!r}.")
    if isinstance(value, int) and not isinstance(value, bool) and value < 1:
        raise ConfigError(f"agentprose option '{name}' must be at least 1, not {value}.")
    if isinstance(value, (list, tuple)):
        if not all(isinstance(p, str) for p in value):
            raise ConfigError(f"agentprose option '{name}' must be a list of strings: {value!r}.")
        return tuple(value)
    return value


def _sections(value: Any) -> tuple[tuple[str, tuple[str, ...]], ...]:
    pairs = list(value.items()) if isinstance(value, dict) else list(value)
    for pair in pairs:
        title, globs = pair if isinstance(pair, tuple) and len(pair) == 2 else (None, None)
        if not (isinstance(title, str) and isinstance(globs, (list, tuple))
                and all(isinstance(g, str) for g in globs)):
            raise ConfigError(
                "agentprose option 'sections' must map section titles to lists of glob "
                f"patterns, like {{'Guide': ['guide/*.md']}}, not {value!r}."
            )
    return tuple((title, tuple(globs)) for title, globs in pairs)


def _languages(value: Any) -> tuple[tuple[str, str], ...]:
    if isinstance(value, dict):
        pairs = list(value.items())
    else:  # tags alone, or (tag, URL) pairs as Settings keeps them
        pairs = [(item, "") if isinstance(item, str) else item for item in value]
        if not all(isinstance(pair, tuple) and len(pair) == 2 for pair in pairs):
            raise ConfigError("agentprose option 'languages' must be a list of language "
                              f"tags or a mapping of tags to URLs, not {value!r}.")
    for tag, url in pairs:
        if not isinstance(tag, str) or normalize_lang(tag) is None:
            raise ConfigError(f"agentprose option 'languages': {tag!r} is not a language "
                              "tag (like 'fr' or 'pt-BR').")
        if url and not (isinstance(url, str) and url.startswith(("https://", "http://"))):
            raise ConfigError(f"agentprose option 'languages': the URL of '{tag}' must be "
                              f"an absolute http(s) URL, not {url!r}.")
    if len({normalize_lang(tag) for tag, _ in pairs}) < len(pairs):
        raise ConfigError("agentprose option 'languages' names a language twice.")
    return tuple((tag, url) for tag, url in pairs)


def _action_links(value: Any) -> tuple[tuple[str, str], ...]:
    pairs = list(value.items()) if isinstance(value, dict) else list(value)
    for name, url in pairs:
        if not (isinstance(name, str) and name.strip() and isinstance(url, str)
                and url.startswith("https://") and ("{prompt}" in url or "{url}" in url)):
            raise ConfigError(
                "agentprose option 'page_action_links' maps names to https URLs that hold "
                "{prompt} or {url}, like {'Perplexity': 'https://www.perplexity.ai/search?"
                f"q={{prompt}}'}}, not {name!r}: {url!r}.")
    return tuple((name, url) for name, url in pairs)


def _phrases(value: Any) -> PhraseOverrides:
    pairs = list(value.items()) if isinstance(value, dict) else list(value)
    if not all(isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
               and isinstance(pair[1], (dict, tuple)) for pair in pairs):
        raise ConfigError(
            "agentprose option 'phrases' must map language tags to phrases and their text, "
            f"like {{'fi': {{'site_index': 'Sivuston hakemisto:'}}}}, not {value!r}."
        )
    given = [(tag, dict(texts)) for tag, texts in pairs]
    problems = phrase_problems(given)
    if problems:
        raise ConfigError(f"agentprose option 'phrases': {'; '.join(problems)}.")
    return tuple((tag, tuple(texts.items())) for tag, texts in given)


def settings_from_mapping(values: Mapping[str, Any]) -> Settings:
    """Validate user-given option values and build :class:`Settings`.

    Unknown names and wrong types raise :class:`ConfigError` with a message that says
    what to change.
    """
    known = set(_OPTIONS)
    unknown = sorted(set(values) - known)
    if unknown:
        raise ConfigError(" ".join(
            f"'{name}' is no agentprose option: {unknown_option_hint(name)}" for name in unknown))
    checked = {name: _check(name, value) for name, value in values.items()}
    if checked.get("preprocess"):
        from agentprose_core.preprocess import (
            load_preprocess,  # imports the user's code: only when asked to
        )

        load_preprocess(checked["preprocess"])
    return Settings(**checked)
