"""Host configuration that serves agent views the way ``agentprose serve`` does.

Each function returns text to paste or to write into the built site; nothing here touches
the disk. Every server gets the same behaviour, as far as it can express it:

- a page URL (``/a/``, ``/a/index.html``, ``/a.html``, the root) answers its agent view
  when the ``Accept`` rules of :mod:`.accept` pick Markdown and the view exists,
  with ``Vary: Accept``; otherwise the HTML, with ``Vary: Accept`` and a
  ``Link: <view>; rel="alternate"; type="text/markdown"`` header when a view exists, and
  neither when it does not (a page left out of the build);
- ``.md`` files are ``text/markdown; charset=utf-8``, text files are UTF-8;
- the site's ``404.html`` answers a missing page; symbolic links are not followed out of
  the site where the server can refuse them;
- under a sub-path (``/docs/``) nothing outside it is served;
- both answers of a page URL with a view carry ``Link`` to the ``llms.txt`` of the
  longest folder in ``llms_scopes`` that holds the page (``rel="describedby"``) and, with
  ``index``, to ``agentprose.json`` (:mod:`.links`);
- with ``detect_agents``, a request from a known agent fetcher (the patterns of
  :mod:`agentprose_core.agents`) gets the view whatever its ``Accept``, and page URLs
  answer with ``Vary: Accept, User-Agent, Signature-Agent``;
- a missing page asked for in Markdown (or by a detected agent) answers a short Markdown
  ``404`` on nginx (a named location's ``return``) and Caddy (``respond`` in
  ``handle_errors``). Apache cannot: ``ErrorDocument`` takes a file or a one-line
  message sent as HTML, so it would take a Markdown file written into the site.

The view of a page follows the ``view_layout`` setting (``sibling``: ``/a/`` ->
``/a/index.md`` or ``/a.md``; ``directory``: ``/a/index.md``; ``index-html``:
``/a/index.html.md``). In the sibling layout a folder's URL (``/a/``, ``/a/index.html``)
cannot tell which its build wrote: ``/a/index.md`` when the page's URL named its file
(Sphinx's html builder, or a folder whose ``/a.md`` is the page ``/a.html``'s), ``/a.md``
when it was the folder (MkDocs). Every server tries ``/a/index.md`` first, then ``/a.md``,
as ``agentprose serve`` does, and names the one it found in ``Link`` and
``Content-Location``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote

from agentprose_core.agents import (
    VARY_AGENTS,
    agent_pattern,
    crawler_pattern,
    link_header,
    signature_pattern,
)
from agentprose_core.errors import ConfigError, InputError
from agentprose_core.hosting.accept import ACCEPT_RULES, pcre_patterns, regex_escape
from agentprose_core.hosting.edge import cloudflare_headers, netlify_headers
from agentprose_core.hosting.links import UNSAFE, LinkRule, link_rules
from agentprose_core.serve.paths import SAFE, WELL_KNOWN, normalize_base_path
from agentprose_core.settings import HOSTS as SETTINGS_HOSTS
from agentprose_core.settings import VIEW_LAYOUTS

__all__ = [
    "HOSTS",
    "apache_config",
    "apache_htaccess",
    "caddy_config",
    "host_files",
    "nginx_config",
]

HOSTS = SETTINGS_HOSTS  # declared with the settings; repeated here for readers
"""Values of the ``host`` setting: whose configuration file the build writes."""

_REDIRECTED = "REDIRECT_AGENTPROSE_VIEW"  # Apache renames it across the internal redirect
_NGINX_CHARSET_TYPES = ("    charset_types text/markdown text/plain text/css text/xml "
                        "application/json application/javascript;")


@dataclass(frozen=True)
class _Views:
    """Where a page's view may be, for the three kinds of page URL, as templates; a
    folder's in the order to try them (the first that exists wins).

    ``{page}`` is the URL path below the base without the trailing ``/``, ``/index.html``
    or ``.html``; ``{ext}`` is ``.html`` or ``.htm``.
    """

    root: str
    directory: tuple[str, ...]
    file: str

    def render(self, page: str, ext: str) -> tuple[str, tuple[str, ...], str]:
        """The templates with ``page`` and ``ext`` filled in (server syntax)."""
        return (self.root, tuple(d.format(page=page, ext=ext) for d in self.directory),
                self.file.format(page=page, ext=ext))


_LAYOUTS = {
    # A folder's view named after its index.html first: a build puts it there when the
    # sibling {page}.md is another page's, so {page}.md would answer the wrong page.
    "sibling": _Views("index.md", ("{page}/index.md", "{page}.md"), "{page}.md"),
    "directory": _Views("index.md", ("{page}/index.md",), "{page}.md"),
    "index-html": _Views("index.html.md", ("{page}/index.html.md",), "{page}{ext}.md"),
}


def _views(layout: str) -> _Views:
    if layout not in VIEW_LAYOUTS:
        raise ConfigError(f"view_layout must be one of {', '.join(VIEW_LAYOUTS)} (got {layout!r}).")
    return _LAYOUTS[layout]


def _checked(text: str, what: str) -> str:
    """``text`` unchanged, or an error when it holds characters no config can quote."""
    if not text or UNSAFE & set(text):
        raise InputError(f"The {what} {text!r} cannot go into a server configuration: "
                         'it is empty or holds one of " $ \\ { } ; ` or a control character.')
    return text


def _base(base_path: str, *, spaces: bool = True) -> str:
    base = _checked(normalize_base_path(base_path), "base path")
    if not spaces and any(c.isspace() for c in base):
        raise InputError(f"The base path {base!r} holds a space, which this server's "
                         "configuration cannot take: publish the site under a path without one.")
    return base


def _root(site_root: str) -> str:
    """The site directory with one trailing slash."""
    return _checked(site_root, "site root").rstrip("/") + "/"


def _hidden_regex(prefix: str) -> str:
    """A PCRE matching a decoded URL path (after ``prefix``, a regex) that names a hidden
    file, as :func:`agentprose_core.serve.paths.hidden` has them: a segment that starts
    with a dot, but for a top-level ``.well-known`` folder (RFC 8615 files are public)."""
    return f"^{prefix}(?:\\.(?!{WELL_KNOWN[1:]}(?:/|$))|.*/\\.)"


def _folder(root: str) -> str:
    """The site directory without its trailing slash (``/`` stays ``/``)."""
    return root[:-1] or "/"


# --- nginx ------------------------------------------------------------------------------

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


def _nginx_locations(root: str, base: str, views: _Views, agents: bool) -> list[str]:
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
    root, base = _root(site_root), _base(base_path)
    name, port = _checked(server_name, "server name"), _checked(listen, "listen address")
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
        f'        location ~ "{_hidden_regex(regex_escape(base))}" {{ return 404; }}',
        *_nginx_locations(root, base, _views(view_layout), detect_agents),
        "    }",
        *not_found_location,
        "}",
    ]
    return "\n".join(lines) + "\n"


# --- Apache -----------------------------------------------------------------------------

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
    base, views = _base(base_path, spaces=False), _views(view_layout)
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
        f'RewriteRule "{_hidden_regex("")}" - [R=404,L]',
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
    root, base = _root(site_root), _base(base_path, spaces=False)
    mapping = f'DocumentRoot "{_folder(root)}"' if base == "/" else f'Alias "{base}" "{root}"'
    return "\n".join([
        "# agentprose: let the site's .htaccess negotiate (mod_rewrite, mod_headers, mod_mime).",
        mapping,
        f'<Directory "{_folder(root)}">',
        "    Options SymLinksIfOwnerMatch",
        "    AllowOverride FileInfo Indexes",
        "    Require all granted",
        "    # Hidden files (.git/, .env) are missing pages, also where the .htaccess is not",
        "    # read; in <Directory>, so that the site's ErrorDocument answers them.",
        f'    RedirectMatch 404 "{_hidden_regex(regex_escape(base))}"',
        "</Directory>",
    ]) + "\n"


# --- Caddy ------------------------------------------------------------------------------

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
    root, base = _root(site_root), _base(base_path)
    site = _checked(address, "site address")
    outputs, files = _caddy_views(_views(view_layout))
    # The file matcher sets {file_match.relative} to the first of its files that exists.
    link = _caddy_quote(link_header(view=base[:-1] + "{file_match.relative}")
                        + "{agentprose_tail}")
    wants = _cel_accept() + (" ||\n\t\t" + _cel_agents() if detect_agents else "")
    vary = VARY_AGENTS if detect_agents else "Accept"
    inner = [
        f'root * "{_folder(root)}"',
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


def _caddy_views(views: _Views) -> tuple[list[str], str]:
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
        f'\t\t\troot * "{_folder(root)}"',
        "\t\t\trewrite * /404.html",
        "\t\t\tfile_server",
        "\t\t}",
        "\t}",
        "}",
    ]
    return "\n".join(lines) + "\n"


# --- the host setting ---------------------------------------------------------------------

def host_files(host: str, *, base_path: str = "/", view_layout: str = "sibling",
               views: Iterable[str] = (), llms_scopes: Iterable[str] = ("",),
               index: bool = True, detect_agents: bool = False) -> dict[str, str]:
    """The files the ``host`` setting writes into the built site: path -> content.

    ``views`` are the site-relative paths of the agent views the build wrote
    (``tide-pools.md``); Netlify needs them listed (its ``_headers`` has no ``*.md``).
    ``llms_scopes`` are the folders it wrote an ``llms.txt`` into (``""``: the root),
    ``index`` whether it wrote ``agentprose.json``; ``detect_agents`` is the setting.
    The ``_headers`` files cannot tell agents apart: detection needs the edge functions.
    """
    scopes = tuple(llms_scopes)
    if host == "netlify":
        return {"_headers": netlify_headers(views, base_path=base_path, llms_scopes=scopes,
                                            index=index)}
    if host == "cloudflare":
        return {"_headers": cloudflare_headers(base_path=base_path, llms_scopes=scopes,
                                               index=index)}
    if host == "apache":
        return {".htaccess": apache_htaccess(base_path=base_path, view_layout=view_layout,
                                             llms_scopes=scopes, index=index,
                                             detect_agents=detect_agents)}
    if host == "none":
        return {}
    raise ConfigError(f"host must be one of {', '.join(HOSTS)} (got {host!r}).")
