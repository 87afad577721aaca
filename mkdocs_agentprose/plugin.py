"""``plugins: [agentprose]``: hooks that hand each page to the core and write at the end.

Pages are handed to background workers as MkDocs renders them (``on_page_content``)
and their records made in ``on_env``, once every page's front matter is known, so that
a page excluded by its front matter is not linked from any other page's view.
"""

from __future__ import annotations

import mimetypes
import os
import sys
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mkdocs.exceptions import ConfigurationError, PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger

from agentprose_core.audience import hide_agent_only
from agentprose_core.build.assemble import CollectedPage, SiteSources, site_sources
from agentprose_core.build.collect import CollectingBuild
from agentprose_core.build.conflicts import competing_plugins
from agentprose_core.build.pagestore import UnrenderedPage
from agentprose_core.build.release import release_freed_memory
from agentprose_core.diagnostics import Diagnostic, audible
from agentprose_core.errors import AgentproseError, ConfigError, InputError
from agentprose_core.location import (
    READ_THE_DOCS_URL,
    SiteLocation,
    site_location,
    version_location,
)
from agentprose_core.settings import settings_from_mapping
from agentprose_core.version import __version__

from .config import AgentproseConfig
from .i18n import language_served_at, page_languages, site_languages, theme_lang

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page

__all__ = ["AgentprosePlugin"]

log = get_plugin_logger(__name__)

def _log(diagnostics: list[Diagnostic], quiet: tuple[str, ...]) -> None:
    for diagnostic in audible(diagnostics, quiet):
        if diagnostic.severity == "warning":
            log.warning(str(diagnostic))
        else:
            log.info(str(diagnostic))


def _listed(page: Page) -> list[Page]:
    """The pages a generated page lists: a Material blog view's posts, newest first."""
    posts = getattr(page, "posts", None)
    return [post for post in posts if hasattr(post, "url")] if isinstance(posts, list) else []


def _metadata(page: Page) -> dict[str, Any]:
    """The page's front matter, with the names of the authors Material's blog resolved
    from ``.authors.yml`` (the front matter holds their keys)."""
    meta = dict(page.meta)
    authors = getattr(page, "authors", None)
    if isinstance(authors, list) and authors and all(hasattr(a, "name") for a in authors):
        meta["authors"] = [str(author.name) for author in authors]
    return meta


def _handler_paths(config: MkDocsConfig) -> object:
    """mkdocstrings' Python handler's ``paths`` option, as the user wrote it."""
    plugin = config.plugins.get("mkdocstrings")
    handlers = getattr(plugin, "config", {}).get("handlers") or {}
    python = handlers.get("python") if isinstance(handlers, dict) else None
    return python.get("paths") if isinstance(python, dict) else None


def _source_text(page: Page) -> str:
    """The page's source file as written (MkDocs 1.6 keeps it, 1.5 has its path; a page
    generated in memory may have neither)."""
    try:
        if hasattr(page.file, "content_string"):
            text = page.file.content_string
            return text if isinstance(text, str) else ""
        if page.file.abs_src_path:
            return Path(page.file.abs_src_path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError, TypeError):
        pass
    return ""


def _tool() -> str:
    """``properdocs`` when ProperDocs runs us (it aliases the ``mkdocs`` modules)."""
    return sys.modules["mkdocs"].__name__ if "mkdocs" in sys.modules else "mkdocs"


def _generator() -> str:
    return f"agentprose {__version__} ({_tool()})"


def _written_besides_pages(files: Files, config: MkDocsConfig) -> list[str]:
    """What MkDocs writes into the site folder after ``on_env`` (paths under it): the
    files it copies, its templates' outputs, the pages."""
    return [file.dest_uri for file in files] + [*config.theme.static_templates,
                                                 *config.extra_templates]


