"""The plugin's options: the core ``Settings``, in MkDocs' config types."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c

from agentprose_core.model import ARTICLE_TYPES
from agentprose_core.settings import ENGINES, HOSTS, VIEW_LAYOUTS

__all__ = ["AgentproseConfig"]


class AgentproseConfig(base.Config):
    """``plugins: - agentprose:`` options. Each mirrors a field of the core ``Settings``."""

    enabled = c.Type(bool, default=True)
    """Turn every agentprose output on or off."""
    converter = c.Choice(ENGINES, default="html-to-markdown")
    """Markdown engine: `html-to-markdown` (fast, Rust) or `markdownify` (pure Python)."""
    view_layout = c.Choice(VIEW_LAYOUTS, default="sibling")
    """Where a page's agent view lives: `sibling`, `directory` or `index-html`."""
    content_selector = c.Optional(c.Type(str))
    """CSS selector of the main content in a built page (for `agentprose build` only)."""
    exclude = c.ListOfItems(c.Type(str), default=[])
    """Glob patterns of source paths (`drafts/*`) to leave out of every output."""
    cache = c.Type(bool, default=True)
    """Keep converted pages in `.cache/agentprose` beside `mkdocs.yml`."""
    workers = c.Type(bool, default=True)
    """Convert pages in background processes on spare CPUs while MkDocs renders."""
    index = c.Type(bool, default=True)
    """Write `agentprose.json` at the site root."""
    index_markdown = c.Type(bool, default=True)
    """Put each page's full Markdown into `agentprose.json`."""
    index_max_bytes = c.Optional(c.Type(int))
    """Largest `agentprose.json`; past it the bodies are left out."""
    llms_txt = c.Type(bool, default=True)
    """Write `llms.txt` at the site root."""
    llms_full_txt = c.Type(bool, default=True)
    """Write `llms-full.txt` at the site root."""
    llms_full_max_bytes = c.Optional(c.Type(int))
    """Largest `llms-full.txt`; the pages past it are left out."""
    discovery_links = c.Type(bool, default=True)
    """Add the `<link>` tags for the agent view and the index to every page's head."""
    json_ld = c.Type(bool, default=True)
    """Add JSON-LD and OpenGraph article tags to each page's head, unless it has them."""
    article_type = c.Choice(ARTICLE_TYPES, default="TechArticle")
    """The schema.org type of the JSON-LD block (Material blog posts get `BlogPosting`)."""
    host = c.Choice(HOSTS, default="none")
    """Write the host's file into the built site: `netlify`, `cloudflare`, `apache`."""
    site_description = c.Optional(c.Type(str))
    """Site description for `llms.txt` and the index, when `site_description` is unset."""
    preprocess = c.Optional(c.Type(str))
    """A function `package.module:function(element, url)` run on each page's content."""
    sections = c.DictOfItems(c.ListOfItems(c.Type(str)), default={})
    """`llms.txt` sections instead of the nav's: titles with globs of source paths."""
    quiet = c.ListOfItems(c.Type(str), default=[])
    """Codes of the warnings to keep quiet (`no-git`, `view-collision`)."""
