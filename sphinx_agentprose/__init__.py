"""``extensions = ["sphinx_agentprose"]``: agent views, ``agentprose.json``, ``llms.txt``
and discovery links from the normal HTML build (html and dirhtml builders)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentprose_core.version import __version__

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

__all__ = ["setup"]


def _check_config(app: Sphinx, config: Config) -> None:
    from sphinx.util import logging

    from .config import (
        canonical_links_from_the_host,
        checked_settings,
        misspelled_names,
        outputs_left_out_of_sources,
    )

    checked_settings(app)  # first: it adds `quiet` to suppress_warnings (errors: one line)
    if canonical_links_from_the_host(config):
        logging.getLogger(__name__).info(
            "agentprose: html_baseurl set to Read the Docs' URL of this version: %s",
            config.html_baseurl)
    logger = logging.getLogger(__name__)
    for message in misspelled_names(config):
        logger.warning(message, type="agentprose", subtype="config")
    for folder in outputs_left_out_of_sources(app):
        logger.info("agentprose: the build folder %s is inside the source folder: it is left "
                    "out of the sources (add it to exclude_patterns to say so yourself)", folder)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the config values and the event handlers."""
    # Imported here, not with the package: a worker process imports .finish without
    # Sphinx (Sphinx's own import costs 0.1 s there).
    from .audience import add_audience_directives
    from .config import add_config_values
    from .events import (
        build_finished,
        builder_inited,
        doctree_resolved,
        env_get_outdated,
        env_updated,
        html_collect_pages,
        html_page_context,
    )

    add_config_values(app)
    add_audience_directives(app)
    app.connect("config-inited", _check_config)
    app.connect("builder-inited", builder_inited)
    app.connect("env-get-outdated", env_get_outdated)
    app.connect("env-updated", env_updated)
    app.connect("doctree-resolved", doctree_resolved)
    app.connect("html-page-context", html_page_context, priority=900)
    app.connect("html-collect-pages", html_collect_pages, priority=900)  # after others
    app.connect("build-finished", build_finished)
    return {
        "version": __version__,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
