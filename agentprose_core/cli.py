"""The ``agentprose`` command: agent outputs for a site built by any tool."""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from agentprose_core.errors import AgentproseError, InputError
from agentprose_core.hosting.mcp_functions import MCP_HOSTS
from agentprose_core.settings import ENGINES, VIEW_LAYOUTS, settings_from_mapping
from agentprose_core.version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["main"]

_PROGRESS_FROM = 50  # pages; smaller sites finish before a bar would help
_DRAW_EVERY = 0.1  # seconds between two drawings of the bar


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentprose",
        description="Make a documentation site readable by AI agents.",
    )
    parser.add_argument("--version", action="version", version=f"agentprose {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser(
        "build",
        help="write agent views, agentprose.json and llms.txt into a built site",
        description="Post-process a built static site (Zensical, Hugo, Jekyll, plain HTML): "
        "write an agent view per page, agentprose.json, llms.txt and llms-full.txt, and add "
        "the discovery links to every page's <head>.",
    )
    build.add_argument("site_dir", type=Path, help="the folder of the built site")
    build.add_argument("--base-url", required=True,
                       help="the URL the site is published at, e.g. https://example.com/docs/")
    build.add_argument("--dry-run", action="store_true", help="report what would be written")
    build.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                       help="leave out pages whose path matches (repeatable)")
    build.add_argument("--content-selector", help="CSS selector of the main content")
    build.add_argument("--converter", choices=ENGINES, default=ENGINES[0])
    build.add_argument("--view-layout", choices=VIEW_LAYOUTS, default=VIEW_LAYOUTS[0])
    build.add_argument("--description", help="site description for llms.txt and the index")
    build.add_argument("--source", type=Path, metavar="DOCS_DIR",
                       help="the docs folder the site was built from, for dates from git")
    build.add_argument("--site-version", metavar="NAME",
                       help="the version the site is, on a versioned site (mike's folder "
                            "name, e.g. 2.0): every view names it")
    build.add_argument("--page-actions", action="store_true",
                       help="show each page's menu: copy or view it as Markdown, open it "
                            "in ChatGPT or Claude")
    build.add_argument("--mcp-endpoint", metavar="URL",
                       help="where the site's MCP endpoint answers (a URL, or a path such "
                            "as /mcp): writes agentprose-search.json for it")
    build.add_argument("--preprocess", metavar="MODULE:FUNCTION",
                       help="a function called with each page's content element first")
    build.add_argument("--quiet", action="store_true", help="print only warnings and errors")
    serve = commands.add_parser(
        "serve",
        help="preview a built site, negotiating Markdown and HTML as a host should",
        description="Serve a built site on this machine: a page URL answers Markdown to "
        "clients that ask for text/markdown and HTML to the others, with Vary, ETag and "
        "Last-Modified, the way the format specification (docs/formats.md) describes.",
    )
    serve.add_argument("site_dir", type=Path, help="the folder of the built site")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on")
    serve.add_argument("--base-path", default="/", help="the site's path, e.g. /docs/")
    serve.add_argument("--quiet", action="store_true", help="do not log requests")
    serve.add_argument("--mcp", action="store_true",
                       help="also answer MCP (Streamable HTTP) at the site's /mcp, from its "
                            "agentprose.json")
    serve.add_argument("--detect-agents", action="store_true",
                       help="answer the agent view to known agent fetchers (Claude-User, "
                       "ChatGPT-User, ...) even when they ask for HTML")
    check = commands.add_parser(
        "check",
        help="check a built site folder or a deployed site against the formats",
        description="Verify every agent output of a built site folder, or of a deployed "
        "site over HTTP (content types, negotiation, Vary, validators, 304s). Exits 1 when "
        "a rule is broken.",
    )
    check.add_argument("target", help="a built site folder or an http(s) URL")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument("--max-pages", type=int, default=50, help="pages to fetch over HTTP")
    check.add_argument("--base-url", help="the site URL a folder is published at")
    mcp = commands.add_parser(
        "mcp",
        help="give coding agents the site's tools over the Model Context Protocol",
        description="Run an MCP server over a built site folder or a deployed site's "
        "agentprose.json: search_docs, list_pages, get_page, get_section, "
        "table_of_contents, related_pages, site_info. Needs pip install 'agentprose[mcp]'.",
    )
    mcp.add_argument("source", help="a built site folder or the site's base URL")
    mcp.add_argument("--http", metavar="HOST:PORT", type=_host_port,
                     help="serve the streamable HTTP transport there (loopback only) "
                     "instead of standard input and output")
    versions = commands.add_parser(
        "versions",
        help="write the root agent files of a site mike deployed one folder per version",
        description="After mike deploy: write agentprose.json, llms.txt (with a Versions "
        "section linking every version's) and llms-full.txt at the root of the deployed "
        "tree from the default version's, and name in every other version's views the "
        "same page in the default version (latest). Safe to run after every deploy.",
    )
    versions.add_argument("site_root", type=Path,
                          help="the root of the deployed tree (a checkout of gh-pages)")
    versions.add_argument("--default", metavar="VERSION",
                          help="the default version (else the one the root redirects to)")
    config = commands.add_parser(
        "config",
        help="print a ready server configuration (nginx, caddy) for a built site",
        description="Print the server configuration that serves a built site the way "
        "agents should get it: .md as text/markdown, Accept negotiation, Vary.",
    )
    function = commands.add_parser(
        "mcp-function",
        help="write the site's MCP endpoint as a Cloudflare, Netlify or Vercel function",
        description="The remote MCP endpoint (the tools of agentprose mcp, read-only) as "
        "one function file for a static host. It answers from the files the same "
        "deployment publishes: build the site with the mcp_endpoint option set to the "
        "endpoint's URL.",
    )
    function.add_argument("host", choices=MCP_HOSTS)
    function.add_argument("--base-path", default="/",
                          help="the path the site is published under, e.g. /docs/")
    function.add_argument("--endpoint", default="mcp", metavar="PATH",
                          help="the endpoint's URL path: relative to the base path, or "
                          "from the root when it starts with / (default: mcp)")
    function.add_argument("--out", type=Path, metavar="PROJECT",
                          help="write the file where the host looks for it in this project "
                          "folder, instead of printing it")
    config.add_argument("server", choices=("nginx", "caddy"))
    config.add_argument("--root", required=True, help="the folder of the built site")
    config.add_argument("--base-path", default="/", help="the site's path, e.g. /docs/")
    config.add_argument("--view-layout", choices=VIEW_LAYOUTS, default=VIEW_LAYOUTS[0])
    config.add_argument("--detect-agents", action="store_true",
                        help="answer the agent view to known agent fetchers even when they "
                        "ask for HTML")
    return parser


