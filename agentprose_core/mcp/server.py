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

from agentprose_core.errors import InputError
from agentprose_core.mcp import tools
from agentprose_core.mcp.site import IndexProblem, LoadedSite, Post
from agentprose_core.mcp.sources import CallLimit, Source, source_for
from agentprose_core.reading.text import parse_view
from agentprose_core.search.index import SearchIndex, document_of
from agentprose_core.search.links import links_between
from agentprose_core.search.stored import stored_search
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["Docs", "Reading", "make_server", "run_tool", "serve"]


class _Indexing:
    """The search index and links of one loaded site: read from the build's
    ``agentprose-search.json`` when it has one for these posts, else built, in a
    background thread either way."""

    def __init__(self, site: LoadedSite, stored: object,
                 body: Callable[[Post], str]) -> None:
        self.done = threading.Event()
        self.index: SearchIndex | None = None
        self.links: list[list[int]] = []
        self.stored = False
        """Read from the build's file (which searched every page's body)."""
        self.failure = ""
        threading.Thread(target=self._build, args=(site, stored, body),
                         name="agentprose-search", daemon=True).start()

    def _build(self, site: LoadedSite, stored: object, body: Callable[[Post], str]) -> None:
        try:
            found = stored_search(stored, [post.url for post in site.posts])
            self.stored = found is not None
            if found is None:
                bodies = [body(post) for post in site.posts]
                found = SearchIndex.build([
                    document_of(post.title, [(h.title, h.id) for h in post.headings],
                                post.summary, text)
                    for post, text in zip(site.posts, bodies, strict=True)]), links_between(
                        [(post.url, post.markdown_url) for post in site.posts], bodies)
            self.index, self.links = found
        except Exception as error:  # told to the search that waits for it
            self.failure = str(error) or type(error).__name__
        finally:
            self.done.set()


class Reading:
    """One reading of the index: the site, its views' bodies as they are read, its
    search index and the links between its pages. A tool call works on one reading,
    even when the folder is rebuilt meanwhile."""

    def __init__(self, source: Source) -> None:
        self.source = source
        loaded = source.load()
        self.site, self.built = loaded.site, loaded.built
        self._bodies: dict[int, str] = {}
        self._indexing = _Indexing(self.site, loaded.search, self._searchable_body)

    def body(self, post: Post) -> str:
        """The Markdown body of ``post``'s view: from the index, else from the view."""
        if post.markdown is not None:
            return post.markdown
        if post.number not in self._bodies:
            self._bodies[post.number] = parse_view(self.source.view(post)).body
        return self._bodies[post.number]

    def _searchable_body(self, post: Post) -> str:
        """The body search reads: the index's, else (a folder) the view's; a deployed
        site's body-less index is searched by titles, headings and summaries only."""
        if post.markdown is not None or self.source.local:
            return self.body(post)
        return ""

    def searched(self) -> str:
        """What a search reads, as the tools describe it."""
        if self.site.has_bodies or self.source.local:
            return "titles, headings, summaries and page bodies"
        self._indexing.done.wait()  # a deployed site's own search file searched them too
        if self._indexing.stored:
            return "titles, headings, summaries and page bodies"
        return ("titles, headings and summaries (the index carries no page bodies; "
                "get_page and get_section fetch them)")

    def search_index(self) -> SearchIndex:
        """The search index, once it is read or built (in the background, from the
        start)."""
        self._indexing.done.wait()
        if self._indexing.index is None:
            raise IndexProblem(f"the search index could not be built: "
                               f"{self._indexing.failure}")
        return self._indexing.index

    def links(self) -> list[list[int]]:
        """Which pages link which, by position: with the search index."""
        # Of a deployed site with a body-less index, from the bodies search reads: its
        # views are not fetched one by one (100,000 requests for one related_pages call).
        self.search_index()
        return self._indexing.links

    def post(self, url_or_path: str) -> Post:
        """The page a tool call names by URL or path; a ValueError that says so otherwise."""
        post = self.site.find(url_or_path)
        if post is None:
            raise ValueError(f"{tools.quoted(url_or_path)} is not a page of {self.site.name}: "
                             "give a page URL or path from list_pages or search_docs")
        return post


