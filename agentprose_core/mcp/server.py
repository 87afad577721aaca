"""``agentprose mcp``: the site's tools over the Model Context Protocol.

Built on the official SDK (``pip install agentprose[mcp]``). The site is loaded on the
first tool call, not at start-up, so a client that starts the server before the site
is built or reachable gets a tool error that says so, and the next call tries again.
The search index is built in a background thread once the site is loaded; a search
that comes first waits for it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from agentprose_core import __version__
from agentprose_core.check.text import parse_view
from agentprose_core.errors import InputError
from agentprose_core.mcp import tools
from agentprose_core.mcp.search import Document, SearchIndex
from agentprose_core.mcp.site import IndexProblem, LoadedSite, Post
from agentprose_core.mcp.sources import Loaded, Source, source_for

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["Docs", "make_server", "serve"]


class Docs:
    """One site's tools: the loaded index, the search index, the views read so far."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._lock = threading.Lock()
        self._loaded: Loaded | None = None
        self._search: SearchIndex | None = None
        self._search_ready = threading.Event()
        self._search_failed: BaseException | None = None
        self._links: dict[int, set[int]] | None = None
        self._bodies: dict[int, str] = {}

    def loaded(self) -> Loaded:
        with self._lock:
            if self._loaded is None:
                self._loaded = self.source.load()
                self._search_ready.clear()
                threading.Thread(target=self._index, args=(self._loaded.site,),
                                 name="agentprose-search", daemon=True).start()
            return self._loaded

    @property
    def site(self) -> LoadedSite:
        return self.loaded().site

    def forget(self) -> None:
        """Drop what was loaded, so that the next call reads the index again."""
        with self._lock:
            self._loaded = self._search = self._links = None
            self._bodies = {}

    def _index(self, site: LoadedSite) -> None:
        try:
            documents = [Document(post.title, " ".join(h.title for h in post.headings),
                                  post.summary, self._searchable_body(post))
                         for post in site.posts]
            self._search = SearchIndex(documents)
        except BaseException as error:  # reported by the search that waits for it
            self._search_failed = error
        finally:
            self._search_ready.set()

    def _searchable_body(self, post: Post) -> str:
        """The body search reads: the index's, else (a folder) the view's; a deployed
        site's body-less index is searched by titles, headings and summaries only."""
        if post.markdown is not None or hasattr(self.source, "folder"):
            return self.body(post)
        return ""

    def searched(self) -> str:
        if self.site.has_bodies or hasattr(self.source, "folder"):
            return "titles, headings, summaries and page bodies"
        return ("titles, headings and summaries (the index carries no page bodies; "
                "get_page and get_section fetch them)")

    def search_index(self) -> SearchIndex:
        self.loaded()
        self._search_ready.wait()
        if self._search is None:
            failure, self._search_failed = self._search_failed, None
            self.forget()
            raise IndexProblem(f"the search index could not be built: {failure}")
        return self._search

    def body(self, post: Post) -> str:
        if post.markdown is not None:
            return post.markdown
        if post.number not in self._bodies:
            self._bodies[post.number] = parse_view(self.source.view(post)).body
        return self._bodies[post.number]

    def links(self) -> dict[int, set[int]]:
        if self._links is None:
            self._links = tools.links_between(self.site, self.body)
        return self._links

    def post(self, url_or_path: str) -> Post:
        post = self.site.find(url_or_path)
        if post is None:
            raise ValueError(f"{url_or_path!r} is not a page of {self.site.name}: give a "
                             "page URL or path from list_pages or search_docs")
        return post


def make_server(source: Source) -> Any:
    """The MCP server for ``source`` (an ``MCPServer`` of the SDK)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise InputError("`agentprose mcp` needs the MCP SDK: pip install "
                         "'agentprose[mcp]'") from None
    docs = Docs(source)

    def answer(work: Callable[[], str]) -> str:
        try:
            return work()
        except ValueError as error:
            raise ToolError(str(error)) from None
        except IndexProblem as error:
            docs.forget()
            raise ToolError(f"cannot read the site at {source.name}: {error}") from None

    server = MCPServer(
        name="agentprose", version=__version__, log_level="WARNING",
        instructions=f"Tools over the documentation site at {source.name}: search it, "
        "list its pages, read a page, its outline or one section. Start with site_info "
        "or search_docs; cite the page URLs the tools give.")

    @server.tool(name="site_info")
    def site_info() -> str:
        """The documentation site: name, description, base URL, sections with their
        page counts, number of pages, and when the index was written."""
        return answer(lambda: tools.site_info(docs.site, docs.loaded().built, docs.searched()))

    @server.tool(name="search_docs")
    def search_docs(query: str, limit: int = 10) -> str:
        """Search the documentation: ranked full-text search over page titles, headings,
        summaries and bodies. Each result gives the page, the section path and a snippet.
        Use get_section or get_page to read a result."""
        return answer(lambda: tools.search_docs(docs.site, docs.search_index(), docs.body,
                                                query, limit=limit))

    @server.tool(name="list_pages")
    def list_pages(section: str = "", tag: str = "", since: str = "", limit: int = 50,
                   offset: int = 0) -> str:
        """List the documentation's pages in reading order with title, URL, summary and
        dates. Filter by a section name (see site_info), a tag, or pages changed since a
        date (2026-03-14); page through with offset."""
        return answer(lambda: tools.list_pages(docs.site, section=section, tag=tag,
                                               since=since, limit=limit, offset=offset))

    @server.tool(name="get_page")
    def get_page(url_or_path: str, part: int = 1) -> str:
        """Read one page as Markdown (its agent view, with YAML front matter: title,
        canonical URL, dates). Give its URL or path. Long pages come in parts: ask
        again with part=2, 3, ... as the answer says."""
        return answer(lambda: tools.paged(source.view(docs.post(url_or_path)), part))

    @server.tool(name="get_section")
    def get_section(url_or_path: str, heading: str, part: int = 1) -> str:
        """Read one section of a page: give the page and a heading's id or title (from
        table_of_contents), or an API object's name where the page documents one."""
        return answer(lambda: _section(docs, url_or_path, heading, part))

    @server.tool(name="table_of_contents")
    def table_of_contents(url_or_path: str) -> str:
        """The outline of one page: its headings with their ids, nested by level."""
        return answer(lambda: _outline(docs, url_or_path))

    @server.tool(name="related_pages")
    def related_pages(url_or_path: str, limit: int = 5) -> str:
        """Pages related to one page, with the reason: links between them, a shared
        section or tags, shared words."""
        return answer(lambda: tools.related_pages(docs.site, docs.search_index(),
                                                  docs.links(), docs.post(url_or_path),
                                                  limit))

    return server


def _section(docs: Docs, url_or_path: str, heading: str, part: int) -> str:
    post = docs.post(url_or_path)
    return tools.get_section(post, docs.body(post), heading, part)


def _outline(docs: Docs, url_or_path: str) -> str:
    post = docs.post(url_or_path)
    return tools.table_of_contents(post, None if post.headings else docs.body(post))


def serve(target: str, http: tuple[str, int] | None = None) -> None:
    """Run the server for ``target`` (a folder or a URL) on standard input and output,
    or on streamable HTTP at ``http`` (host, port)."""
    server = make_server(source_for(target))
    if http is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=http[0], port=http[1])
