"""What every server configuration shares: where a page's view may be, the site root
and base path as a configuration may quote them, the hidden-file pattern."""

from __future__ import annotations

from dataclasses import dataclass

from agentprose_core.errors import ConfigError, InputError
from agentprose_core.hosting.links import UNSAFE
from agentprose_core.settings import VIEW_LAYOUTS
from agentprose_core.sitepaths import WELL_KNOWN, normalize_base_path

__all__ = [
    "LAYOUTS", "Views", "base_of", "checked", "folder_of", "hidden_regex", "root_of",
    "template_views", "views_of",
]


@dataclass(frozen=True)
class Views:
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


LAYOUTS = {
    # A folder's view named after its index.html first: a build puts it there when the
    # sibling {page}.md is another page's, so {page}.md would answer the wrong page.
    "sibling": Views("index.md", ("{page}/index.md", "{page}.md"), "{page}.md"),
    "directory": Views("index.md", ("{page}/index.md",), "{page}.md"),
    "index-html": Views("index.html.md", ("{page}/index.html.md",), "{page}{ext}.md"),
}


def views_of(layout: str) -> Views:
    """The view URLs of ``layout``; a :class:`ConfigError` for an unknown one."""
    if layout not in VIEW_LAYOUTS:
        raise ConfigError(f"view_layout must be one of {', '.join(VIEW_LAYOUTS)} (got {layout!r}).")
    return LAYOUTS[layout]


def checked(text: str, what: str) -> str:
    """``text`` unchanged, or an error when it holds characters no config can quote."""
    if not text or UNSAFE & set(text):
        raise InputError(f"The {what} {text!r} cannot go into a server configuration: "
                         'it is empty or holds one of " $ \\ { } ; ` or a control character.')
    return text


def base_of(base_path: str, *, spaces: bool = True) -> str:
    """The checked base path; ``spaces=False`` for servers whose syntax can't hold one."""
    base = checked(normalize_base_path(base_path), "base path")
    if not spaces and any(c.isspace() for c in base):
        raise InputError(f"The base path {base!r} holds a space, which this server's "
                         "configuration cannot take: publish the site under a path without one.")
    return base


def root_of(site_root: str) -> str:
    """The site directory with one trailing slash."""
    return checked(site_root, "site root").rstrip("/") + "/"


def hidden_regex(prefix: str) -> str:
    """A PCRE matching a decoded URL path (after ``prefix``, a regex) that names a hidden
    file, as :func:`agentprose_core.sitepaths.hidden` has them: a segment that starts
    with a dot, but for a top-level ``.well-known`` folder (RFC 8615 files are public)."""
    return f"^{prefix}(?:\\.(?!{WELL_KNOWN[1:]}(?:/|$))|.*/\\.)"


def folder_of(root: str) -> str:
    """The site directory without its trailing slash (``/`` stays ``/``)."""
    return root[:-1] or "/"


def template_views(view_layout: str) -> tuple[str, tuple[str, ...], str]:
    """:func:`views_of` with ``${page}`` and ``${ext}``, as JavaScript's template literals
    write them (the edge functions; Vercel's routes replace them again)."""
    views = views_of(view_layout)

    def literal(template: str) -> str:
        return template.replace("{", "${")

    return views.root, tuple(literal(folder) for folder in views.directory), literal(views.file)
