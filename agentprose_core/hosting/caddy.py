"""Caddy: the ``Caddyfile`` site that serves agent views as ``agentprose serve`` does
(:mod:`.servers` says what every server does)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.agents import (
    VARY_AGENTS,
    agent_pattern,
    crawler_pattern,
    link_header,
    signature_pattern,
)
from agentprose_core.hosting.accept import ACCEPT_RULES, regex_escape
from agentprose_core.hosting.common import (
    Views,
    base_of,
    checked,
    folder_of,
    root_of,
    views_of,
)
from agentprose_core.hosting.links import LinkRule, link_rules
from agentprose_core.sitepaths import WELL_KNOWN

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["caddy_config"]

def _cel_accept() -> str:
    """The Accept rules as one CEL expression for Caddy's ``expression`` matcher."""
    def term(pattern: str) -> str:
        return f"{{header.Accept}}.matches(r'(?i){pattern}')"

    terms = [" && ".join([*(term(p) for p in rule.present),
                          *("!" + term(p) for p in rule.absent)])
             for rule in ACCEPT_RULES]
    return " ||\n\t\t".join(f"({t})" for t in terms)


def _cel_agents() -> str:
    """A known agent fetcher, as CEL: a listed User-Agent or Signature-Agent, no crawler."""
    def term(header: str, pattern: str) -> str:
        return f"{{header.{header}}}.matches(r'(?i){pattern}')"

    return (f"(!{term('User-Agent', crawler_pattern())} &&\n\t\t"
            f"({term('User-Agent', agent_pattern())} ||\n\t\t"
            f"{term('Signature-Agent', signature_pattern())}))")


