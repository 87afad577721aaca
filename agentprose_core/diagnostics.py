"""Diagnostics: what the core reports instead of logging, and the codes they carry.

Every code is declared once in :data:`CODES` with its usual level and what it means
for a user; a :class:`Diagnostic` with a code not declared there cannot be made, so
the Diagnostics page of the docs (generated from :data:`CODES`) lists every warning a
build can show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping

__all__ = ["CODES", "Code", "Diagnostic", "Severity", "audible", "unique"]

Severity = Literal["warning", "info"]


@dataclass(frozen=True)
class Code:
    """One kind of diagnostic: its stable name (the warning's ``[code]``, Sphinx's
    subtype), the level it is usually reported at, and what happened and what to do."""

    name: str
    severity: Severity
    meaning: str


def _by_name(*codes: Code) -> Mapping[str, Code]:
    return {code.name: code for code in codes}


# In alphabetical order: the order of the docs' table. A meaning is one line for users,
# written for every tool that can report the code.
CODES: Mapping[str, Code] = _by_name(
    Code("bad-date", "warning",
         "A date in the page's metadata or `<head>` cannot be read, so it is ignored (a "
         "page without a `modified` time is left out of `agentprose.json`): write it as "
         "`YYYY-MM-DD` or an ISO 8601 time. An info for the git-revision-date plugin's "
         "localized dates: set that plugin's `type` to `iso_datetime`."),
    Code("bad-json-ld", "warning",
         "`agentprose build`: a JSON-LD block of the page is not valid JSON, or a value in "
         "it is not what schema.org expects there, so it is ignored. Fix the theme or "
         "plugin that writes it."),
    Code("bad-lang", "warning",
         "`agentprose build`: the page's language (`<html lang>`, `og:locale`, …) is not a "
         "BCP 47 tag such as `en` or `pt-BR`, so it is ignored. Fix the theme's language "
         "setting."),
    Code("bad-metadata", "warning",
         "A front matter value has the wrong type, the front matter is not valid YAML, or "
         "it is too large or deep (a YAML alias bomb?), so it is ignored. Fix the page's "
         "front matter."),
    Code("bad-source", "warning",
         "`agentprose build --source`: a page's Markdown source could not be read (missing, "
         "unreadable, not UTF-8), so its front matter is not used. Check the file."),
    Code("bad-url", "warning",
         "`agentprose build`: a URL in the page's `<head>` (canonical, image, …) is not an "
         "http(s) URL, so it is ignored. Make it an http(s) URL."),
    Code("blog", "warning",
         "Sphinx with ablog: ablog's catalog of posts could not be read (another ablog "
         "version?), so the pages it generates to list posts get no agent view. Report it "
         "with your ablog version."),
    Code("config", "warning",
         "Sphinx: `conf.py` sets an `agentprose_*` name that is no option (a typo?); or, as "
         "an error, an option has a value it cannot take and agentprose writes nothing "
         "until it is fixed. Change `conf.py` as the message says."),
    Code("content-fallback", "warning",
         "`agentprose build`: pages without a known content container (`<main>`, "
         "`<article>`, a theme's content element), so all of `<body>` became their views, "
         "header and navigation included, and their titles may be the site's name. Set "
         "`content_selector` to the element that holds the content."),
    Code("deep-nesting", "warning",
         "Markup nested deeper than the converter follows was kept as its visible text "
         "only; the rest of the page is converted as usual. Flatten that HTML if its "
         "structure matters."),
    Code("duplicate-page", "warning",
         "A page has the same URL as an earlier one, so it is left out of `agentprose.json` "
         "and `llms.txt`. Give each page its own URL."),
    Code("empty-page", "warning",
         "`agentprose build`: an HTML file of the site is empty, so it gets no agent view. "
         "Check what wrote it, or leave it out with `--exclude`."),
    Code("engine-failed", "warning",
         "The converter failed on a page: the Markdown engine (the page was converted with "
         "the other engine instead, or as plain text when both failed), or one of "
         "agentprose's own rules (the page's view is its plain text). The build goes on. "
         "Please report the page to agentprose."),
    Code("engine-fallback", "warning",
         "The html-to-markdown engine cannot be imported, so the slower markdownify engine "
         "converts the pages. Install html-to-markdown (Python 3.11+), or set `converter: "
         "markdownify`."),
    Code("foreign-canonical", "warning",
         "`agentprose build`: the page names a canonical URL off this site, so its agent "
         "view cites the page's own URL instead. Fix the canonical link if the page belongs "
         "to this site."),
    Code("fragment-lost", "warning",
         "A view links a fragment (`page.md#x`) that the target page's HTML has but its "
         "view lost, so the link lands at the top of the page. Please report the pages to "
         "agentprose."),
    Code("head", "warning",
         "The `<head>` tags of a page (discovery links, JSON-LD) could not be added or "
         "brought up to date, or the theme writes pages without a `</head>`. The message "
         "says why; use a theme that writes a `<head>`, or add the tags to its layout."),
    Code("index-cut", "warning",
         "`agentprose.json` would pass `index_max_bytes`, so it lists every page without "
         "its Markdown (each keeps its `markdown_url`). Raise `index_max_bytes` to keep it."),
    Code("link-not-view", "warning",
         "A view links another page of the site by its HTML URL instead of its view, so an "
         "agent that follows it reads HTML. Please report the pages to agentprose."),
    Code("llms-full-cut", "warning",
         "`llms-full.txt` stops at `llms_full_max_bytes`; the pages left out of it are still "
         "in `llms.txt`. Raise `llms_full_max_bytes` to keep them."),
    Code("llms-txt-conflict", "warning",
         "Another tool writes `llms.txt`, `llms-full.txt` or Markdown pages too "
         "(mkdocs-llmstxt in the same build, Zensical's llms.txt module before `agentprose "
         "build`), so the site would get some files from each. Remove the other plugin, or "
         "turn its llms.txt off; agentprose writes them all."),
    Code("mcp-discovery", "info",
         "The site is under a sub-path (`/docs/`), so the build writes no MCP server card "
         "and no agent skill for the `mcp_endpoint`: well-known files are read only at the "
         "root of a domain. `llms.txt` still names the endpoint. Serve them from the "
         "domain's root to advertise it there."),
    Code("no-content", "warning",
         "`agentprose build`: `content_selector` matches no element of the page, or the "
         "page has no `<body>`. Fix `content_selector`, or leave the page out."),
    Code("no-git", "warning",
         "Some source files are not tracked by git, so their pages take the file's "
         "modification time as `modified`. Commit them, or set `modified` in their "
         "metadata."),
    Code("no-view", "info",
         "Pages the site asks to leave out of the agent outputs (`agentprose: false`, "
         "`draft: true`, `exclude`, redirect pages), named once a build: a build tells of "
         "every page it writes without a view. Nothing to do unless a page is listed "
         "that should have one."),
    Code("not-a-page", "info",
         "`agentprose build`: an HTML file of the site is a template (`{% … %}` or `{{ … }}`, "
         "and no `<html>` or `<body>`), such as a theme's `main.html` copied from the docs "
         "folder, so it gets no agent view. Leave it out with `--exclude` to silence this."),
    Code("off-site-page", "warning",
         "A page's URL or its agent view's URL is not under the site's base URL, so it is "
         "left out of `agentprose.json` and `llms.txt`. Check `site_url` (MkDocs) or "
         "`html_baseurl` (Sphinx)."),
    Code("off-site-url", "warning",
         "A page's image, prev or next URL is not on the site's origin, so "
         "`agentprose.json` leaves it out. Point it at the site."),
    Code("placeholder-leak", "warning",
         "An internal placeholder of the converter was lost by the Markdown engine on a "
         "page (it split or moved it): the page was converted with the other engine, or, "
         "when both lost it, the placeholder was removed and the text it stood for may be "
         "missing from that page's view. Please report the page to agentprose."),
    Code("shallow-clone", "warning",
         "The repository is a shallow clone, so git gives every page the date of the last "
         "commit. Fetch the full history: `fetch-depth: 0` in actions/checkout, `git fetch "
         "--unshallow` in a Read the Docs pre-build job."),
    Code("summary", "info",
         "Sphinx: what the build wrote, at its end: how many agent views, and how many "
         "files in all (views and site files), as MkDocs and `agentprose build` say it."),
    Code("unknown-construct", "warning",
         "An HTML element the converter has no rule for: its text is kept as plain text. A "
         "`preprocess` hook can rewrite it, or mark it `data-ignore` to leave it out. An "
         "info for custom elements (a name with a hyphen)."),
    Code("untitled-page", "warning",
         "A page has no title, so it is left out of `agentprose.json` and `llms.txt`. Give "
         "it a heading or a `title` in its metadata."),
    Code("untranslated", "info",
         "Pages in a language agentprose has no phrases for carry its few fixed sentences "
         "(the views' site-index line, the hidden line for agents, the prose of `llms.txt`) "
         "in English. Give them in that language with the `phrases` option."),
    Code("view-collision", "warning",
         "Two pages would share one agent view URL, so one of them got another. Rename one "
         "of them, or set `view_layout` to `directory` or `index-html` to choose."),
)


@dataclass(frozen=True)
class Diagnostic:
    """One thing a user may want to know about.

    ``code`` is a short stable identifier (``"unknown-construct"``, ``"no-git"``) that the
    plugins use as their warning subtype, so users can silence it; it must be one of
    :data:`CODES` (a ``ValueError`` otherwise, so that a new code is documented).
    """

    code: str
    message: str
    location: str | None = None
    severity: Severity = "warning"

    def __post_init__(self) -> None:
        # A call and a dict lookup: 0.1-0.15 µs on the ~0.9 µs of making one (a build
        # makes a few, at most a few per page: well under a millisecond in all).
        if self.code not in CODES:
            raise ValueError(f"Unregistered diagnostic code {self.code!r}: declare it in "
                             "agentprose_core.diagnostics.CODES.")

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{where}{self.message} [{self.code}]"


def unique(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` without repeats, in first-seen order: one warning, not one a page."""
    return list(dict.fromkeys(diagnostics))


def audible(diagnostics: Iterable[Diagnostic], quiet: Collection[str]) -> list[Diagnostic]:
    """``diagnostics`` without repeats and without those whose code the user keeps
    quiet (the ``quiet`` setting)."""
    return [d for d in unique(diagnostics) if d.code not in quiet]
