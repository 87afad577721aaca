"""Apache: the ``.htaccess`` and the ``VirtualHost`` that serve agent views as
``agentprose serve`` does (:mod:`.servers` says what every server does)."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from agentprose_core.agents import (
    VARY_AGENTS,
    agent_pattern,
    crawler_pattern,
    link_header,
    signature_pattern,
)
from agentprose_core.hosting.accept import pcre_patterns, regex_escape
from agentprose_core.hosting.common import (
    base_of,
    folder_of,
    hidden_regex,
    root_of,
    views_of,
)
from agentprose_core.hosting.links import link_rules
from agentprose_core.sitepaths import SAFE

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["apache_config", "apache_htaccess"]

_REDIRECTED = "REDIRECT_AGENTPROSE_VIEW"  # Apache renames it across the internal redirect

def _apache_page(rule: str, filename: str, test: str, view: str, *, first: bool) -> list[str]:
    """Remember the view of one kind of page URL when it exists (``AGENTPROSE_VIEW``).

    ``filename`` captures the page's file path for ``test``, the view's file path;
    ``view`` is its URL path below the base, from ``rule``'s captures.
    """
    unset = [] if first else ["RewriteCond %{ENV:AGENTPROSE_VIEW} ^$"]
    return [
        *unset,
        f"RewriteCond %{{REQUEST_FILENAME}} {filename}",
        f"RewriteCond {test} -f",
        f"RewriteRule {rule} - [E=AGENTPROSE_VIEW:{view}]",
    ]


def _apache_quote(text: str) -> str:
    """``text`` inside a double-quoted argument of ``Header`` (read like most directives'
    arguments, where a backslash escapes a quote or a backslash)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _rewrite_pattern(pattern: str) -> str:
    """A ``RewriteCond`` pattern: quoted, or bare when it holds a quote (``mod_rewrite``
    reads its arguments itself and has no escape for a quote, only for a space)."""
    if any(c.isspace() for c in pattern):
        raise ValueError(f"a pattern with a space: {pattern!r}")
    return pattern if '"' in pattern else f'"{pattern}"'


def _apache_scopes(base: str, scopes: Iterable[str]) -> list[str]:
    """``AGENTPROSE_LLMS``: the llms.txt of the longest folder that holds the page (each
    rule overrides the one before, so the longest comes last)."""
    lines = ["# The llms.txt that covers the page: the longest folder wins."]
    for rule in reversed(link_rules(base, scopes, index=False)[:-1]):
        folder = regex_escape((rule.prefix or base)[len(base):])
        # mod_rewrite reads % as a back-reference and a comma as the end of a flag.
        url = (rule.describedby or "").replace(",", "%2C").replace("%", "\\%")
        lines += ["RewriteCond %{ENV:AGENTPROSE_VIEW} .",
                  f"RewriteRule ^{folder} - [E=AGENTPROSE_LLMS:{url}]"]
    return lines


def _apache_agents() -> list[str]:
    """``AGENTPROSE_AGENT``: a known agent fetcher, and not a crawler."""
    return [
        "# A known agent fetcher (not a crawler) gets the view whatever it accepts. NV: the",
        "# Vary of page URLs is set below, and other answers do not depend on these headers.",
        f"RewriteCond %{{HTTP:Signature-Agent}} {_rewrite_pattern(signature_pattern())} [NC,NV,OR]",
        f"RewriteCond %{{HTTP_USER_AGENT}} {_rewrite_pattern(agent_pattern())} [NC,NV]",
        f"RewriteCond %{{HTTP_USER_AGENT}} {_rewrite_pattern('!' + crawler_pattern())} [NC,NV]",
        "RewriteRule ^ - [E=AGENTPROSE_AGENT:1]",
    ]


def _apache_headers(base: str, index: bool, agents: bool) -> list[str]:
    """``Vary`` and ``Link`` of a page's HTML (``AGENTPROSE_VIEW``) and of its view, sent
    after the internal redirect (where Apache renames the variables ``REDIRECT_...``)."""
    view = link_header(view=base + "%{AGENTPROSE_VIEW}e")
    index_link = link_header(index=quote(base + "agentprose.json", safe=SAFE)).replace("%", "%%")
    lines = []
    for env in ("AGENTPROSE_VIEW", _REDIRECTED):
        lines.append(f'Header always merge Vary Accept "env={env}"')
        if agents:  # the headers the choice reads besides Accept, one merge each
            lines += [f'Header always merge Vary {name} "env={env}"'
                      for name in VARY_AGENTS.split(", ")[1:]]
        if env == _REDIRECTED:
            lines.append(f'Header always set Content-Location "{base}%{{{env}}}e" "env={env}"')
        else:
            lines.append(f'Header set Link "{_apache_quote(view)}" "env={env}"')
        llms = env.replace("VIEW", "LLMS")
        described = _apache_quote(link_header(describedby=f"%{{{llms}}}e"))
        lines.append(f'Header append Link "{described}" "env={llms}"')
        if index:
            lines.append(f'Header append Link "{_apache_quote(index_link)}" "env={env}"')
    return lines