def _caddy_quote(text: str) -> str:
    """``text`` as a double-quoted Caddyfile token (it may span lines)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _caddy_links(base: str, scopes: Iterable[str], index: bool) -> list[str]:
    """``{agentprose_links}`` (a view's ``Link``) and ``{agentprose_tail}`` (what follows
    the view in the HTML's), from the longest folder with an llms.txt the path is in."""
    *scoped, fallback = link_rules(base, scopes, index=index)

    def values(rule: LinkRule) -> str:
        tail = ", " + rule.links if rule.links else ""
        return f"{_caddy_quote(rule.links)} {_caddy_quote(tail)}"

    return [
        "map {http.request.orig_uri.path} {agentprose_links} {agentprose_tail} {",
        *(f"\t{_caddy_quote('~^' + regex_escape(rule.prefix or ''))} {values(rule)}"
          for rule in scoped),
        f"\tdefault {values(fallback)}",
        "}",
    ]


def _caddy_view_link(base: str, scopes: Iterable[str], index: bool) -> list[str]:
    """The Markdown answer's ``Link``, when it can be empty only under a matcher (Caddy
    would send an empty header)."""
    rules = link_rules(base, scopes, index=index)
    if any(rule.prefix == base for rule in rules):
        rules = rules[:-1]  # the site's root covers every path the site answers
    if all(rule.links for rule in rules):
        return ['\theader Link "{agentprose_links}"']
    return ['\t@agentprose_linked expression `{agentprose_links} != ""`',
            '\theader @agentprose_linked Link "{agentprose_links}"']


def _caddy_not_found(base: str, scopes: Iterable[str], index: bool, vary: str) -> list[str]:
    """``handle_errors`` routes for the Markdown 404, the longest folder first."""
    rules = link_rules(base, scopes, index=index)
    if any(rule.prefix == base for rule in rules):
        rules = rules[:-1]  # the site's root covers every path the site answers
    lines = []
    for number, rule in enumerate(rules):
        under = (f' && {{http.request.orig_uri.path}}.startsWith("{rule.prefix}")'
                 if rule.prefix else "")
        lines += [
            f"\t\t@agentprose_markdown_404_{number} {{",
            "\t\t\tvars agentprose_wants 1",
            f"\t\t\texpression `{{err.status_code}} == 404{under}`",
            "\t\t}",
            f"\t\thandle @agentprose_markdown_404_{number} {{",
            '\t\t\theader Content-Type "text/markdown; charset=utf-8"',
            f'\t\t\theader Vary "{vary}"',
            f"\t\t\trespond {_caddy_quote(rule.not_found)} 404",
            "\t\t}",
        ]
    return lines


def caddy_config(site_root: str, *, base_path: str = "/", address: str = ":8080",
                 view_layout: str = "sibling", llms_scopes: Iterable[str] = ("",),
                 index: bool = True, detect_agents: bool = False) -> str:
    """A Caddyfile site block (Caddy 2.6 or later)."""
    root, base = root_of(site_root), base_of(base_path)
    site = checked(address, "site address")
    outputs, files = _caddy_views(views_of(view_layout))
    # The file matcher sets {file_match.relative} to the first of its files that exists.
    link = _caddy_quote(link_header(view=base[:-1] + "{file_match.relative}")
                        + "{agentprose_tail}")
    wants = _cel_accept() + (" ||\n\t\t" + _cel_agents() if detect_agents else "")
    vary = VARY_AGENTS if detect_agents else "Accept"
    inner = [
        f'root * "{folder_of(root)}"',
        *outputs,
        *_caddy_links(base, llms_scopes, index),
        f"@agentprose_view file {files}",
        "@agentprose_wants expression `" + wants + "`",
        "vars @agentprose_wants agentprose_wants 1",
        "@agentprose_markdown {",
        f"\tfile {files}",
        "\tvars agentprose_wants 1",
        "}",
        f'header @agentprose_view Vary "{vary}"',
        "header *.md Content-Type \"text/markdown; charset=utf-8\"",
        *_CADDY_HIDDEN,
        "handle @agentprose_markdown {",
        f'\theader Content-Location "{base[:-1]}{{file_match.relative}}"',
        '\theader Content-Type "text/markdown; charset=utf-8"',
        *_caddy_view_link(base, llms_scopes, index),
        "\trewrite * {file_match.relative}",
        "\tfile_server",
        "}",
        "@agentprose_unsafe path_regexp [\\x00-\\x1f\\x7f]",
        "handle {",
        f"\theader @agentprose_view Link {link}",
        "\terror @agentprose_unsafe 400",
        "\tfile_server",
        "}",
    ]
    return _caddy_site(site, base, root, inner,
                       _caddy_not_found(base, llms_scopes, index, vary))


# Hidden files (.git/, .env) are missing pages, before the view's handle. The path is
# decoded (%2e too) and below the base; RE2 has no lookahead, so the top-level
# .well-known folder is let through by a second pattern.
_CADDY_HIDDEN = [
    "@agentprose_hidden {",
    "\tpath_regexp ^/(?:.*/)?\\.",
    f"\tnot path_regexp ^/\\{WELL_KNOWN}(?:/[^./][^/]*)*/?$",
    "}",
    "handle @agentprose_hidden {",
    "\terror 404",
    "}",
]


def _caddy_views(views: Views) -> tuple[list[str], str]:
    """The ``map`` from a path to where its view may be (one placeholder per candidate,
    a kind of URL with fewer repeating its last), and the ``file`` matcher's list."""
    on_root, directory, file = views.render("${1}", "${2}")
    names = ["{agentprose_view}", *(f"{{agentprose_view_{n}}}"
                                   for n in range(2, len(directory) + 1))]

    def row(*candidates: str) -> str:
        padded = [*candidates, *candidates[-1:] * (len(names) - len(candidates))]
        return " ".join(c if c.startswith("/") else "/" + c for c in padded)

    lines = [
        f"map {{path}} {' '.join(names)} {{",
        f"\t~^/(?:index\\.html?)?$ {row(on_root)}",
        f"\t~^/(.+)/(?:index\\.html?)?$ {row(*directory)}",
        f"\t~^/(.+)(\\.html?)$ {row(file)}",
        f"\tdefault {row('/.agentprose-no-view')}",
        "}",
    ]
    return lines, " ".join(names)


def _caddy_site(site: str, base: str, root: str, inner: list[str],
                not_found: list[str]) -> str:
    indent = "\t\t" if base != "/" else "\t"
    body = [indent + line for text in inner for line in text.split("\n")]
    lines = [
        "# agentprose: serve each page's agent view to clients that ask for Markdown.",
        "# Generated by agentprose.",
        f"{site} {{",
    ]
    if base == "/":
        lines += body
    else:
        lines += [f'\tredir "{base[:-1]}" "{base}" 301', f'\thandle_path "{base}*" {{', *body,
                  "\t}", "\thandle {", "\t\trespond 404", "\t}"]
    lines += [
        "\thandle_errors {",
        *not_found,
        "\t\t@agentprose_404 expression {err.status_code} == 404",
        "\t\thandle @agentprose_404 {",
        f'\t\t\troot * "{folder_of(root)}"',
        "\t\t\trewrite * /404.html",
        "\t\t\tfile_server",
        "\t\t}",
        "\t}",
        "}",
    ]
    return "\n".join(lines) + "\n"