_LOOPBACK = ("127.0.0.1", "::1", "localhost")


def _host_port(value: str) -> tuple[str, int]:
    host, colon, port = value.rpartition(":")
    host = host.strip("[]")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"{value!r} is not HOST:PORT, e.g. 127.0.0.1:8808")
    if host not in _LOOPBACK:
        raise argparse.ArgumentTypeError(
            f"{host!r} is not a loopback address: the server has no authentication, so it "
            "listens on 127.0.0.1, ::1 or localhost only")
    return host, int(port)


class _Bar:
    """A one-line progress bar on standard error, a line per stage of the build.

    Drawn at most every ``_DRAW_EVERY`` seconds, and when a stage ends: told of every
    page, it draws a few times a second whatever the site's size.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._drawn = -math.inf

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = self._clock()
        if done < total and now - self._drawn < _DRAW_EVERY:
            return
        self._drawn = now
        width = 30
        filled = width * done // total
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} pages {stage}",
              end="" if done < total else "\n", file=sys.stderr, flush=True)


def _build(args: argparse.Namespace) -> int:
    settings = settings_from_mapping({
        "exclude": args.exclude,
        "content_selector": args.content_selector,
        "converter": args.converter,
        "view_layout": args.view_layout,
        "site_description": args.description,
        "preprocess": args.preprocess,
        "page_actions": args.page_actions,
        "mcp_endpoint": args.mcp_endpoint,
    })
    # Each command imports what it runs.
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.extract.builtsite import find_pages

    progress = _Bar() if sys.stderr.isatty() and not args.quiet and len(
        find_pages(args.site_dir, args.exclude)) >= _PROGRESS_FROM else None
    result = build_site(args.site_dir, base_url=args.base_url, settings=settings,
                        dry_run=args.dry_run, progress=progress, source_dir=args.source,
                        version=args.site_version)
    for diagnostic in result.diagnostics:
        if diagnostic.severity == "warning":
            print(f"warning: {diagnostic}", file=sys.stderr)
        elif not args.quiet:
            print(f"info: {diagnostic}", file=sys.stderr)
    if args.dry_run and not args.quiet:
        for name in result.files:
            print(f"would write {name}")
    warnings = sum(1 for d in result.diagnostics if d.severity == "warning")
    verb = "would write" if args.dry_run else "wrote"
    print(f"agentprose: {result.pages} pages, {verb} {len(result.files)} files "
          f"({result.bytes_written:,} bytes), {warnings} warnings")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from agentprose_core.serve.server import run_server

    endpoint = None
    if args.mcp:
        from agentprose_core.mcp.http import McpEndpoint
        from agentprose_core.mcp.sources import FolderSource

        endpoint = McpEndpoint(FolderSource(args.site_dir))
    run_server(args.site_dir, host=args.host, port=args.port, base_path=args.base_path,
               quiet=args.quiet, detect_agents=args.detect_agents, endpoint=endpoint)
    return 0


def _check(args: argparse.Namespace) -> int:
    from agentprose_core.check.checker import check_target

    report = check_target(args.target, max_pages=args.max_pages, base_url=args.base_url)
    print(report.to_json() if args.json else report.to_text())
    return 0 if report.ok else 1


def _mcp(args: argparse.Namespace) -> int:
    from agentprose_core.mcp.server import serve

    serve(args.source, args.http)
    return 0


def _versions(args: argparse.Namespace) -> int:
    from agentprose_core.build.versions import write_versions

    written = write_versions(args.site_root, default=args.default)
    print(f"agentprose: {', '.join(written.files)} written at {args.site_root} from version "
          f"{written.default}; {written.views_dated} views of other versions name their "
          "page in it")
    return 0


def _llms_scopes(root: Path) -> list[str]:
    """The site-relative folders of a built site that hold an ``llms.txt`` (``""``: the
    root), dot-folders left out."""
    found = []
    for llms in root.rglob("llms.txt"):
        parts = llms.relative_to(root).parts[:-1]
        if llms.is_file() and not any(part.startswith(".") for part in parts):
            found.append("".join(part + "/" for part in parts))
    return sorted(found)


def _config(args: argparse.Namespace) -> int:
    from agentprose_core.hosting.servers import caddy_config, nginx_config

    render = nginx_config if args.server == "nginx" else caddy_config
    root = Path(args.root)
    # A folder on this machine is read; a path on the server is taken to hold the
    # root's llms.txt and agentprose.json, as every build writes them.
    scopes = _llms_scopes(root) if root.is_dir() else [""]
    index = (root / "agentprose.json").is_file() if root.is_dir() else True
    print(render(args.root, base_path=args.base_path, view_layout=args.view_layout,
                 llms_scopes=scopes, index=index, detect_agents=args.detect_agents), end="")
    return 0


def _mcp_function(args: argparse.Namespace) -> int:
    from agentprose_core.hosting.mcp_functions import mcp_function

    made = mcp_function(args.host, base_path=args.base_path, endpoint=args.endpoint)
    if args.out is None:
        print(made.text, end="")
        return 0
    target = args.out / made.path
    if target.exists() and _MCP_FUNCTION_MARK not in target.read_text(
            encoding="utf-8", errors="replace")[:400]:
        raise InputError(f"{target} exists and agentprose did not write it: move it away, "
                         "or give another --out")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(made.text, encoding="utf-8")
    print(f"agentprose: wrote {target}")
    return 0


_MCP_FUNCTION_MARK = "agentprose's MCP endpoint"
_COMMANDS = {"build": _build, "serve": _serve, "check": _check, "mcp": _mcp,
             "versions": _versions, "config": _config, "mcp-function": _mcp_function}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
    try:
        return _COMMANDS[args.command](args)
    except AgentproseError as error:
        print(f"agentprose: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