class AgentprosePlugin(BasePlugin[AgentproseConfig]):  # type: ignore[no-untyped-call]
    """Agent views, ``agentprose.json``, ``llms.txt`` and discovery links for MkDocs."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.build = CollectingBuild()  # one per process: serve's builds share its workers
        self.markdown: dict[str, str] = {}  # each page's Markdown, until its HTML comes
        self.titles_shown = False  # the theme writes a page's title when it has no <h1>

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Say how the builds of this process run."""
        self.build.dirty, self.build.serving = dirty, command == "serve"
        if command == "serve":  # the dev server takes content types from mimetypes
            mimetypes.add_type("text/markdown; charset=utf-8", ".md")

    @event_priority(50)  # before mike, which moves site_url to the version's folder
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """Check the options and start a build."""
        if not self.config.enabled:
            return None
        try:
            settings = settings_from_mapping(dict(self.config))
        except ConfigError as error:
            raise ConfigurationError(str(error)) from error
        location = language_served_at(config, settings, _location(config))
        if not config.site_url:  # Read the Docs': the theme's canonical links agree
            config.site_url = location.base_url
        self.titles_shown = config.theme.name == "material"
        self.markdown = {}
        self.build.configure(settings, location=location, sources=_site_sources(config),
                             cache_dir=_cache_dir(config))
        _log(competing_plugins(config.plugins, settings), settings.quiet)
        return None

    @event_priority(-100)  # after plugins that add pages to the nav (Material's blog: -50)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> None:
        """Plan the build: the nav's order and every page's URL."""
        if not self.config.enabled:
            return
        pages = {file.src_uri: self.build.base_url + (file.page.url if file.page else file.url)
                 for file in files.documentation_pages()}  # "./" -> ""
        self.build.plan([page.file.src_uri for page in nav.pages], pages,
                        docs_dir=Path(config.docs_dir), fallback=_config_dir(config),
                        languages=site_languages(config, self.build.settings,
                                                 self.build.location))

    def on_page_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Keep the page's Markdown: the languages of its code blocks are there."""
        if self.config.enabled:
            self.markdown[page.file.src_uri] = markdown
        return None

    @event_priority(-100)  # after other plugins: API docs, blog, macros are in the HTML
    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """Hand the rendered page to the build; hide its blocks for agents only from
        people."""
        if not self.config.enabled:
            return None
        self.build.collect(self._collect(page, self._shown(html, page)))
        hidden = hide_agent_only(html)
        return hidden if hidden != html else None

    # After mkdocs-autorefs (-50) and mkdocstrings' backlinks (-100) finish the pages'
    # HTML in on_env: the views hold the cross-references readers see.
    @event_priority(-200)
    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> None:
        """Every page is rendered, none written: assemble the site's records."""
        if not self.config.enabled:
            return
        pages = [file for file in files.documentation_pages() if file.page is not None]
        finished = {file.src_uri: self._shown(file.page.content, file.page)
                    for file in pages if file.page is not None and file.page.content is not None}
        lang = theme_lang(config)
        try:
            self.build.assemble(finished, self._unrendered(pages), name=config.site_name,
                                description=config.site_description, lang=lang)
        except AgentproseError as error:
            raise PluginError(f"agentprose: {error}") from error
        finally:
            log.debug("%d pages converted in background processes, %d of them kept",
                      *self.build.in_background)
        self.build.publish_ahead(Path(config.site_dir), generator=_generator(),
                                 others=_written_besides_pages(files, config))
        release_freed_memory()  # the workers' answers as read: MkDocs writes pages next

    def on_post_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        """The page with its head tags, as MkDocs writes it."""
        if not self.config.enabled:
            return None
        kind = "BlogPosting" if type(page).__name__ == "Post" else None  # Material's blog
        return self.build.decorate(page.file.src_uri, output,
                                   written=Path(page.file.abs_dest_path), kind=kind)

    @event_priority(100)  # before search & co. build their indexes: what we free, they get
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        """Write the views and the site files."""
        if not (self.config.enabled and self.build.site and self.build.assembled):
            return
        if self.build.partial:
            log.info(_PARTIAL)
        try:
            published = self.build.publish(Path(config.site_dir), generator=_generator())
        except AgentproseError as error:
            raise PluginError(f"agentprose: {error}") from error
        _log(published.diagnostics, self.build.settings.quiet)
        log.info("%d agent views, %d files written", published.views, published.files)
        release_freed_memory()  # the index builds after us see it free (the build's peak)

    def on_build_error(self, *, error: Exception) -> None:
        """Stop the workers: they may be busy with pages of the failed build."""
        self.build.abandon()

    def on_shutdown(self) -> None:
        """Stop the workers."""
        self.build.close()

    def _shown(self, html: str, page: Page) -> str:
        """The page's content as the theme shows it: Material writes the page's title
        as its ``<h1>`` when the content has none."""
        if not self.titles_shown or "<h1" in html:
            return html
        return f"<h1>{escape(str(page.title or ''))}</h1>\n{html}" if page.title else html

    def _collect(self, page: Page, html: str) -> CollectedPage:
        source = Path(page.file.abs_src_path) if page.file.abs_src_path else None
        base_url = self.build.base_url
        languages = self.build.languages
        lang, translations = page_languages(page, languages, base_url) if languages else (None, ())
        return CollectedPage(
            url=base_url + page.url,
            source=page.file.src_uri,
            content_html=html,
            metadata=_metadata(page),
            lists=tuple(base_url + post.url for post in _listed(page)),
            tool_title=page.title,
            source_file=source,
            included=self.build.included(_source_text(page), source),
            section=_section(page),
            in_nav=page.file.src_uri in self.build.in_nav,
            source_markdown=self.markdown.pop(page.file.src_uri, ""),
            lang=lang, translations=translations,
        )

    def _unrendered(self, files: list[File]) -> list[UnrenderedPage]:
        """The pages a dirty build did not render (none in a full build)."""
        return [UnrenderedPage(file.src_uri, Path(file.abs_dest_path), _section(file.page),
                               file.src_uri in self.build.in_nav)
                for file in files
                if file.page is not None and file.src_uri not in self.build.pages]


