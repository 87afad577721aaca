"""The extension's ``agentprose_*`` config values, made from the core ``options()``."""

from __future__ import annotations

import inspect
import os
from types import NoneType
from typing import TYPE_CHECKING, Any, Literal

from sphinx.errors import ConfigError
from sphinx.util import logging

from agentprose_core.errors import AgentproseError
from agentprose_core.lang import normalize_lang
from agentprose_core.languages import languages_from_setting
from agentprose_core.location import READ_THE_DOCS_URL, SiteLocation, site_location
from agentprose_core.settings import (
    Settings,
    options,
    settings_from_mapping,
    unknown_option_hint,
)

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

    from agentprose_core.languages import SiteLanguages

__all__ = [
    "PREFIX", "add_config_values", "build_lang", "canonical_links_from_the_host",
    "checked_languages", "checked_location",
    "checked_settings", "location", "misspelled_names", "outputs_left_out_of_sources",
    "settings_of",
]

PREFIX = "agentprose_"
logger = logging.getLogger(__name__)
_BASE_URL_HELP = (
    "The site's URL, for absolute canonical links; when unset, html_baseurl or "
    "Read the Docs' canonical URL."
)
# Options that change how the outputs are made, never their bytes: turning one on or
# off must not make Sphinx write every page again.
_SAME_OUTPUTS = frozenset({"workers", "cache"})


def add_config_values(app: Sphinx) -> None:
    """Register ``agentprose_<option>`` for every core option, and the base URL, with
    the core's help as their description where Sphinx takes one (7.4 and later)."""
    described = "description" in inspect.signature(app.add_config_value).parameters
    for option in options():
        rebuild: Literal["", "html"] = "" if option.name in _SAME_OUTPUTS else "html"
        help_ = {"description": option.help} if described else {}
        app.add_config_value(PREFIX + option.name, option.written_default, rebuild,
                             types=option.kinds, **help_)
    help_ = {"description": _BASE_URL_HELP} if described else {}
    app.add_config_value(PREFIX + "base_url", None, "html", types=(str, NoneType), **help_)


def settings_of(config: Config) -> Settings:
    """The core ``Settings`` from ``conf.py``; raises Sphinx's ``ConfigError`` if bad."""
    values = {option.name: getattr(config, PREFIX + option.name) for option in options()}
    try:
        return settings_from_mapping(values)
    except AgentproseError as error:
        raise ConfigError(f"{error} (set as {PREFIX}<option> in conf.py)") from error


def checked_settings(app: Sphinx) -> Settings | None:
    """:func:`settings_of`, or None after one error line that says what to change, the
    build then ending with a non-zero status (Sphinx 9 reports an exception raised here
    as a crash, with a traceback and a request to report it to Sphinx). The ``quiet``
    codes join ``suppress_warnings``, which Sphinx applies to every warning."""
    config = app.config
    try:
        settings = settings_of(config)
    except ConfigError as error:
        _config_error(app, str(error) + " agentprose writes nothing until this is fixed.")
        return None
    wanted = [f"agentprose.{code}" for code in settings.quiet]
    config.suppress_warnings = [*config.suppress_warnings,
                                *(w for w in wanted if w not in config.suppress_warnings)]
    return settings


def build_lang(config: Config, where: SiteLocation) -> str | None:
    """The site's language: conf.py's, else the host's (Read the Docs')."""
    return normalize_lang(config.language or "") or where.lang


def checked_languages(app: Sphinx, settings: Settings,
                      where: SiteLocation) -> SiteLanguages | None:
    """The site's languages from ``agentprose_languages``, when it is built once per
    language; None without (or after an error line that says what to change)."""
    try:
        return languages_from_setting(settings.languages, build_lang(app.config, where),
                                      where.base_url)
    except AgentproseError as error:
        _config_error(app, f"{error} (set as {PREFIX}languages in conf.py)")
        return None


def checked_location(app: Sphinx) -> SiteLocation | None:
    """:func:`location`, or None after one error line that says what to change (and a
    non-zero status for the build)."""
    try:
        return location(app.config)
    except ConfigError as error:
        _config_error(app, str(error) + " agentprose writes nothing until it is set.")
        return None


def _config_error(app: Sphinx, message: str) -> None:
    """One error line, and the build fails: ``sphinx-build`` exits with status 1 once
    it is done ("build finished with problems"), with or without ``-W``."""
    logger.error(message, type="agentprose", subtype="config", once=True)
    app.statuscode = 1


def outputs_left_out_of_sources(app: Sphinx) -> list[str]:
    """Keep the build's own folders out of the sources: an output folder inside the
    source folder that no ``exclude_patterns`` covers (MyST reads ``.md``, and some
    projects read ``.txt``) would have the next build read our views and ``llms.txt``
    as documents. Adds the folders to ``exclude_patterns`` (at ``config-inited``,
    before Sphinx compares the config with the last build's); returns those added."""
    from pathlib import Path

    from sphinx.util.matching import Matcher

    source = Path(app.srcdir).resolve()
    excluded = Matcher(app.config.exclude_patterns)
    added = []
    for folder in (app.outdir, app.doctreedir):
        try:
            relative = Path(folder).resolve().relative_to(source)
        except ValueError:
            continue  # outside the sources: nothing to do
        parts = relative.parts
        prefixes = ["/".join(parts[: end + 1]) for end in range(len(parts))]
        if parts and not any(excluded(prefix) for prefix in prefixes):
            added.append(relative.as_posix())
    if added:
        app.config.exclude_patterns = [*app.config.exclude_patterns, *added]
    return added


def misspelled_names(config: Config) -> list[str]:
    """A warning for each ``agentprose_*`` name in conf.py that is no option, with the
    option it most likely meant: Sphinx itself ignores unknown names there."""
    known = [option.name for option in options()] + ["base_url"]
    raw: dict[str, Any] = getattr(config, "_raw_config", {})
    found = []
    for name in sorted(n for n in raw if n.startswith(PREFIX) and n[len(PREFIX):] not in known):
        hint = unknown_option_hint(name, prefix=PREFIX, also=["base_url"])
        found.append(f"conf.py sets '{name}', which is no agentprose option: {hint}")
    return found


def location(config: Config) -> SiteLocation:
    """Where the site is served: Read the Docs' URL of the version it builds, else
    ``agentprose_base_url``, else ``html_baseurl`` (the project's URL, if another, is
    then the canonical base)."""
    found = getattr(config, PREFIX + "base_url", None) or config.html_baseurl or None
    if found is not None and not isinstance(found, str):
        raise ConfigError(f"html_baseurl (or agentprose_base_url) must be text, not {found!r}.")
    try:
        return site_location(found, os.environ)
    except AgentproseError as error:
        if found or os.environ.get(READ_THE_DOCS_URL):
            raise ConfigError(f"{error} Fix html_baseurl or agentprose_base_url in conf.py.") \
                from error
        raise ConfigError(
            "agentprose needs the site's URL for absolute canonical links: set html_baseurl "
            "(or agentprose_base_url) in conf.py, e.g. html_baseurl = 'https://example.com/docs/'."
        ) from error


def canonical_links_from_the_host(config: Config) -> bool:
    """On Read the Docs with no URL in conf.py: ``html_baseurl`` set to the URL of the
    version built, so that Sphinx writes each page's canonical link (the one its view
    names). True when it was set."""
    if config.html_baseurl or getattr(config, PREFIX + "base_url", None):
        return False
    hosted = os.environ.get(READ_THE_DOCS_URL, "").strip()
    if not hosted:
        return False
    config.html_baseurl = hosted
    return True