class Docs:
    """One site's tools, over the site as last read."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._lock = threading.Lock()
        self._loaded: Reading | None = None
        self._version: object = None

    def loaded(self) -> Reading:
        """The site, read on the first call and again when its index file changed (a
        rebuilt folder)."""
        with self._lock:
            version = self.source.version()
            if self._loaded is None or version != self._version:
                self._loaded = None
                self._version = version
                self._loaded = Reading(self.source)
            return self._loaded

    def forget(self) -> None:
        """Drop what was read, so that the next call reads the index again."""
        with self._lock:
            self._loaded = None


_ERROR_CHARS = 4_000  # an error's text, with room for what the SDK puts around it


def make_server(source: Source) -> Any:
    """The MCP server for ``source`` (an ``MCPServer`` of the SDK)."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise InputError("`agentprose mcp` needs the MCP SDK: pip install "
                         "'agentprose[mcp]'") from None
    docs = Docs(source)

    def answer(work: Callable[[Reading], str]) -> str:
        """``work``'s answer on the site as now read; what goes wrong, as a tool error.
        Either is at most :data:`tools.MAX_CHARS` characters."""
        source.begin_call()
        try:
            return tools.capped(work(docs.loaded()))
        except (ValueError, CallLimit) as error:
            raise ToolError(tools.capped(str(error), _ERROR_CHARS)) from None
        except IndexProblem as error:
            docs.forget()
            raise ToolError(tools.capped(f"cannot read the site at {source.name}: {error}",
                                         _ERROR_CHARS)) from None

    server = MCPServer(
        name="agentprose", version=__version__, log_level="WARNING",
        instructions=f"Tools over the documentation site at {source.name}: search it, "
        "list its pages, read a page, its outline or one section. Start with site_info "
        "or search_docs; cite the page URLs the tools give.")

    def tool(function: Callable[..., str]) -> Callable[..., str]:
        """Register ``function`` as the tool of its name; its docstring, on one line (as
        every Python writes it: 3.13 strips a docstring's indent, 3.11 keeps it), says
        what the tool does."""
        about = " ".join((function.__doc__ or "").split())
        registered: Callable[..., str] = server.tool(name=function.__name__,
                                                     description=about)(function)
        return registered

    @tool
    def site_info() -> str:
        """The documentation site: name, description, base URL, sections with their
        page counts, number of pages, and when the index was written."""
        return answer(lambda it: run_tool(it, "site_info", {}))

    @tool
    def search_docs(query: str, limit: int = 10) -> str:
        """Search the documentation: ranked full-text search over page titles, headings,
        summaries and bodies. Each result gives the page, the section path and a snippet.
        Use get_section or get_page to read a result."""
        return answer(lambda it: run_tool(it, "search_docs", {"query": query, "limit": limit}))

    @tool
    def list_pages(section: str = "", tag: str = "", since: str = "", limit: int = 50,
                   offset: int = 0) -> str:
        """List the documentation's pages in reading order with title, URL, summary and
        dates. Filter by a section name (see site_info), a tag, or pages changed since a
        date (2026-03-14); page through with offset."""
        return answer(lambda it: run_tool(it, "list_pages", {
            "section": section, "tag": tag, "since": since, "limit": limit, "offset": offset}))

    @tool
    def get_page(url_or_path: str, part: int = 1) -> str:
        """Read one page as Markdown (its agent view, with YAML front matter: title,
        canonical URL, dates). Give its URL or path. Long pages come in parts: ask
        again with part=2, 3, ... as the answer says."""
        return answer(lambda it: run_tool(it, "get_page", {"url_or_path": url_or_path,
                                                           "part": part}))

    @tool
    def get_section(url_or_path: str, heading: str, part: int = 1) -> str:
        """Read one section of a page: give the page and a heading's id or title (from
        table_of_contents), or an API object's name where the page documents one."""
        return answer(lambda it: run_tool(it, "get_section", {
            "url_or_path": url_or_path, "heading": heading, "part": part}))

    @tool
    def table_of_contents(url_or_path: str) -> str:
        """The outline of one page: its headings with their ids, nested by level."""
        return answer(lambda it: run_tool(it, "table_of_contents",
                                          {"url_or_path": url_or_path}))

    @tool
    def related_pages(url_or_path: str, limit: int = 5) -> str:
        """Pages related to one page, with the reason: links between them, a shared
        section or tags, shared words."""
        return answer(lambda it: run_tool(it, "related_pages", {"url_or_path": url_or_path,
                                                                "limit": limit}))

    return server


def run_tool(it: Reading, name: str, arguments: Mapping[str, Any]) -> str:
    """What tool ``name`` answers with ``arguments`` (all of them given) on the site as
    ``it`` read it; a ValueError that says what to ask instead when it cannot. The remote
    endpoint's JavaScript answers the same calls with the same text."""
    if name == "site_info":
        return tools.site_info(it.site, it.built, it.searched())
    if name == "search_docs":
        return tools.search_docs(it.site, it.search_index(), it.body, arguments["query"],
                                 limit=arguments["limit"])
    if name == "list_pages":
        return tools.list_pages(it.site, **arguments)
    post = it.post(arguments["url_or_path"])
    if name == "get_page":
        return tools.paged(it.source.view(post), arguments["part"])
    if name == "get_section":
        return tools.get_section(post, it.body(post), arguments["heading"], arguments["part"])
    if name == "table_of_contents":
        return tools.table_of_contents(post, None if post.headings else it.body(post))
    return tools.related_pages(it.site, it.search_index(), it.links(), post,
                               arguments["limit"])


def serve(target: str, http: tuple[str, int] | None = None) -> None:
    """Run the server for ``target`` (a folder or a URL) on standard input and output,
    or on streamable HTTP at ``http`` (host, port)."""
    server = make_server(source_for(target))
    if http is None:
        server.run("stdio")
    else:
        server.run("streamable-http", host=http[0], port=http[1])
