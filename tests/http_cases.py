"""What a server of an agentprose site must answer: one table, for any server.

The table runs against ``agentprose serve`` in the tests and, unchanged, against any other
server (nginx with our generated config) that serves a site built by :func:`build_fixture_site`:

    failures = run_cases("http://127.0.0.1:8080/docs/", cases_for("http://127.0.0.1:8080/docs/"))

A case path without a leading ``/`` is relative to the base URL; one with it is taken from
the origin's root (traversal attempts, URLs outside a sub-path). Header values may hold
``{etag}`` and ``{last_modified}``: a first request (``prime`` headers, else the case's
own without its ``If-*`` headers) learns them. Expected header values and body text may
hold ``{base}``, the base URL's path (``/`` or ``/docs/``). Cases marked ``strict`` check an
RFC 9110 detail that stock nginx does not follow (it wants every conditional to pass
before a 304).

:func:`agent_cases` is the table of real agents', browsers' and crawlers' requests, for a
server with agent detection on or off.
"""

from __future__ import annotations

import os
import shutil
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from agentprose_core.agents import VARY_AGENTS
from agentprose_core.build.postbuild import build_site
from agentprose_core.settings import Settings

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "CASES",
    "HIDDEN",
    "HIDDEN_FILES",
    "HIDDEN_SENTINEL",
    "LLMS_SCOPES",
    "PROFILES",
    "SUBPATH_CASES",
    "Case",
    "Profile",
    "agent_cases",
    "build_fixture_site",
    "cases_for",
    "check_answer",
    "run_cases",
]

EXAMPLE = Path(__file__).parent.parent / "examples" / "plain-site"
EXCLUDED = "about/index.html"  # built without a view: must be served as plain HTML
SENTINEL = "agentprose-outside-the-site"  # in a file next to the site dir: never served
HIDDEN_SENTINEL = "agentprose-hidden-file"  # in each hidden file of the site: never served
HIDDEN_FILES = {
    ".env": f"TOKEN={HIDDEN_SENTINEL}\n",
    ".git/config": f"[remote]\n\turl = {HIDDEN_SENTINEL}\n",
    "sub/.hidden/page.html": f"<html><body>{HIDDEN_SENTINEL}</body></html>\n",
    # A view beside it: the Markdown answer of a hidden page must not be served either.
    "sub/.hidden/page.md": f"# {HIDDEN_SENTINEL}\n",
    ".well-known/.secret": f"{HIDDEN_SENTINEL}\n",
    ".well-known/security.txt": "Contact: mailto:security@coast.example\n",
}
"""Files the fixture site holds that a server must refuse (but ``security.txt``)."""

MARKDOWN = "text/markdown"
HTML = "text/html"
TIDE_TITLE = 'title: "How tide pools survive low tide"'
HOME_TITLE = 'title: "Welcome to the Coast Guide"'
NO_CONTENT = ("root:x:0:0", SENTINEL)
SECTION = "tide-pools/"  # holds an llms.txt of its own in the fixture site
LLMS_SCOPES = ("", SECTION)
"""The folders of the fixture site that hold an ``llms.txt``."""
SECTION_LLMS = "# Tide pools\n\n> The tide pools section.\n"
INDEX_LINK = '<{base}agentprose.json>; rel="agentprose-index"; type="application/json"'
ROOT_LLMS_LINK = '<{base}llms.txt>; rel="describedby"'
SECTION_LLMS_LINK = '<{base}tide-pools/llms.txt>; rel="describedby"'
NOT_FOUND_TITLE = "# Page not found"
NAMED_FOLDER = "field-guide/"
"""A folder's page whose view is ``field-guide/index.md``, as Sphinx's html builder writes
it (its URL names its file), with no ``field-guide.md``."""
NAMED_TITLE = 'title: "The field guide"'
CHANGES_TITLE = 'title: "Changes"'
SEASONS_TITLE = 'title: "Changes by season"'
FIXTURE_PAGES = {
    # A page and a folder of one name: the page has changes.md, so the build gives the
    # folder's page changes/index.md, which a folder URL must find before changes.md.
    "changes.html": ("Changes", "What changed on the coast this year."),
    "changes/index.html": ("Changes by season", "How the pools change with the seasons."),
}


