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

from typing import TYPE_CHECKING

from agentprose_core.errors import ConfigError
from agentprose_core.hosting.apache import apache_config, apache_htaccess
from agentprose_core.hosting.caddy import caddy_config
from agentprose_core.hosting.edge import cloudflare_headers, netlify_headers
from agentprose_core.hosting.nginx import nginx_config
from agentprose_core.settings import HOSTS as SETTINGS_HOSTS

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

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


def host_files(host: str, *, base_path: str = "/", view_layout: str = "sibling",
               views: Iterable[str] = (), llms_scopes: Iterable[str] = ("",),
               index: bool = True, detect_agents: bool = False,
               tokens: Mapping[str, int] | None = None) -> dict[str, str]:
    """The files the ``host`` setting writes into the built site: path -> content.

    ``views`` are the site-relative paths of the agent views the build wrote
    (``tide-pools.md``); Netlify needs them listed (its ``_headers`` has no ``*.md``).
    ``llms_scopes`` are the folders it wrote an ``llms.txt`` into (``""``: the root),
    ``index`` whether it wrote ``agentprose.json``; ``detect_agents`` is the setting;
    ``tokens`` the views' estimated tokens, which Netlify's per-view rules send.
    The ``_headers`` files cannot tell agents apart: detection needs the edge functions.
    """
    scopes = tuple(llms_scopes)
    if host == "netlify":
        return {"_headers": netlify_headers(views, base_path=base_path, llms_scopes=scopes,
                                            index=index, tokens=tokens)}
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
