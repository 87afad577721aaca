"""Host configuration that serves agent views the way ``agentprose serve`` does.

Each function returns text to paste or to write into the built site; nothing here touches
the disk. Every server gets the same behaviour, as far as it can express it:

- a page URL (``/a/``, ``/a/index.html``, ``/a.html``, the root) answers its agent view
  when the ``Accept`` rules of :mod:`.hosting_accept` pick Markdown and the view exists,
  with ``Vary: Accept``; otherwise the HTML, with ``Vary: Accept`` and a
  ``Link: <view>; rel="alternate"; type="text/markdown"`` header when a view exists, and
  neither when it does not (a page left out of the build);
- ``.md`` files are ``text/markdown; charset=utf-8``, text files are UTF-8;
- the site's ``404.html`` answers a missing page; symbolic links are not followed out of
  the site where the server can refuse them;
- under a sub-path (``/docs/``) nothing outside it is served.

The view of a page follows the ``view_layout`` setting (``sibling``: ``/a/`` ->
``/a.md``; ``directory``: ``/a/index.md``; ``index-html``: ``/a/index.html.md``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from agentprose_core.errors import ConfigError, InputError
from agentprose_core.hosting.accept import ACCEPT_RULES, pcre_patterns, regex_escape
from agentprose_core.hosting.edge import cloudflare_headers, netlify_headers
from agentprose_core.serve.paths import normalize_base_path
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

_LINK = '<{url}>; rel="alternate"; type="text/markdown"'
_REDIRECTED = "REDIRECT_AGENTPROSE_VIEW"  # Apache renames it across the internal redirect
_NGINX_CHARSET_TYPES = ("    charset_types text/markdown text/plain text/css text/xml "
                        "application/json application/javascript;")
_UNSAFE = set('"$\\{};`') | {chr(c) for c in range(32)} | {"\x7f"}


@dataclass(frozen=True)
class _Views:
    """Where a page's view is, for the three kinds of page URL, as templates.

    ``{page}`` is the URL path below the base without the trailing ``/``, ``/index.html``
    or ``.html``; ``{ext}`` is ``.html`` or ``.htm``.
    """

    root: str
    directory: str
    file: str

    def render(self, page: str, ext: str) -> tuple[str, str, str]:
        """The three templates with ``page`` and ``ext`` filled in (server syntax)."""
        return (self.root, self.directory.format(page=page, ext=ext),
                self.file.format(page=page, ext=ext))


_LAYOUTS = {
    "sibling": _Views("index.md", "{page}.md", "{page}.md"),
    "directory": _Views("index.md", "{page}/index.md", "{page}.md"),
    "index-html": _Views("index.html.md", "{page}/index.html.md", "{page}{ext}.md"),
}


def _views(layout: str) -> _Views:
    if layout not in VIEW_LAYOUTS:
        raise ConfigError(f"view_layout must be one of {', '.join(VIEW_LAYOUTS)} (got {layout!r}).")
    return _LAYOUTS[layout]


def _checked(text: str, what: str) -> str:
    """``text`` unchanged, or an error when it holds characters no config can quote."""
    if not text or _UNSAFE & set(text):
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


def _folder(root: str) -> str:
    """The site directory without its trailing slash (``/`` stays ``/``)."""
    return root[:-1] or "/"


# --- nginx ------------------------------------------------------------------------------

def _nginx_map() -> str:
    lines = ["map $http_accept $agentprose_markdown {", "    default 0;"]
    lines += [f'    "~*{pattern}" 1;' for pattern in pcre_patterns()]
    return "\n".join(lines) + "\n}\n"


def _nginx_page(regex: str, view: str, root: str, base: str) -> list[str]:
    """A regex location for one kind of page URL; ``view`` is relative to the site."""
    link = _LINK.format(url="$agentprose_location").replace('"', '\\"')
    return [
        f'        location ~ "{regex}" {{',
        f'            if (-f "{root}{view}") {{',
        f'                set $agentprose_location "{base}{view}";',
        "                set $agentprose_vary Accept;",
        f'                set $agentprose_link "{link}";',
        "                set $agentprose_serve $agentprose_markdown;",
        "            }",
        f'            if ($agentprose_serve = 1) {{ rewrite ^ "{base}{view}" last; }}',
        "            add_header Vary $agentprose_vary;",
        "            add_header Link $agentprose_link;",
        "        }",
    ]


def _nginx_locations(root: str, base: str, views: _Views) -> list[str]:
    prefix = "^" + regex_escape(base)
    on_root, directory, file = views.render("${agentprose_page}", "${agentprose_ext}")
    return [
        *_nginx_page(prefix + r"(?:index\.html?)?$", on_root, root, base),
        *_nginx_page(prefix + r"(?<agentprose_page>.+)/(?:index\.html?)?$", directory, root,
                     base),
        *_nginx_page(prefix + r"(?<agentprose_page>.+)(?<agentprose_ext>\.html?)$", file,
                     root, base),
        r'        location ~ "\.md$" {',
        "            types { }",
        "            default_type text/markdown;",
        "            add_header Vary $agentprose_vary;",
        "            add_header Content-Location $agentprose_location;",
        "        }",
    ]


def nginx_config(site_root: str, *, base_path: str = "/", server_name: str = "_",
                 listen: str = "8080", view_layout: str = "sibling") -> str:
    """A ``map`` and a ``server`` block for nginx, both for the ``http {}`` context.

    Save the text as ``/etc/nginx/conf.d/agentprose.conf`` (Debian and the official
    packages include that folder inside ``http {}``). Two sites on one nginx share the
    ``map``: keep it once. ``site_root`` is the built site's folder on the server.
    """
    root, base = _root(site_root), _base(base_path)
    name, port = _checked(server_name, "server name"), _checked(listen, "listen address")
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
        "    set $agentprose_serve 0;",
    ]
    if base != "/":
        lines += [f'    location = "{base[:-1]}" {{ return 301 "{base}"; }}',
                  "    location / { return 404; }"]
    lines += [
        f'    location ^~ "{base}" {{',
        f'        alias "{root}";',
        "        disable_symlinks on from=$document_root;",
        "        index index.html index.htm;",
        f'        error_page 404 "{base}404.html";',
        *_nginx_locations(root, base, _views(view_layout)),
        "    }",
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


def apache_htaccess(*, base_path: str = "/", view_layout: str = "sibling") -> str:
    """The ``.htaccess`` for the built site's root folder (``host: apache`` writes it).

    Needs ``mod_mime``, ``mod_dir``, ``mod_rewrite`` and ``mod_headers``, and from the
    server configuration (:func:`apache_config`) ``AllowOverride FileInfo Indexes`` and
    ``Options SymLinksIfOwnerMatch``, which ``mod_rewrite`` requires.
    """
    base, views = _base(base_path, spaces=False), _views(view_layout)
    on_root, directory, file = views.render("%1", "%2")
    _, directory_url, file_url = views.render("$1", "$2")
    link = _LINK.format(url=base + "%{AGENTPROSE_VIEW}e").replace('"', '\\"')
    accept = [f'RewriteCond %{{HTTP:Accept}} "{p}" [NC,OR]' for p in pcre_patterns()]
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
        "# Never follow a symbolic link out of the site.",
        "RewriteCond %{REQUEST_FILENAME} -l",
        "RewriteRule ^ - [R=404,L]",
        "# A page URL whose view exists: remember the view.",
        *_apache_page(r"^(?:index\.html?)?$", r"^(.*/)(?:index\.html?)?$", "%1" + on_root,
                      on_root, first=True),
        *_apache_page(r"^(.+)/(?:index\.html?)?$", r"^(.+?)/(?:index\.html?)?$", directory,
                      directory_url, first=False),
        *_apache_page(r"^(.+)(\.html?)$", r"^(.+)(\.html?)$", file, file_url, first=False),
        "# Send the view instead when the client prefers Markdown.",
        "RewriteCond %{ENV:AGENTPROSE_VIEW} .",
        *accept,
        "RewriteRule ^ %{ENV:AGENTPROSE_VIEW} [L]",
        "",
        'Header always merge Vary Accept "env=AGENTPROSE_VIEW"',
        f'Header set Link "{link}" "env=AGENTPROSE_VIEW"',
        f'Header always merge Vary Accept "env={_REDIRECTED}"',
        f'Header always set Content-Location "{base}%{{{_REDIRECTED}}}e" "env={_REDIRECTED}"',
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


def caddy_config(site_root: str, *, base_path: str = "/", address: str = ":8080",
                 view_layout: str = "sibling") -> str:
    """A Caddyfile site block (Caddy 2.6 or later)."""
    root, base = _root(site_root), _base(base_path)
    site = _checked(address, "site address")
    views = _views(view_layout)
    on_root, directory, file = (f"/{v}" for v in views.render("${1}", "${2}"))
    link = _LINK.format(url=base[:-1] + "{agentprose_view}").replace('"', '\\"')
    inner = [
        f'root * "{_folder(root)}"',
        "map {path} {agentprose_view} {",
        f"\t~^/(?:index\\.html?)?$ {on_root}",
        f"\t~^/(.+)/(?:index\\.html?)?$ {directory}",
        f"\t~^/(.+)(\\.html?)$ {file}",
        "\tdefault /.agentprose-no-view",
        "}",
        "@agentprose_view file {agentprose_view}",
        "@agentprose_markdown {",
        "\tfile {agentprose_view}",
        "\texpression `" + _cel_accept() + "`",
        "}",
        "header @agentprose_view Vary Accept",
        "header *.md Content-Type \"text/markdown; charset=utf-8\"",
        "handle @agentprose_markdown {",
        f'\theader Content-Location "{base[:-1]}{{agentprose_view}}"',
        '\theader Content-Type "text/markdown; charset=utf-8"',
        "\trewrite * {agentprose_view}",
        "\tfile_server",
        "}",
        "@agentprose_unsafe path_regexp [\\x00-\\x1f\\x7f]",
        "handle {",
        f'\theader @agentprose_view Link "{link}"',
        "\terror @agentprose_unsafe 400",
        "\tfile_server",
        "}",
    ]
    return _caddy_site(site, base, root, inner)


def _caddy_site(site: str, base: str, root: str, inner: list[str]) -> str:
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
               views: Iterable[str] = ()) -> dict[str, str]:
    """The files the ``host`` setting writes into the built site: path -> content.

    ``views`` are the site-relative paths of the agent views the build wrote
    (``tide-pools.md``); Netlify needs them listed (its ``_headers`` has no ``*.md``).
    """
    if host == "netlify":
        return {"_headers": netlify_headers(views, base_path=base_path)}
    if host == "cloudflare":
        return {"_headers": cloudflare_headers(base_path=base_path)}
    if host == "apache":
        return {".htaccess": apache_htaccess(base_path=base_path, view_layout=view_layout)}
    if host == "none":
        return {}
    raise ConfigError(f"host must be one of {', '.join(HOSTS)} (got {host!r}).")
