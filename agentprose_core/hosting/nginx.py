"""nginx: the ``server`` block that serves agent views as ``agentprose serve`` does
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
from agentprose_core.hosting.accept import pcre_patterns, regex_escape
from agentprose_core.hosting.common import (
    Views,
    base_of,
    checked,
    hidden_regex,
    root_of,
    views_of,
)
from agentprose_core.hosting.links import LinkRule, link_rules

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["nginx_config"]

_NGINX_CHARSET_TYPES = ("    charset_types text/markdown text/plain text/css text/xml "
                        "application/json application/javascript;")

def _nginx_map() -> str:
    lines = ["map $http_accept $agentprose_markdown {", "    default 0;"]
    lines += [f'    "~*{pattern}" 1;' for pattern in pcre_patterns()]
    return "\n".join(lines) + "\n}\n"


def _nginx_string(text: str) -> str:
    """``text`` inside an nginx double-quoted string (which reads ``\\n`` as a newline)."""
    return text.replace('"', '\\"').replace("\n", "\\n")


def _nginx_page(regex: str, views: tuple[str, ...], root: str, base: str,
                agents: bool) -> list[str]:
    """A regex location for one kind of page URL; ``views`` are where its view may be,
    relative to the site, the first that exists winning."""
    link = _nginx_string(link_header(view="$agentprose_location")) + "$agentprose_tail"
    vary = f'"{VARY_AGENTS}"' if agents else "Accept"
    # nginx's if has no else: each existing file overwrites the last, so the first comes last.
    found = [f'            if (-f "{root}{view}") {{ set $agentprose_view "{view}"; }}'
             for view in reversed(views)]
    return [
        f'        location ~ "{regex}" {{',
        *found,
        '            if ($agentprose_view != "") {',
        f'                set $agentprose_location "{base}$agentprose_view";',
        f"                set $agentprose_vary {vary};",
        f'                set $agentprose_link "{link}";',
        "                set $agentprose_md_link $agentprose_links;",
        f"                set $agentprose_serve {_nginx_wants(agents)};",
        "            }",
        '            if ($agentprose_serve = 1) { rewrite ^ "$agentprose_location" last; }',
        "            add_header Vary $agentprose_vary;",
        "            add_header Link $agentprose_link;",
        "        }",
    ]


def _nginx_locations(root: str, base: str, views: Views, agents: bool) -> list[str]:
    prefix = "^" + regex_escape(base)
    on_root, directory, file = views.render("${agentprose_page}", "${agentprose_ext}")
    return [
        *_nginx_page(prefix + r"(?:index\.html?)?$", (on_root,), root, base, agents),
        *_nginx_page(prefix + r"(?<agentprose_page>.+)/(?:index\.html?)?$", directory, root,
                     base, agents),
        *_nginx_page(prefix + r"(?<agentprose_page>.+)(?<agentprose_ext>\.html?)$", (file,),
                     root, base, agents),
        r'        location ~ "\.md$" {',
        "            types { }",
        "            default_type text/markdown;",
        "            add_header Vary $agentprose_vary;",
        "            add_header Content-Location $agentprose_location;",
        "            add_header Link $agentprose_md_link;",
        "        }",
    ]


def _nginx_wants(agents: bool) -> str:
    """The variable that is 1 when a request gets Markdown."""
    return "$agentprose_wants" if agents else "$agentprose_markdown"


def _nginx_agents() -> list[str]:
    """``$agentprose_wants``: the Accept rules' answer, or 1 for a known agent fetcher
    (a crawler's User-Agent puts the Accept rules' answer back)."""
    def test(header: str, pattern: str, value: str) -> str:
        return (f'    if ($http_{header} ~* "{_nginx_string(pattern)}") '
                f"{{ set $agentprose_wants {value}; }}")

    return [
        "    set $agentprose_wants $agentprose_markdown;",
        test("signature_agent", signature_pattern(), "1"),
        test("user_agent", agent_pattern(), "1"),
        test("user_agent", crawler_pattern(), "$agentprose_markdown"),
    ]


def _nginx_links(base: str, scopes: Iterable[str], index: bool) -> list[str]:
    """Per folder with an llms.txt, the page links and the Markdown 404's body; the
    longest folder that ``$uri`` starts with wins, so its ``if`` comes last."""
    def assign(rule: LinkRule) -> list[str]:
        tail = ", " + rule.links if rule.links else ""
        return [f'set $agentprose_links "{_nginx_string(rule.links)}";',
                f'set $agentprose_tail "{_nginx_string(tail)}";',
                f'set $agentprose_404_body "{_nginx_string(rule.not_found)}";']

    *scoped, fallback = link_rules(base, scopes, index=index)
    lines = ["    " + line for line in assign(fallback)]
    for rule in reversed(scoped):
        prefix = "^" + regex_escape(rule.prefix or "")
        lines += [f'    if ($uri ~ "{prefix}") {{',
                  *("        " + line for line in assign(rule)), "    }"]
    return lines


def _nginx_not_found(base: str, agents: bool) -> tuple[list[str], list[str]]:
    """The Markdown 404, as a named location that ``error_page`` goes to (a variable)."""
    vary = f'"{VARY_AGENTS}"' if agents else "Accept"
    return [
        f'    set $agentprose_not_found "{base}404.html";',
        f"    if ({_nginx_wants(agents)} = 1) {{ set $agentprose_not_found @agentprose_404; }}",
    ], [
        "    location @agentprose_404 {",
        "        types { }",
        "        default_type text/markdown;",
        f"        add_header Vary {vary} always;",
        "        return 404 $agentprose_404_body;",
        "    }",
    ]


def nginx_config(site_root: str, *, base_path: str = "/", server_name: str = "_",
                 listen: str = "8080", view_layout: str = "sibling",
                 llms_scopes: Iterable[str] = ("",), index: bool = True,
                 detect_agents: bool = False) -> str:
    """A ``map`` and a ``server`` block for nginx, both for the ``http {}`` context.

    Save the text as ``/etc/nginx/conf.d/agentprose.conf`` (Debian and the official
    packages include that folder inside ``http {}``). Two sites on one nginx share the
    ``map``: keep it once. ``site_root`` is the built site's folder on the server;
    ``llms_scopes`` the site's folders that hold an ``llms.txt`` (``""``: the root),
    ``index`` whether it has ``agentprose.json``.
    """
    root, base = root_of(site_root), base_of(base_path)
    name, port = checked(server_name, "server name"), checked(listen, "listen address")
    set_not_found, not_found_location = _nginx_not_found(base, detect_agents)
    lines = [
        "# agentprose: serve each page's agent view to clients that ask for Markdown.",
        "# Generated by agentprose; the map goes once per http {}.",
        _nginx_map(),
        "server {",
        f"    listen {port};",
        f"    server_name {name};",
        "    charset utf-8;",
        _NGINX_CHARSET_TYPES,
        "    if_modified_since before;",
        "    absolute_redirect off;",
        '    set $agentprose_vary "";',
        '    set $agentprose_link "";',
        '    set $agentprose_location "";',
        '    set $agentprose_view "";',
        "    set $agentprose_serve 0;",
        '    set $agentprose_md_link "";',
        *_nginx_links(base, llms_scopes, index),
        *(_nginx_agents() if detect_agents else ()),
        *set_not_found,
    ]
    if base != "/":
        lines += [f'    location = "{base[:-1]}" {{ return 301 "{base}"; }}',
                  "    location / { return 404; }"]
    lines += [
        f'    location ^~ "{base}" {{',
        f'        alias "{root}";',
        "        disable_symlinks on from=$document_root;",
        "        index index.html index.htm;",
        "        error_page 404 $agentprose_not_found;",
        "        # Hidden files (.git/, .env) are missing pages; the first regex location, so",
        "        # no page rule answers one's view. nginx matches the decoded path (%2e too).",
        f'        location ~ "{hidden_regex(regex_escape(base))}" {{ return 404; }}',
        *_nginx_locations(root, base, views_of(view_layout), detect_agents),
        "    }",
        *not_found_location,
        "}",
    ]
    return "\n".join(lines) + "\n"