@dataclass(frozen=True)
class Case:
    """One request and what its response must show."""

    name: str
    path: str
    method: str = "GET"
    headers: Mapping[str, str] = field(default_factory=dict)
    status: int | tuple[int, ...] | None = 200
    """One status, any of several, or None for any."""
    content_type: str | None = None
    """Prefix of ``Content-Type``, e.g. ``text/markdown``."""
    vary_accept: bool | None = None
    """True: ``Vary`` lists ``Accept``; False: it does not; None: not checked."""
    vary: tuple[str, ...] | None = None
    """The exact set of ``Vary`` members (any case, any order); None: not checked."""
    present: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    header_contains: tuple[tuple[str, str], ...] = ()
    """(header, a substring of its value), case-insensitive."""
    header_lacks: tuple[tuple[str, str], ...] = ()
    """(header, a substring its value must not hold); an absent header passes."""
    body_contains: tuple[str, ...] = ()
    body_lacks: tuple[str, ...] = ()
    empty_body: bool = False
    prime: Mapping[str, str] | None = None
    like_get: bool = False
    """For HEAD: same Content-Type, ETag and Content-Length as a GET of the same URL."""
    etag_differs_with: Mapping[str, str] | None = None
    """Headers of a second GET of the same URL whose ETag must differ."""
    strict: bool = False
    markdown_404: bool = False
    """Wants the Markdown ``404``, which not every server can send."""


def _md(name: str, path: str, accept: str | None, *, title: str = TIDE_TITLE) -> Case:
    headers = {"Accept": accept} if accept is not None else {}
    return Case(name, path, headers=headers, content_type=MARKDOWN, vary_accept=True,
                present=("ETag",), body_contains=(title,), body_lacks=("<html",),
                header_lacks=(("Content-Type", HTML),))


def _html(name: str, path: str, accept: str | None, *, view: str = "tide-pools.md") -> Case:
    headers = {"Accept": accept} if accept is not None else {}
    return Case(name, path, headers=headers, content_type=HTML, vary_accept=True,
                present=("ETag",), body_contains=("<html",),
                header_contains=(("Link", view), ("Link", 'rel="alternate"'),
                                 ("Link", 'type="text/markdown"')))


def _view_at(case: Case, view: str, *, lacks: str | None = None) -> Case:
    """``case`` (an answer of a folder's page) naming ``view`` as the file it chose, in
    ``Link`` for the HTML or ``Content-Location`` for the view, never ``lacks``."""
    header = "Content-Location" if case.content_type == MARKDOWN else "Link"
    named = f"{{base}}{view}" if header == "Content-Location" else f"<{{base}}{view}>"
    wrong = () if lacks is None else ((header, f"{{base}}{lacks}"),)
    return replace(case, header_contains=(*case.header_contains, (header, named)),
                   header_lacks=(*case.header_lacks, *wrong))


def _hidden(name: str, path: str) -> Case:
    return Case(name, path, status=(400, 403, 404), body_lacks=NO_CONTENT)