_PARTIAL = ("agentprose: a dirty build renders only the pages changed since the last one, "
            "and this process has not seen the others: agentprose.json, llms.txt and "
            "llms-full.txt are left as they were (a build without --dirty writes them).")


def _location(config: MkDocsConfig) -> SiteLocation:
    """Where the site is served: ``site_url``, or Read the Docs' URL of this version;
    under mike, the folder of the version it deploys (mike says which in
    ``MIKE_DOCS_VERSION``; its ``canonical_version`` names the canonical one)."""
    version = os.environ.get("MIKE_DOCS_VERSION")
    mike = config.plugins.get("mike")
    try:
        if version and mike is not None and config.site_url:
            canonical = getattr(mike, "config", {}).get("canonical_version")
            return version_location(config.site_url, version, canonical_version=canonical)
        return site_location(config.site_url, os.environ)
    except InputError as error:
        if config.site_url or os.environ.get(READ_THE_DOCS_URL):
            raise ConfigurationError(f"agentprose: {error} Fix site_url in mkdocs.yml.") \
                from error
        raise ConfigurationError(
            "agentprose needs 'site_url' in mkdocs.yml (e.g. site_url: "
            "https://example.com/docs/): agent views cite absolute canonical URLs."
        ) from error


def _section(page: Page) -> tuple[str, ...]:
    # Sections only: Material's blog makes a post's parent its blog's index page.
    ancestors = [item.title for item in reversed(list(page.ancestors))
                 if getattr(item, "is_section", False)]
    return tuple(str(title) for title in ancestors if title)


def _config_dir(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path or ".").parent


def _cache_dir(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).parent / ".cache" / "agentprose"


def _site_sources(config: MkDocsConfig) -> SiteSources:
    """Where the pages find their snippets and includes, and the code they document."""
    snippets = config.mdx_configs.get("pymdownx.snippets") or {}
    return site_sources(
        Path(config.docs_dir), config_dir=_config_dir(config),
        snippets_base=snippets.get("base_path", "."),
        documents_code="mkdocstrings" in config.plugins, module_paths=_handler_paths(config))
