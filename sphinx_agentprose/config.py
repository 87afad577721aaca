"""The extension's ``agentprose_*`` config values, made from the core ``options()``."""

from __future__ import annotations

import difflib
import inspect
import os
from types import NoneType
from typing import TYPE_CHECKING, Any, Literal

from sphinx.errors import ConfigError
from sphinx.util import logging

from agentprose_core.errors import AgentproseError
from agentprose_core.settings import Settings, options, settings_from_mapping
from agentprose_core.urls import base_url_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = [
    "PREFIX", "add_config_values", "base_url", "checked_base_url", "checked_settings",
    "misspelled_names", "settings_of",
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


def checked_settings(config: Config) -> Settings | None:
    """:func:`settings_of`, or None after one error line that says what to change:
    Sphinx 9 reports an exception raised here as a crash, with a traceback. The
    ``quiet`` codes join ``suppress_warnings``, which Sphinx applies to every warning."""
    try:
        settings = settings_of(config)
    except ConfigError as error:
        _config_error(str(error) + " agentprose writes nothing until this is fixed.")
        return None
    wanted = [f"agentprose.{code}" for code in settings.quiet]
    config.suppress_warnings = [*config.suppress_warnings,
                                *(w for w in wanted if w not in config.suppress_warnings)]
    return settings


def checked_base_url(config: Config) -> str | None:
    """:func:`base_url`, or None after one error line that says what to change."""
    try:
        return base_url(config)
    except ConfigError as error:
        _config_error(str(error) + " agentprose writes nothing until it is set.")
        return None


def _config_error(message: str) -> None:
    logger.error(message, type="agentprose", subtype="config", once=True)


def misspelled_names(config: Config) -> list[str]:
    """A warning for each ``agentprose_*`` name in conf.py that is no option, with the
    option it most likely meant: Sphinx itself ignores unknown names there."""
    known = [option.name for option in options()] + ["base_url"]
    raw: dict[str, Any] = getattr(config, "_raw_config", {})
    found = []
    for name in sorted(n for n in raw if n.startswith(PREFIX) and n[len(PREFIX):] not in known):
        # compared without the prefix, which every name shares
        close = difflib.get_close_matches(name[len(PREFIX):], known, n=1, cutoff=0.6)
        hint = f"did you mean '{PREFIX}{close[0]}'?" if close else \
            f"the options are: {', '.join(PREFIX + k for k in sorted(known))}."
        found.append(f"conf.py sets '{name}', which is no agentprose option: {hint}")
    return found


def base_url(config: Config) -> str:
    """``agentprose_base_url``, else ``html_baseurl``, else Read the Docs' canonical URL."""
    found = (
        getattr(config, PREFIX + "base_url", None)
        or config.html_baseurl
        or os.environ.get("READTHEDOCS_CANONICAL_URL")
    )
    if not found:
        raise ConfigError(
            "agentprose needs the site's URL for absolute canonical links: set html_baseurl "
            "(or agentprose_base_url) in conf.py, e.g. html_baseurl = 'https://example.com/docs/'."
        )
    if not isinstance(found, str):
        raise ConfigError(f"html_baseurl (or agentprose_base_url) must be text, not {found!r}.")
    try:
        return base_url_of(found)
    except AgentproseError as error:
        raise ConfigError(f"{error} Fix html_baseurl or agentprose_base_url in conf.py.") from error