def apache_htaccess(*, base_path: str = "/", view_layout: str = "sibling",
                    llms_scopes: Iterable[str] = ("",), index: bool = True,
                    detect_agents: bool = False) -> str:
    """The ``.htaccess`` for the built site's root folder (``host: apache`` writes it).

    Needs ``mod_mime``, ``mod_dir``, ``mod_rewrite`` and ``mod_headers``, and from the
    server configuration (:func:`apache_config`) ``AllowOverride FileInfo Indexes`` and
    ``Options SymLinksIfOwnerMatch``, which ``mod_rewrite`` requires.

    No Markdown ``404``: ``ErrorDocument`` takes a file or a one-line message sent as
    HTML, so it would need a Markdown file written into the site.
    """
    base, views = base_of(base_path, spaces=False), views_of(view_layout)
    on_root, directory, file = views.render("%1", "%2")
    _, directory_url, file_url = views.render("$1", "$2")
    accept = [f'RewriteCond %{{HTTP:Accept}} "{p}" [NC,OR]' for p in pcre_patterns()]
    if detect_agents:
        accept.append("RewriteCond %{ENV:AGENTPROSE_AGENT} =1")
    else:
        accept[-1] = accept[-1].replace("[NC,OR]", "[NC]")
    lines = [
        "# agentprose: serve each page's agent view to clients that ask for Markdown.",
        "# Generated by agentprose.",
        "AddType text/markdown .md",
        "AddCharset utf-8 .md .html .htm .txt .json .css .js .xml",
        "DirectoryIndex index.html index.htm",
        f"ErrorDocument 404 {base}404.html",
        "",
        "RewriteEngine On",
        f"RewriteBase {base}",
        "# Hidden files (.git/, .env) are missing pages, before any rule can answer a view;",
        "# the path is decoded (%2e too) and relative to this folder.",
        f'RewriteRule "{hidden_regex("")}" - [R=404,L]',
        "# Never follow a symbolic link out of the site.",
        "RewriteCond %{REQUEST_FILENAME} -l",
        "RewriteRule ^ - [R=404,L]",
        "# A page URL whose view exists: remember the view (the first that exists).",
        *_apache_page(r"^(?:index\.html?)?$", r"^(.*/)(?:index\.html?)?$", "%1" + on_root,
                      on_root, first=True),
        *(line for test, url in zip(directory, directory_url, strict=True)
          for line in _apache_page(r"^(.+)/(?:index\.html?)?$", r"^(.+?)/(?:index\.html?)?$",
                                   test, url, first=False)),
        *_apache_page(r"^(.+)(\.html?)$", r"^(.+)(\.html?)$", file, file_url, first=False),
        *_apache_scopes(base, llms_scopes),
        *(_apache_agents() if detect_agents else ()),
        "# Send the view instead when the client prefers Markdown.",
        "RewriteCond %{ENV:AGENTPROSE_VIEW} .",
        *accept,
        "RewriteRule ^ %{ENV:AGENTPROSE_VIEW} [L]",
        "",
        *_apache_headers(base, index, detect_agents),
    ]
    return "\n".join(lines) + "\n"


def apache_config(site_root: str, *, base_path: str = "/") -> str:
    """The lines of the server (or virtual host) configuration that the ``.htaccess`` needs."""
    root, base = root_of(site_root), base_of(base_path, spaces=False)
    mapping = f'DocumentRoot "{folder_of(root)}"' if base == "/" else f'Alias "{base}" "{root}"'
    return "\n".join([
        "# agentprose: let the site's .htaccess negotiate (mod_rewrite, mod_headers, mod_mime).",
        mapping,
        f'<Directory "{folder_of(root)}">',
        "    Options SymLinksIfOwnerMatch",
        "    AllowOverride FileInfo Indexes",
        "    Require all granted",
        "    # Hidden files (.git/, .env) are missing pages, also where the .htaccess is not",
        "    # read; in <Directory>, so that the site's ErrorDocument answers them.",
        f'    RedirectMatch 404 "{hidden_regex(regex_escape(base))}"',
        "</Directory>",
    ]) + "\n"
