"""Where a build's pages are served, and what the hosting says about them.

A build's views, index and ``llms.txt`` name the URLs where this build's files are
served: a page's view belongs to the version and language it was built in. The
canonical URL a page is cited by may be another (a project that names one version's
URL as canonical for all): the project's own URL names it. Read the Docs says where a
version is served (``READTHEDOCS_CANONICAL_URL``), which version it is
(``READTHEDOCS_VERSION_NAME``) and its language (``READTHEDOCS_LANGUAGE``); mike
deploys each version in a folder of its own (:func:`version_location`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import quote

from agentprose_core.errors import InputError
from agentprose_core.lang import normalize_lang
from agentprose_core.urls import base_url_of

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["READ_THE_DOCS_URL", "SiteLocation", "site_location", "version_location"]

READ_THE_DOCS_URL = "READTHEDOCS_CANONICAL_URL"
"""The variable Read the Docs sets to the URL of the version it builds."""


@dataclass(frozen=True)
class SiteLocation:
    """``base_url``: where this build's files are served; ``canonical_base``: the base
    its pages are cited by when that is another (None: the same); ``version`` and
    ``lang``: what the hosting names (None outside a versioned host)."""

    base_url: str
    canonical_base: str | None = None
    version: str | None = None
    lang: str | None = None

    def canonical_of(self, url: str) -> str | None:
        """The URL a page served at ``url`` is cited by, when it is not ``url``."""
        if self.canonical_base is None or not url.startswith(self.base_url):
            return None
        return self.canonical_base + url[len(self.base_url):]


def site_location(project_url: str | None, environ: Mapping[str, str]) -> SiteLocation:
    """Where the build's files are served: Read the Docs' URL of the version it builds
    when the environment names one (the project's own URL, if another, is then the
    canonical base), else ``project_url``. Raises :class:`InputError` when neither is
    given or one is no absolute http(s) URL; the message names the variable."""
    hosted = environ.get(READ_THE_DOCS_URL, "").strip()
    if not hosted:
        if not project_url:
            raise InputError("agentprose needs the site's URL for absolute canonical links.")
        return SiteLocation(base_url_of(project_url))
    try:
        base = base_url_of(hosted)
    except InputError as error:
        raise InputError(f"{READ_THE_DOCS_URL}: {error}") from error
    own = base_url_of(project_url) if project_url else None
    version = environ.get("READTHEDOCS_VERSION_NAME") or environ.get("READTHEDOCS_VERSION")
    lang = normalize_lang(environ.get("READTHEDOCS_LANGUAGE", "")) or None
    return SiteLocation(base, own if own != base else None, version or None, lang)


def version_location(project_url: str, version: str, *,
                     canonical_version: str | None = None) -> SiteLocation:
    """Where one version of a site deployed one folder per version (mike) is served:
    under ``project_url``, in the folder named ``version``; ``canonical_version`` (mike's
    option of that name) names the folder the pages are cited in, when another.
    Raises :class:`InputError` for a URL or a version no folder can be made of."""
    base = base_url_of(project_url)
    folder = _folder(version)
    canonical = _folder(canonical_version) if canonical_version else folder
    return SiteLocation(base + folder, base + canonical if canonical != folder else None,
                        version)


def _folder(version: str) -> str:
    """The folder of a version, as mike names it (the version itself), with a slash."""
    name = version.strip().strip("/")
    if not name or name in (".", "..") or "/" in name:
        raise InputError(f"{version!r} is not a version a folder can be named after.")
    return quote(name) + "/"