NEGOTIATION = (
    _md("markdown", "tide-pools/", "text/markdown"),
    _html("html", "tide-pools/", "text/html"),
    _md("agent-preference", "tide-pools/", "text/markdown, text/html;q=0.8"),
    _html("html-preferred", "tide-pools/", "text/html, text/markdown;q=0.9"),
    _md("tie-goes-to-markdown", "tide-pools/", "text/html, text/markdown"),
    _md("tie-with-weights", "tide-pools/", "text/html;q=0.5, text/markdown;q=0.500"),
    _html("any", "tide-pools/", "*/*"),
    _html("no-accept", "tide-pools/", None),
    _html("markdown-refused", "tide-pools/", "text/markdown;q=0"),
    _html("browser", "tide-pools/",
          "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
    _md("case-insensitive", "tide-pools/", "TEXT/Markdown"),
    _md("query-ignored", "tide-pools/?utm_source=x", "text/markdown"),
    _md("index-html-url", "tide-pools/index.html", "text/markdown"),
    _md("file-page", "rock-pools.html", "text/markdown",
        title='title: "Rock pools"'),
    _html("file-page-html", "rock-pools.html", "text/html", view="rock-pools.md"),
    _md("root", "", "text/markdown", title=HOME_TITLE),
    _html("root-html", "", "text/html", view="index.md"),
)

REPRESENTATIONS = (
    Case("view-url-direct", "tide-pools.md", headers={"Accept": "text/html"},
         content_type=MARKDOWN, present=("ETag",), body_contains=(TIDE_TITLE,)),
    Case("head-markdown", "tide-pools/", method="HEAD", headers={"Accept": MARKDOWN},
         content_type=MARKDOWN, vary_accept=True, present=("ETag", "Content-Length"),
         empty_body=True, like_get=True),
    Case("head-html", "tide-pools/", method="HEAD", headers={"Accept": HTML},
         content_type=HTML, vary_accept=True, present=("ETag", "Content-Length"),
         header_contains=(("Link", "tide-pools.md"),), empty_body=True, like_get=True),
    Case("etag-per-representation", "tide-pools/", headers={"Accept": MARKDOWN},
         content_type=MARKDOWN, etag_differs_with={"Accept": HTML}),
    Case("page-without-view", "about/", headers={"Accept": MARKDOWN}, content_type=HTML,
         vary_accept=False, body_contains=("<html",), header_lacks=(("Link", MARKDOWN),)),
    Case("404-page", "404.html", headers={"Accept": MARKDOWN}, content_type=HTML,
         vary_accept=False, body_contains=("Page not found",), header_lacks=(("Link", MARKDOWN),)),
    Case("missing", "no-such-page/", status=404, content_type=HTML,
         body_contains=("Page not found",)),
    Case("directory-redirect", "tide-pools", status=(301, 308),
         header_contains=(("Location", "tide-pools/"),)),
    Case("index-json", "agentprose.json", content_type="application/json",
         body_contains=('"version": 1',)),
    Case("llms-txt", "llms.txt", content_type="text/plain", body_contains=("# Coast Guide",)),
    Case("llms-full-txt", "llms-full.txt", content_type="text/plain",
         body_contains=(TIDE_TITLE[len('title: "'):-1],)),
)

CONDITIONAL = (
    Case("if-none-match-markdown", "tide-pools/",
         headers={"Accept": MARKDOWN, "If-None-Match": "{etag}"}, status=304,
         vary_accept=True, present=("ETag",), empty_body=True),
    Case("if-none-match-html", "tide-pools/",
         headers={"Accept": HTML, "If-None-Match": "{etag}"}, status=304,
         vary_accept=True, present=("ETag",), empty_body=True),
    Case("if-none-match-other-representation", "tide-pools/",
         headers={"Accept": MARKDOWN, "If-None-Match": "{etag}"}, prime={"Accept": HTML},
         content_type=MARKDOWN, body_contains=(TIDE_TITLE,)),
    Case("if-none-match-list", "tide-pools.md",
         headers={"If-None-Match": '"nope", {etag}'}, status=304, empty_body=True),
    Case("if-modified-since", "tide-pools/",
         headers={"Accept": MARKDOWN, "If-Modified-Since": "{last_modified}"}, status=304,
         vary_accept=True, empty_body=True),
    Case("if-modified-since-old", "tide-pools/",
         headers={"Accept": MARKDOWN, "If-Modified-Since": "Thu, 01 Jan 1998 00:00:00 GMT"},
         content_type=MARKDOWN, body_contains=(TIDE_TITLE,)),
    Case("if-none-match-wins-over-date", "tide-pools/",
         headers={"Accept": MARKDOWN, "If-None-Match": '"nope"',
                  "If-Modified-Since": "{last_modified}"},
         content_type=MARKDOWN, body_contains=(TIDE_TITLE,)),
    Case("if-none-match-wins-over-old-date", "tide-pools/",
         headers={"Accept": MARKDOWN, "If-None-Match": "{etag}",
                  "If-Modified-Since": "Thu, 01 Jan 1998 00:00:00 GMT"},
         status=304, empty_body=True, strict=True),
    Case("if-none-match-static", "llms.txt", headers={"If-None-Match": "{etag}"}, status=304,
         empty_body=True),
)

FOLDER_VIEWS = (
    # Sphinx: the view is named after the folder's index.html.
    _view_at(_md("named-folder", NAMED_FOLDER, MARKDOWN, title=NAMED_TITLE),
             NAMED_FOLDER + "index.md"),
    _view_at(_md("named-folder-index-url", NAMED_FOLDER + "index.html", MARKDOWN,
                 title=NAMED_TITLE), NAMED_FOLDER + "index.md"),
    _view_at(_html("named-folder-html", NAMED_FOLDER, HTML, view="field-guide/index.md"),
             NAMED_FOLDER + "index.md"),
    # MkDocs: the view is the folder's sibling (the tide-pools cases above), also when
    # the URL names index.html.
    _view_at(_md("sibling-folder-index-url", "tide-pools/index.html", MARKDOWN),
             "tide-pools.md"),
    # A page and a folder of one name: each answers its own view.
    replace(_view_at(_md("folder-beside-page", "changes/", MARKDOWN, title=SEASONS_TITLE),
                     "changes/index.md", lacks="changes.md"),
            body_lacks=("<html", CHANGES_TITLE)),
    replace(_view_at(_md("folder-beside-page-index-url", "changes/index.html", MARKDOWN,
                         title=SEASONS_TITLE), "changes/index.md", lacks="changes.md"),
            body_lacks=("<html", CHANGES_TITLE)),
    _view_at(_html("folder-beside-page-html", "changes/", HTML, view="changes/index.md"),
             "changes/index.md", lacks="changes.md"),
    replace(_view_at(_md("page-beside-folder", "changes.html", MARKDOWN,
                         title=CHANGES_TITLE), "changes.md", lacks="changes/index.md"),
            body_lacks=("<html", SEASONS_TITLE)),
    _view_at(_html("page-beside-folder-html", "changes.html", HTML, view="changes.md"),
             "changes.md", lacks="changes/index.md"),
)

TRAVERSAL = (
    _hidden("dot-dot", "/../etc/passwd"),
    _hidden("dot-dot-deep", "/../../../../../../etc/passwd"),
    _hidden("encoded-dots", "/%2e%2e/%2e%2e/etc/passwd"),
    _hidden("encoded-slashes", "/..%2f..%2fetc%2fpasswd"),
    _hidden("encoded-all", "/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd"),
    _hidden("double-encoded", "/%252e%252e/%252e%252e/etc/passwd"),
    _hidden("backslashes", "/..%5c..%5c..%5cetc%5cpasswd"),
    _hidden("nul", "/tide-pools.md%00.html"),
    _hidden("relative-dot-dot", "tide-pools/../../../etc/passwd"),
    _hidden("sibling-file", "/../outside.txt"),
    _hidden("sibling-file-encoded", "/%2e%2e/outside.txt"),
    _hidden("symlink-out", "leak.txt"),
)


def _linked(name: str, path: str, accept: str, llms: str, *, method: str = "GET",
            view: str | None = None) -> Case:
    """A page URL's answer carries the covering llms.txt, the index and (HTML) the view."""
    markdown = accept == MARKDOWN
    links = ((("Link", llms), ("Link", INDEX_LINK))
             + ((("Link", f'<{{base}}{view}>; rel="alternate"'),) if view else ()))
    lacks = ((("Link", 'rel="alternate"'),) if markdown else ())
    other = SECTION_LLMS_LINK if llms == ROOT_LLMS_LINK else ROOT_LLMS_LINK
    return Case(name, path, method=method, headers={"Accept": accept},
                content_type=MARKDOWN if markdown else HTML, vary_accept=True,
                header_contains=links, header_lacks=(*lacks, ("Link", other)),
                empty_body=method == "HEAD")


LINKS = (
    _linked("link-html", "tide-pools/", HTML, SECTION_LLMS_LINK, view="tide-pools.md"),
    _linked("link-markdown", "tide-pools/", MARKDOWN, SECTION_LLMS_LINK),
    _linked("link-head-html", "tide-pools/", HTML, SECTION_LLMS_LINK, method="HEAD",
            view="tide-pools.md"),
    _linked("link-head-markdown", "tide-pools/", MARKDOWN, SECTION_LLMS_LINK, method="HEAD"),
    _linked("link-section-page", "tide-pools/species/", HTML, SECTION_LLMS_LINK,
            view="tide-pools/species.md"),
    _linked("link-section-page-markdown", "tide-pools/species/", MARKDOWN, SECTION_LLMS_LINK),
    _linked("link-root-file-page", "rock-pools.html", HTML, ROOT_LLMS_LINK,
            view="rock-pools.md"),
    _linked("link-root", "", MARKDOWN, ROOT_LLMS_LINK),
    _linked("link-root-html", "", HTML, ROOT_LLMS_LINK, view="index.md"),
    Case("link-page-without-view", "about/", headers={"Accept": HTML}, content_type=HTML,
         header_lacks=(("Link", "describedby"), ("Link", "agentprose-index"))),
    Case("link-not-on-files", "tide-pools.md", content_type=MARKDOWN,
         header_lacks=(("Link", "describedby"),)),
)


def _markdown_404(name: str, path: str, llms: str, *, method: str = "GET",
                  headers: Mapping[str, str] | None = None) -> Case:
    head = method == "HEAD"
    return Case(name, path, method=method, headers=headers or {"Accept": MARKDOWN},
                status=404, markdown_404=True, content_type=MARKDOWN, vary_accept=True,
                header_lacks=(("Content-Type", HTML),),
                body_contains=() if head else (NOT_FOUND_TITLE, f"]({llms})",
                                               "]({base}agentprose.json)"),
                body_lacks=("<html", "Page not found</"), empty_body=head)


NOT_FOUND = (
    _markdown_404("missing-markdown", "no-such-page/", "{base}llms.txt"),
    _markdown_404("missing-markdown-file", "no-such-page.html", "{base}llms.txt"),
    _markdown_404("missing-markdown-section", "tide-pools/no-such-page/",
                  "{base}tide-pools/llms.txt"),
    _markdown_404("missing-markdown-head", "no-such-page/", "{base}llms.txt", method="HEAD"),
    _markdown_404("missing-markdown-preferred", "no-such-page/", "{base}llms.txt",
                  headers={"Accept": "text/markdown, text/html;q=0.8"}),
    Case("missing-browser", "no-such-page/", status=404, content_type=HTML,
         headers={"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"},
         body_contains=("Page not found",)),
    Case("missing-any", "tide-pools/no-such-page/", status=404, content_type=HTML,
         headers={"Accept": "*/*"}, body_contains=("Page not found",)),
)



def _dotted(name: str, path: str) -> tuple[Case, ...]:
    """A hidden file asked for by GET, HEAD and in Markdown: a 404 that shows nothing of it."""
    lacks = (*NO_CONTENT, HIDDEN_SENTINEL)
    return (Case(name, path, status=404, body_contains=("Page not found",), body_lacks=lacks),
            Case(f"{name}-head", path, method="HEAD", status=404, empty_body=True),
            Case(f"{name}-markdown", path, headers={"Accept": MARKDOWN}, status=404,
                 body_lacks=lacks))


HIDDEN = (
    *_dotted("hidden-dotfile", ".env"),
    *_dotted("hidden-folder", ".git/config"),
    *_dotted("hidden-encoded", "%2egit/config"),
    *_dotted("hidden-encoded-upper", "%2Egit/%2Eenv"),
    *_dotted("hidden-nested", "sub/.hidden/page.html"),
    *_dotted("hidden-nested-folder", "sub/.hidden/"),
    *_dotted("hidden-in-well-known", ".well-known/.secret"),
    *_dotted("hidden-in-well-known-encoded", ".well-known/%2esecret"),
    *_dotted("hidden-well-known-below-top", "sub/.well-known/x"),
    Case("well-known", ".well-known/security.txt",
         body_contains=("Contact: mailto:security@coast.example",)),
    Case("well-known-head", ".well-known/security.txt", method="HEAD", empty_body=True),
    Case("well-known-markdown", ".well-known/security.txt", headers={"Accept": MARKDOWN},
         body_contains=("Contact:",)),
)
"""Hidden files (``.git/``, ``.env``) answer 404 however the dot is spelt, but for the
site's top-level ``.well-known`` folder (RFC 8615), whose own dotfiles stay hidden."""

CASES: tuple[Case, ...] = (NEGOTIATION + FOLDER_VIEWS + REPRESENTATIONS + CONDITIONAL
                           + TRAVERSAL + LINKS + NOT_FOUND + HIDDEN)

# --- agent detection --------------------------------------------------------------------

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
CHROME = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/131.0.0.0 Safari/537.36")


@dataclass(frozen=True)
class Profile:
    """A real client's request headers and the representation of a page it must get."""

    name: str
    headers: Mapping[str, str]
    markdown_off: bool
    """Markdown with agent detection off (by its ``Accept`` alone)."""
    markdown_on: bool
    """Markdown with agent detection on."""


PROFILES = (
    Profile("claude-code", {"Accept": "text/markdown, text/html, */*",
                            "User-Agent": "claude-code/2.0.14 (external, cli)"}, True, True),
    Profile("claude-ai", {"Accept": "*/*", "User-Agent": (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; "
        "+Claude-User@anthropic.com)")}, False, True),
    Profile("chatgpt-codex", {"Accept": BROWSER_ACCEPT, "User-Agent": (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; "
        "+https://openai.com/bot")}, False, True),
    Profile("perplexity-user", {"Accept": "*/*", "User-Agent": (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; "
        "+https://perplexity.ai/perplexity-user)")}, False, True),
    Profile("signature-agent", {"Accept": BROWSER_ACCEPT, "User-Agent": CHROME,
                                "Signature-Agent": '"https://chatgpt.com"'}, False, True),
    Profile("browser", {"Accept": BROWSER_ACCEPT, "User-Agent": CHROME}, False, False),
    Profile("googlebot", {"Accept": BROWSER_ACCEPT, "User-Agent": (
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")},
        False, False),
    Profile("bingbot", {"Accept": "*/*", "User-Agent": (
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; "
        "+http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36")},
        False, False),
    Profile("curl", {"Accept": "*/*", "User-Agent": "curl/8.5.0"}, False, False),
    # Decisions: a crawler never counts as an agent, even naming one or signing as one;
    # one that asks for Markdown itself gets it, as anyone does.
    Profile("crawler-naming-an-agent", {"Accept": "*/*", "User-Agent": (
        "Mozilla/5.0 (compatible; Googlebot/2.1; ChatGPT-User/1.0)"),
        "Signature-Agent": '"https://chatgpt.com"'}, False, False),
    Profile("crawler-asking-markdown", {"Accept": MARKDOWN, "User-Agent": (
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)")},
        True, True),
)
"""Real request profiles: Claude Code, claude.ai, Codex and ChatGPT, Perplexity, a signed
ChatGPT agent with a browser's User-Agent, a browser, search crawlers, curl."""


def _profile_cases(profile: Profile, detect: bool) -> list[Case]:
    """GET, HEAD and a revalidation of a page, and a missing page, for one profile."""
    markdown = profile.markdown_on if detect else profile.markdown_off
    vary = tuple(VARY_AGENTS.split(", ")) if detect else ("Accept",)
    kind, body = (MARKDOWN, TIDE_TITLE) if markdown else (HTML, "<html")
    name = f"{profile.name}-{'on' if detect else 'off'}"
    headers = dict(profile.headers)
    missing = (_markdown_404(f"{name}-missing", "no-such-page/", "{base}llms.txt",
                             headers=headers) if markdown else
               Case(f"{name}-missing", "no-such-page/", headers=headers, status=404,
                    content_type=HTML, body_contains=("Page not found",)))
    return [
        Case(name, "tide-pools/", headers=headers, content_type=kind, vary=vary,
             present=("ETag", "Last-Modified"), body_contains=(body,)),
        Case(f"{name}-head", "tide-pools/", method="HEAD", headers=headers, content_type=kind,
             vary=vary, present=("ETag", "Last-Modified"), empty_body=True, like_get=True),
        Case(f"{name}-304", "tide-pools/", headers={**headers, "If-None-Match": "{etag}"},
             status=304, vary=vary, present=("ETag",), empty_body=True),
        missing,
    ]


def agent_cases(detect: bool) -> list[Case]:
    """The profiles' cases for a server with agent detection on (``detect``) or off."""
    return [case for profile in PROFILES for case in _profile_cases(profile, detect)]


SUBPATH_CASES = (
    Case("outside-base-page", "/tide-pools/", headers={"Accept": MARKDOWN}, status=404,
         body_lacks=(TIDE_TITLE,)),
    Case("outside-base-view", "/tide-pools.md", status=404, body_lacks=(TIDE_TITLE,)),
    Case("outside-base-root", "/llms.txt", status=404, body_lacks=("# Coast Guide",)),
)


def cases_for(base_url: str) -> list[Case]:
    """The table for a site served at ``base_url``; a sub-path adds the outside-URL cases."""
    return [*CASES, *(SUBPATH_CASES if urlsplit(base_url).path.strip("/") else ())]


def build_fixture_site(target: Path, base_url: str) -> Path:
    """The example site, built for ``base_url`` into ``target`` (which must not exist).

    ``about/`` is excluded (a page without a view); ``tide-pools/`` has an ``llms.txt`` of
    its own (:data:`LLMS_SCOPES`); ``changes.html`` and ``changes/`` are a page and a
    folder of one name (:data:`FIXTURE_PAGES`); ``field-guide/`` has its view where
    Sphinx's html builder puts it (:data:`NAMED_FOLDER`); ``../outside.txt`` and a symlink
    ``leak.txt`` pointing to it must never be served, nor the :data:`HIDDEN_FILES` but
    ``.well-known/security.txt`` (written after the build, as a build copies them).
    """
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("README.md"))
    for relative, (title, text) in FIXTURE_PAGES.items():
        _write(target / relative, _page(title, text))
    build_site(target, base_url=base_url, settings=Settings(exclude=(EXCLUDED,)))
    (target / SECTION / "llms.txt").write_text(SECTION_LLMS, encoding="utf-8")
    _write_named_folder(target, base_url)
    outside = target.parent / "outside.txt"
    outside.write_text(SENTINEL + "\n", encoding="utf-8")
    (target / "leak.txt").symlink_to(outside)
    for relative, text in HIDDEN_FILES.items():
        _write(target / relative, text)
    # A minute old: Apache makes the ETag of a file changed within the last second weak,
    # so a GET and a HEAD either side of that second would disagree.
    past = time.time() - 60
    for path in target.rglob("*"):
        if path.is_file() and not path.is_symlink():
            os.utime(path, (past, past))
    return target


def _page(title: str, text: str) -> str:
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title} | Coast Guide</title>\n</head>\n<body>\n<main>\n<article>\n"
            f"<h1>{title}</h1>\n<p>{text}</p>\n</article>\n</main>\n</body>\n</html>\n")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _write_named_folder(site: Path, base_url: str) -> None:
    """The page and view a Sphinx html build writes for ``field-guide/index.html``: the
    page's URL names its file, so its view is ``field-guide/index.md`` (agentprose build
    gives every folder's page the URL of its folder)."""
    url = base_url.rstrip("/") + "/" + NAMED_FOLDER + "index.html"
    _write(site / NAMED_FOLDER / "index.html",
           _page("The field guide", "What lives where along the coast."))
    _write(site / NAMED_FOLDER / "index.md",
           f'---\n{NAMED_TITLE}\ncanonical: "{url}"\n---\n\n# The field guide\n\n'
           "What lives where along the coast.\n")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


@dataclass(frozen=True)
class _Answer:
    status: int
    headers: Mapping[str, str]  # lower-case names; repeated headers joined with ", "
    body: bytes


def _fetch(url: str, method: str, headers: Mapping[str, str], timeout: float) -> _Answer:
    request = urllib.request.Request(url, method=method, headers=dict(headers))
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return _answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        with error:
            return _answer(error.code, error.headers, error.read())


def _answer(status: int, message: Any, body: bytes) -> _Answer:
    headers: dict[str, str] = {}
    for name, value in message.items():
        key = name.lower()
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    return _Answer(status, headers, body)


def _url(base_url: str, path: str) -> str:
    if path.startswith("/"):
        parts = urlsplit(base_url)
        return f"{parts.scheme}://{parts.netloc}{path}"
    return base_url.rstrip("/") + "/" + path if path else base_url


def _fill(case: Case, base_url: str, timeout: float) -> dict[str, str]:
    """The case's headers with ``{etag}`` and ``{last_modified}`` learnt from a first GET."""
    if not any("{" in v for v in case.headers.values()):
        return dict(case.headers)
    prime = case.prime if case.prime is not None else {
        k: v for k, v in case.headers.items() if not k.lower().startswith("if-")}
    first = _fetch(_url(base_url, case.path), "GET", prime, timeout)
    etag, modified = first.headers.get("etag", ""), first.headers.get("last-modified", "")
    return {k: v.replace("{etag}", etag).replace("{last_modified}", modified)
            for k, v in case.headers.items()}


def _varies_on_accept(value: str | None) -> bool:
    return any(t.strip().lower() in ("accept", "*") for t in (value or "").split(","))


def _vary_members(value: str | None) -> set[str]:
    return {t.strip().lower() for t in (value or "").split(",") if t.strip()}


def _with_base(case: Case, base: str) -> Case:
    """The case with ``{base}`` in its expected headers and body text filled in."""
    def fill(items: tuple[Any, ...]) -> tuple[Any, ...]:
        return tuple(tuple(x.replace("{base}", base) for x in item) if isinstance(item, tuple)
                     else item.replace("{base}", base) for item in items)

    return replace(case, header_contains=fill(case.header_contains),
                   header_lacks=fill(case.header_lacks), body_contains=fill(case.body_contains),
                   body_lacks=fill(case.body_lacks))


def _check(case: Case, got: _Answer) -> list[str]:
    problems = []
    wanted = (case.status,) if isinstance(case.status, int) else case.status
    if wanted is not None and got.status not in wanted:
        problems.append(f"status {got.status}, wanted {case.status}")
    content_type = got.headers.get("content-type", "")
    if case.content_type and not content_type.lower().startswith(case.content_type):
        problems.append(f"Content-Type {content_type!r}, wanted {case.content_type}…")
    vary = _varies_on_accept(got.headers.get("vary"))
    if case.vary_accept is not None and vary != case.vary_accept:
        state = "listed" if vary else "missing"
        problems.append(f"Vary {got.headers.get('vary')!r}: Accept {state}")
    if case.vary is not None and _vary_members(got.headers.get("vary")) != \
            {v.lower() for v in case.vary}:
        problems.append(f"Vary {got.headers.get('vary')!r}, wanted {', '.join(case.vary)}")
    problems += [f"no {h} header" for h in case.present if h.lower() not in got.headers]
    problems += [f"unexpected {h} header" for h in case.absent if h.lower() in got.headers]
    for name, part in case.header_contains:
        value = got.headers.get(name.lower(), "")
        if part.lower() not in value.lower():
            problems.append(f"{name} {value!r} lacks {part!r}")
    for name, part in case.header_lacks:
        value = got.headers.get(name.lower(), "")
        if part.lower() in value.lower():
            problems.append(f"{name} {value!r} holds {part!r}")
    text = got.body.decode("utf-8", "replace")
    problems += [f"body lacks {s!r}" for s in case.body_contains if s not in text]
    problems += [f"body holds {s!r}" for s in case.body_lacks if s in text]
    if case.empty_body and got.body:
        problems.append(f"a body of {len(got.body)} bytes")
    return problems


def check_answer(case: Case, base: str, status: int, headers: Mapping[str, str],
                 body: bytes) -> list[str]:
    """What is wrong with an answer to ``case`` got some other way than over HTTP (an edge
    function run under Node), for a site under the URL path ``base``; the checks that take
    a second request are left out."""
    lowered = {name.lower(): value for name, value in headers.items()}
    return _check(_with_base(case, base), _Answer(status, lowered, body))


def _compare(case: Case, got: _Answer, base_url: str, timeout: float) -> list[str]:
    """The checks that need a second request: HEAD against GET, ETags of two representations."""
    problems = []
    url = _url(base_url, case.path)
    if case.like_get:
        full = _fetch(url, "GET", case.headers, timeout)
        problems += [f"{name} {got.headers.get(name)!r} differs from GET's "
                     f"{full.headers.get(name)!r}"
                     for name in ("content-type", "etag", "content-length")
                     if got.headers.get(name) != full.headers.get(name)]
        if got.headers.get("content-length") != str(len(full.body)):
            problems.append(f"Content-Length is not the GET body's {len(full.body)}")
    if case.etag_differs_with is not None:
        other = _fetch(url, "GET", case.etag_differs_with, timeout)
        if not got.headers.get("etag") or got.headers.get("etag") == other.headers.get("etag"):
            problems.append(f"ETag {got.headers.get('etag')!r} not distinct from "
                            f"{other.headers.get('etag')!r}")
    return problems


def run_cases(base_url: str, cases: list[Case] | tuple[Case, ...], *,
              timeout: float = 5.0) -> list[str]:
    """Run every case against the server at ``base_url``; one message per failed check."""
    failures = []
    base = urlsplit(base_url).path or "/"
    for case in (_with_base(c, base) for c in cases):
        try:
            headers = _fill(case, base_url, timeout)
            got = _fetch(_url(base_url, case.path), case.method, headers, timeout)
            problems = _check(case, got) + _compare(case, got, base_url, timeout)
        except OSError as error:
            problems = [f"request failed: {error}"]
        failures += [f"{case.name} ({case.method} {case.path or '/'}): {p}" for p in problems]
    return failures
