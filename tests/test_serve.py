"""`agentprose serve`: negotiation, path mapping and the real server on loopback."""

from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import socket
import threading
import time
import tracemalloc
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pytest

from agentprose_core.agents import VARY_AGENTS
from agentprose_core.errors import InputError
from agentprose_core.serve import answers, validators
from agentprose_core.serve import server as serve
from agentprose_core.serve.answers import (
    Request,
    Site,
    content_type_for,
    not_modified,
    respond,
)
from agentprose_core.serve.negotiate import HTML, MARKDOWN, choose, parse_accept, weight_of
from agentprose_core.serve.server import make_server
from agentprose_core.serve.validators import etag_matches, http_date
from agentprose_core.sitepaths import hidden, map_target, normalize_base_path, view_candidates

from .http_cases import CASES, agent_cases, build_fixture_site, cases_for, run_cases

if TYPE_CHECKING:
    from collections.abc import Iterator

# --- negotiation ------------------------------------------------------------------------

CHOICES = [
    # accept, chosen, acceptable
    (None, HTML, True),
    ("", HTML, True),
    ("text/markdown", MARKDOWN, True),
    ("text/html", HTML, True),
    ("text/markdown, text/html;q=0.8", MARKDOWN, True),
    ("text/html, text/markdown;q=0.9", HTML, True),
    ("text/html, text/markdown", MARKDOWN, True),
    ("text/markdown;q=0.5, text/html;q=0.500", MARKDOWN, True),
    ("text/markdown;q=0.80, text/html;q=0.8", MARKDOWN, True),
    ("text/markdown;q=0.799, text/html;q=0.8", HTML, True),
    ("text/markdown;q=1.000, text/html", MARKDOWN, True),
    ("*/*", HTML, True),
    ("text/*", HTML, True),
    ("text/*;q=0.5, */*", HTML, True),
    ("text/*;q=0.9, text/html;q=0.5", MARKDOWN, True),
    ("text/markdown;q=0.3, */*", HTML, True),
    ("text/markdown, */*;q=0.1", MARKDOWN, True),
    ("text/html;q=0, */*", MARKDOWN, True),
    ("text/markdown;q=0", HTML, False),
    ("text/markdown;q=0, */*", HTML, True),
    ("text/markdown;q=0, text/html;q=0", HTML, False),
    ("application/json", HTML, False),
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", HTML, True),
    ("TEXT/MARKDOWN", MARKDOWN, True),
    ("Text/Markdown; Q=0.9, text/html; q=0.5", MARKDOWN, True),
    ("text/markdown;charset=UTF-8", MARKDOWN, True),
    ("text/markdown;charset=iso-8859-1, text/html;q=0.1", HTML, True),
    ('text/markdown;variant="GFM, strict";q=0.9, text/html;q=0.8', MARKDOWN, True),
    ("text/markdown;q=1.5, text/html;q=0.5", HTML, True),  # bad q: member ignored
    ("text/markdown;q=.5, text/html;q=0.1", HTML, True),
    ("text/markdown;q=0.1234, text/html;q=0.1", HTML, True),
    ("text/markdown;q=abc", HTML, True),  # nothing valid left: as if absent
    ("markdown, text/html", HTML, True),
    ("*/markdown, text/html;q=0.2", HTML, True),
    (",, text/markdown ,", MARKDOWN, True),
    (";q=1, text/markdown;q=0.1", MARKDOWN, True),
    ("text/markdown;;q=0.5 , text/html;q=0.4", MARKDOWN, True),
    ("text/markdown; q=0.9; level=1, text/html", HTML, True),
]


@pytest.mark.parametrize(("accept", "chosen", "acceptable"), CHOICES)
def test_the_accept_header_chooses_the_view_or_the_page(
        accept: str | None, chosen: str, acceptable: bool) -> None:
    choice = choose(accept)
    assert (choice.media_type, choice.acceptable) == (chosen, acceptable)


@pytest.mark.parametrize(("value", "weight"), [
    ("0", 0), ("0.", 0), ("0.8", 800), ("0.80", 800), ("0.805", 805), ("1", 1000),
    ("1.", 1000), ("1.000", 1000),
])
def test_quality_values_are_read_to_the_thousandth(value: str, weight: int) -> None:
    assert [r.weight for r in parse_accept(f"text/html;q={value}")] == [weight]


@pytest.mark.parametrize("value", [
    "1.001", "2", "-0.5", ".5", "0.1234", "0.5.1", "", '"0.5"', "0.5x",
])
def test_bad_qvalues_drop_the_member(value: str) -> None:
    assert parse_accept(f"text/html;q={value}") == ()


def test_parse_accept_keeps_order_params_and_drops_malformed() -> None:
    ranges = parse_accept('text/html;level="a,b";q=0.3, bogus, */*;q=0.1, text/*, image/')
    assert [(r.type, r.subtype, r.params, r.weight) for r in ranges] == [
        ("text", "html", (("level", "a,b"),), 300),
        ("*", "*", (), 100),
        ("text", "*", (), 1000),
    ]


def test_most_specific_range_decides() -> None:
    ranges = parse_accept("*/*;q=0.1, text/*;q=0.2, text/markdown;q=0.7, text/html;charset=utf-8")
    markdown, html = weight_of(ranges, MARKDOWN), weight_of(ranges, HTML)
    assert markdown is not None
    assert html is not None
    assert (markdown.weight, html.weight, html.params) == (700, 1000, (("charset", "utf-8"),))
    assert weight_of(parse_accept("text/html"), MARKDOWN) is None


# --- paths ------------------------------------------------------------------------------

TARGETS = [
    # target, base path, status, segments
    ("/", "/", 200, ()),
    ("/tide-pools/", "/", 200, ("tide-pools",)),
    ("/tide-pools/?x=1#y", "/", 200, ("tide-pools",)),
    ("/caf%C3%A9/", "/", 200, ("café",)),
    ("//a///b", "/", 200, ("a", "b")),
    ("http://host/a.html?q", "/", 200, ("a.html",)),
    ("/docs/", "/docs/", 200, ()),
    ("/docs/a/", "/docs/", 200, ("a",)),
    ("/docs", "/docs/", 301, ()),
    ("/", "/docs/", 404, ()),
    ("/doc/a", "/docs/", 404, ()),
    ("/docsx/a", "/docs/", 404, ()),
    ("/%64ocs/a", "/docs/", 200, ("a",)),
    ("/../etc/passwd", "/", 400, ()),
    ("/a/./b", "/", 400, ()),
    ("/%2e%2e/%2e%2e/etc/passwd", "/", 400, ()),
    ("/%2E%2E/x", "/", 400, ()),
    ("/..%2f..%2fetc%2fpasswd", "/", 400, ()),
    ("/a%2fb", "/", 400, ()),
    ("/..%5c..%5cetc", "/", 400, ()),
    ("/a\\b", "/", 400, ()),
    ("/a%00.html", "/", 400, ()),
    ("/a%0a", "/", 400, ()),
    ("/%ff", "/", 400, ()),
    ("/\u00c3\u00a9", "/", 200, ("é",)),  # raw UTF-8 bytes, as http.server decodes them
    ("/\u20ac", "/", 400, ()),
    ("etc/passwd", "/", 400, ()),
    ("*", "/", 400, ()),
    ("/docs/../etc", "/docs/", 400, ()),
    # Hidden files are as good as absent, however the dot is spelt.
    ("/.env", "/", 404, ()),
    ("/.git/config", "/", 404, ()),
    ("/%2egit/config", "/", 404, ()),
    ("/%2Eenv", "/", 404, ()),
    ("/sub/.hidden/x.html", "/", 404, ()),
    ("/docs/.git/", "/docs/", 404, ()),
    ("/.well-known/security.txt", "/", 200, (".well-known", "security.txt")),
    ("/.well-known/.secret", "/", 404, ()),
    ("/sub/.well-known/x", "/", 404, ()),
    ("/.docs/a", "/.docs/", 200, ("a",)),  # a base path that starts with a dot is chosen
]


@pytest.mark.parametrize(("target", "base", "status", "segments"), TARGETS)
def test_a_request_target_maps_to_a_path_in_the_site_or_a_status(
        target: str, base: str, status: int, segments: tuple[str, ...]) -> None:
    mapped = map_target(target, base)
    assert (mapped.status, mapped.segments) == (status, segments)


def test_dot_files_are_hidden_but_the_top_well_known_folder() -> None:
    assert hidden((".git",))
    assert hidden(("a", "b", ".c"))
    assert hidden((".well-known", ".htaccess"))
    assert hidden(("a", ".well-known"))
    assert not hidden(())
    assert not hidden((".well-known",))
    assert not hidden(("a", "b.c", "d."))


def test_map_target_directory_and_redirect() -> None:
    assert map_target("/a/").directory
    assert not map_target("/a").directory
    assert map_target("/docs/", "/docs/").directory
    assert map_target("/docs", "/docs/").location == "/docs/"


@pytest.mark.parametrize(("given", "normal"), [
    ("/", "/"), ("", "/"), ("docs", "/docs/"), ("/docs", "/docs/"), ("/a/b/", "/a/b/"),
    ("https://x.org/docs", "/docs/"), ("/my%20docs/", "/my docs/"),
])
def test_normalize_base_path(given: str, normal: str) -> None:
    assert normalize_base_path(given) == normal


@pytest.mark.parametrize("given", ["/../x/", "/a/./", "/a%2fb/", "/a?b", "/a\\b/"])
def test_bad_base_path(given: str) -> None:
    with pytest.raises(InputError):
        normalize_base_path(given)


def test_view_candidates() -> None:
    assert view_candidates("index.html") == ["index.md", "index.html.md"]
    assert view_candidates("guide/install.html") == ["guide/install.md", "guide/install.html.md"]
    # A folder's page: its view named after the file (Sphinx), then the folder's sibling
    # (MkDocs), then the other layouts'.
    assert view_candidates("a/index.html", "/docs/") == ["a/index.md", "a.md", "a/index.html.md"]
    assert view_candidates("a/b/index.htm") == ["a/b/index.md", "a/b.md", "a/b/index.html.md"]
    assert view_candidates("index.html", "/docs/") == ["index.md", "index.html.md"]
    assert view_candidates("index.htm") == ["index.md", "index.html.md"]
    assert view_candidates("café/index.html")[:2] == ["café/index.md", "café.md"]
    assert view_candidates("my index.html") == ["my index.md", "my index.html.md"]


def test_each_served_file_gets_its_content_type_and_charset() -> None:
    assert content_type_for("a.md") == "text/markdown; charset=utf-8"
    assert content_type_for("a/B.HTML") == "text/html; charset=utf-8"
    assert content_type_for("agentprose.json") == "application/json; charset=utf-8"
    assert content_type_for("llms.txt") == "text/plain; charset=utf-8"
    assert content_type_for("style.css") == "text/css; charset=utf-8"
    assert content_type_for("x.png") == "image/png"
    assert content_type_for("noext") == "application/octet-stream"


# --- validators -------------------------------------------------------------------------

def test_if_none_match_compares_etags_weakly() -> None:
    assert etag_matches('"abc"', '"abc"')
    assert etag_matches('W/"abc"', '"abc"')
    assert etag_matches('"x", W/"abc" ,"y"', '"abc"')
    assert etag_matches(" * ", '"abc"')
    assert not etag_matches('"abcd"', '"abc"')
    assert not etag_matches("abc", '"abc"')


def test_not_modified_rules() -> None:
    mtime = 1_700_000_000.7
    date = http_date(mtime)
    assert date.endswith(" GMT")
    get = Request(if_modified_since=date)
    assert not_modified(get, '"e"', mtime)
    assert not_modified(Request(if_modified_since=http_date(mtime + 60)), '"e"', mtime)
    assert not not_modified(Request(if_modified_since=http_date(mtime - 60)), '"e"', mtime)
    assert not not_modified(Request(if_modified_since="yesterday"), '"e"', mtime)
    # If-None-Match decides alone when present.
    assert not not_modified(Request(if_none_match='"x"', if_modified_since=date), '"e"', mtime)
    old = http_date(0)
    assert not_modified(Request(if_none_match='"e"', if_modified_since=old), '"e"', mtime)
    assert not not_modified(Request(method="POST", if_none_match="*"), '"e"', mtime)


# --- respond() on a small site, no socket -----------------------------------------------

@pytest.fixture
def small(tmp_path: Path) -> Site:
    root = tmp_path / "site"
    files = {
        "index.html": "<html>home</html>", "index.md": "# home",
        "a/index.html": "<html>a</html>", "a.md": "# a",
        "b.html": "<html>b</html>",
        "d/index.html": "<html>d</html>", "d/index.md": "# d",
        "e/index.html": "<html>e</html>", "e/index.html.md": "# e",
        "c/empty.txt": "",
        "404.html": "<html>custom not found</html>",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (tmp_path / "secret.md").write_text("secret", encoding="utf-8")
    (tmp_path / "outdir").mkdir()
    (tmp_path / "outdir" / "index.html").write_text("secret", encoding="utf-8")
    (root / "link.md").symlink_to(tmp_path / "secret.md")
    (root / "linkdir").symlink_to(tmp_path / "outdir")
    (root / "f").mkdir()
    (root / "f" / "index.html").write_text("<html>f</html>", encoding="utf-8")
    (tmp_path / "f.md").write_text("secret", encoding="utf-8")
    (root / "f.md").symlink_to(tmp_path / "f.md")  # a view outside: not a view
    return Site(root.resolve())


def _get(site: Site, target: str, accept: str | None = None, method: str = "GET") -> serve.Response:
    return respond(site, Request(method=method, target=target, accept=accept))


@pytest.mark.parametrize(("target", "view"), [
    ("/", "index.md"), ("/index.html", "index.md"), ("/a/", "a.md"), ("/a/index.html", "a.md"),
    ("/d/", "d/index.md"), ("/e/", "e/index.html.md"), ("/e/index.html", "e/index.html.md"),
])
def test_every_layout_negotiates(small: Site, target: str, view: str) -> None:
    markdown = _get(small, target, MARKDOWN)
    assert (markdown.status, markdown.body) == (200, (small.root / view).read_bytes())
    assert markdown.header("Vary") == "Accept"
    assert markdown.header("Content-Type") == "text/markdown; charset=utf-8"
    assert markdown.header("Content-Location") == "/" + view
    assert markdown.header("Link") is None
    html = _get(small, target)
    assert html.body.startswith(b"<html>")
    assert html.header("Vary") == "Accept"
    assert html.header("Link") == f'</{view}>; rel="alternate"; type="text/markdown"'
    assert html.header("ETag") != markdown.header("ETag")


def test_link_and_content_location_under_a_sub_path(tmp_path: Path) -> None:
    root = tmp_path / "site"
    (root / "a").mkdir(parents=True)
    (root / "a" / "index.html").write_text("<html>a</html>", encoding="utf-8")
    (root / "a.md").write_text("# a", encoding="utf-8")
    site = Site(root.resolve(), "/my docs/")
    html = _get(site, "/my%20docs/a/")
    assert html.header("Link") == '</my%20docs/a.md>; rel="alternate"; type="text/markdown"'
    markdown = _get(site, "/my%20docs/a/", MARKDOWN)
    assert markdown.header("Content-Location") == "/my%20docs/a.md"
    assert _get(site, "/my%20docs/a.md").body == b"# a"
    assert _get(site, "/a.md").status == 404


def test_links_to_the_nearest_llms_txt_and_the_index(tmp_path: Path) -> None:
    root = tmp_path / "site"
    for name in ("café/deep/index.html", "café/index.html", "other/index.html"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("<html>", encoding="utf-8")
        (root / name.replace("/index.html", ".md")).write_text("# x", encoding="utf-8")
    (root / "café" / "llms.txt").write_text("# c", encoding="utf-8")
    site = Site(root.resolve(), "/docs/")
    assert _get(site, "/docs/other/").header("Link") == \
        '</docs/other.md>; rel="alternate"; type="text/markdown"'
    deep = _get(site, "/docs/caf%C3%A9/deep/", MARKDOWN)
    assert deep.header("Link") == '</docs/caf%C3%A9/llms.txt>; rel="describedby"'
    (root / "llms.txt").write_text("# root", encoding="utf-8")
    (root / "agentprose.json").write_text("{}", encoding="utf-8")
    answers._described_by.cache_clear()  # else looked up again within two seconds
    assert _get(site, "/docs/other/", MARKDOWN).header("Link") == (
        '</docs/llms.txt>; rel="describedby", '
        '</docs/agentprose.json>; rel="agentprose-index"; type="application/json"')
    missing = _get(site, "/docs/caf%C3%A9/gone.html", MARKDOWN)
    assert (missing.status, missing.header("Content-Type")) == (404, answers._TYPES[".md"])
    assert b"](/docs/caf%C3%A9/llms.txt)" in missing.body
    assert b"](/docs/agentprose.json)" in missing.body


def test_agent_detection_in_respond(small: Site) -> None:
    agent = {"user_agent": "Mozilla/5.0 (compatible; Claude-User/1.0)"}
    off = respond(small, Request(target="/a/", accept="*/*", **agent))
    assert (off.body, off.header("Vary")) == (b"<html>a</html>", "Accept")
    on_site = Site(small.root, detect_agents=True)
    on = respond(on_site, Request(target="/a/", accept="*/*", **agent))
    assert (on.body, on.header("Vary")) == (b"# a", VARY_AGENTS)
    again = respond(on_site, Request(target="/a/", accept="*/*", if_none_match=on.header("ETag"),
                                     **agent))
    assert (again.status, again.header("Vary")) == (304, VARY_AGENTS)
    crawler = respond(on_site, Request(target="/a/", user_agent="Googlebot/2.1 Claude-User/1.0"))
    assert (crawler.body, crawler.header("Vary")) == (b"<html>a</html>", VARY_AGENTS)
    signed = respond(on_site, Request(target="/a/", signature_agent='"https://chatgpt.com"'))
    assert signed.body == b"# a"
    missing = respond(on_site, Request(target="/nope/", **agent))
    assert missing.header("Content-Type") == "text/markdown; charset=utf-8"
    assert respond(small, Request(target="/nope/", **agent)).body.startswith(b"<html>")
    assert respond(on_site, Request(target="/b.html", **agent)).body == b"<html>b</html>"


def test_pages_without_views_and_other_files(small: Site) -> None:
    page = _get(small, "/b.html", MARKDOWN)
    assert (page.status, page.body) == (200, b"<html>b</html>")
    assert page.header("Vary") is None
    assert page.header("Link") is None
    view = _get(small, "/a.md", HTML)
    assert (view.body, view.header("Vary")) == (b"# a", None)
    assert view.header("Content-Type") == "text/markdown; charset=utf-8"


@pytest.mark.parametrize("target", [
    "/link.md", "/linkdir/", "/linkdir/index.html", "/f.md", "/nope", "/c/", "/b.html/",
    "/../secret.md", "/%2e%2e/secret.md",
])
def test_never_outside_the_site(small: Site, target: str) -> None:
    response = _get(small, target, MARKDOWN)
    assert response.status in (400, 404)
    assert b"secret" not in response.body


def test_not_found_page_and_plain_fallback(small: Site) -> None:
    response = _get(small, "/nope")
    assert (response.status, response.body) == (404, b"<html>custom not found</html>")
    assert response.header("Content-Type") == "text/html; charset=utf-8"
    (small.root / "404.html").unlink()
    assert _get(small, "/nope").header("Content-Type") == "text/plain; charset=utf-8"


def test_f_page_ignores_a_view_outside(small: Site) -> None:
    response = _get(small, "/f/", MARKDOWN)
    assert (response.body, response.header("Vary")) == (b"<html>f</html>", None)


def test_redirect_method_and_conditional(small: Site) -> None:
    moved = _get(small, "/a")
    assert (moved.status, moved.header("Location")) == (301, "/a/")
    refused = _get(small, "/a/", method="POST")
    assert (refused.status, refused.header("Allow")) == (405, "GET, HEAD")
    first = _get(small, "/a/", MARKDOWN)
    etag = first.header("ETag")
    assert etag is not None
    assert etag.startswith('"')
    again = respond(small, Request(target="/a/", accept=MARKDOWN, if_none_match=etag))
    assert (again.status, again.body) == (304, b"")
    assert dict(again.headers).keys() == {"ETag", "Last-Modified", "Cache-Control", "Vary",
                                         "Content-Location"}
    other = respond(small, Request(target="/a/", accept=HTML, if_none_match=etag))
    assert other.status == 200


def test_last_modified_is_the_file_time(small: Site) -> None:
    os.utime(small.root / "a.md", (1_600_000_000, 1_600_000_000))
    response = _get(small, "/a/", MARKDOWN)
    assert response.header("Last-Modified") == "Sun, 13 Sep 2020 12:26:40 GMT"


# --- the real server --------------------------------------------------------------------

@contextmanager
def _running(site: Path, base_path: str = "/", *, quiet: bool = True,
             detect_agents: bool = False, **options: Any) -> Iterator[str]:
    server = make_server(site, port=0, base_path=base_path, quiet=quiet,
                         detect_agents=detect_agents, **options)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield server.url
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        base: build_fixture_site(tmp_path_factory.mktemp("served") / "site",
                                 "https://coast.example" + base)
        for base in ("/", "/docs/")
    }


@pytest.mark.parametrize("base_path", ["/", "/docs/"])
def test_http_cases(built: dict[str, Path], base_path: str) -> None:
    with _running(built[base_path], base_path) as url:
        assert url.endswith(base_path)
        cases = cases_for(url)
        assert len(cases) > len(CASES) or base_path == "/"
        assert run_cases(url, cases) == []


@pytest.mark.parametrize("detect", [False, True], ids=["detection-off", "detection-on"])
@pytest.mark.parametrize("base_path", ["/", "/docs/"])
def test_agent_detection(built: dict[str, Path], base_path: str, detect: bool) -> None:
    with _running(built[base_path], base_path, detect_agents=detect) as url:
        assert run_cases(url, agent_cases(detect)) == []
        if detect:  # and the rest of the table holds
            assert run_cases(url, cases_for(url)) == []


def test_one_log_line_per_request(built: dict[str, Path],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    with _running(built["/"], quiet=False) as url:
        assert run_cases(url, [c for c in CASES if c.name in ("markdown", "missing")]) == []
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    assert '"GET /tide-pools/ HTTP/1.1" 200' in lines[0]
    with _running(built["/"], quiet=True) as url:
        assert run_cases(url, [c for c in CASES if c.name == "markdown"]) == []
    assert capsys.readouterr().err == ""


def test_make_server_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="No such directory"):
        make_server(tmp_path / "missing", port=0)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(InputError, match="Cannot listen"):
            make_server(tmp_path, port=port)


def test_run_server_announces_and_closes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    served: list[serve.PreviewServer] = []

    def fake_serve(server: serve.PreviewServer) -> None:
        served.append(server)
        server.server_close()

    monkeypatch.setattr(serve, "serve_forever", fake_serve)
    serve.run_server(tmp_path, port=0, base_path="docs")
    assert served[0].site.base_path == "/docs/"
    err = capsys.readouterr().err
    assert err.startswith(f"agentprose: serving {tmp_path} at http://127.0.0.1:")
    assert "/docs/ (Ctrl+C to stop)" in err


def test_cli_serve_starts_and_answers(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    site = tmp_path / "site"
    build_fixture_site(site, "http://127.0.0.1/")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "agentprose_core.cli", "serve", str(site), "--port", str(port),
         "--quiet"], stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/tide-pools/",
                                             headers={"Accept": "text/markdown"})
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    assert response.headers["Content-Type"] == "text/markdown; charset=utf-8"
                    assert response.read().startswith(b"---\ntitle:")
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        server.terminate()
        server.communicate(timeout=10)


# --- hidden files, big files, validators' cache, many and silent clients ---------------

def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    assert parts.hostname is not None
    assert parts.port is not None
    return parts.hostname, parts.port


def _request(url: str, target: str, method: str = "GET",
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request with ``target`` sent exactly as given (no client-side normalising)."""
    connection = http.client.HTTPConnection(*_address(url), timeout=30)
    try:
        connection.request(method, target, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


@pytest.fixture
def dotted(tmp_path: Path) -> Path:
    """A site holding hidden files next to its pages, and links to and into them."""
    root = tmp_path / "site"
    files = {
        "index.html": "<html>home</html>", "index.md": "# home",
        "404.html": "<html>custom not found</html>",
        ".env": "SECRET-env", ".git/config": "SECRET-git", ".git/index.html": "SECRET-index",
        ".git/index.md": "SECRET-index-view",
        "sub/index.html": "<html>sub</html>", "sub/.hidden/x.html": "SECRET-nested",
        "sub/.hidden/index.html": "SECRET-nested-index",
        ".well-known/security.txt": "Contact: mailto:security@coast.example",
        ".well-known/.secret": "SECRET-well-known",
        "page/index.html": "<html>page</html>", ".drafts/page.md": "SECRET-draft-view",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    (root / "page.md").symlink_to(root / ".drafts" / "page.md")  # a view that is hidden
    (root / "env.txt").symlink_to(root / ".env")
    (root / "repo").symlink_to(root / ".git")
    return root


# The two 404s: the site's page for browsers, a Markdown one for clients that want Markdown.
NOT_FOUND = {HTML: b"<html>custom not found</html>", MARKDOWN: b"# Page not found\n"}
HIDDEN_TARGETS = [
    "/.env", "/%2eenv", "/%2Eenv", "/.env?download=1", "/.git/config", "/%2egit/config",
    "/.git/%63onfig", "/.git/", "/.git", "/.git/index.html", "/sub/.hidden/x.html",
    "/sub/%2ehidden/x.html", "/sub/.hidden/", "/.well-known/.secret", "/env.txt", "/repo/config",
    "/repo/", "/page.md", "/.drafts/page.md",
]


def test_hidden_files_are_never_served(dotted: Path) -> None:
    with _running(dotted) as url:
        for target in HIDDEN_TARGETS:
            for method, accept in (("GET", HTML), ("GET", MARKDOWN), ("HEAD", MARKDOWN)):
                status, headers, body = _request(url, target, method, {"Accept": accept})
                assert status == 404, (target, method, accept)
                assert "Location" not in headers, target
                assert b"SECRET" not in body, target
                if method == "GET":
                    assert body.startswith(NOT_FOUND[accept]), (target, accept)
        status, _, body = _request(url, "/.well-known/security.txt")
        assert (status, body) == (200, b"Contact: mailto:security@coast.example")
        # A page whose only view is hidden is served as a page without a view.
        status, headers, body = _request(url, "/page/", headers={"Accept": MARKDOWN})
        assert (status, body) == (200, b"<html>page</html>")
        assert "Link" not in headers
        assert "Vary" not in headers
        status, _, body = _request(url, "/sub/", headers={"Accept": MARKDOWN})
        assert (status, body) == (200, b"<html>sub</html>")


def test_hidden_files_under_a_base_path(dotted: Path) -> None:
    site = Site(dotted.resolve(), "/docs/")
    for target in ("/docs/.env", "/docs/%2egit/config", "/docs/sub/.hidden/x.html"):
        for accept in (HTML, MARKDOWN):
            response = _get(site, target, accept)
            assert response.status == 404
            assert response.body.startswith(NOT_FOUND[accept]), (target, accept)
    assert _get(site, "/docs/.well-known/security.txt").status == 200


def _fill(path: Path, mebibytes: int) -> str:
    """Write a file of distinct MiB blocks; its SHA-256."""
    block = os.urandom(1 << 20)
    digest = hashlib.sha256()
    with path.open("wb") as file:
        for i in range(mebibytes):
            chunk = block[i:] + block[:i]
            file.write(chunk)
            digest.update(chunk)
    return digest.hexdigest()


def _download(url: str, target: str) -> tuple[int, dict[str, str], int, str]:
    """GET ``target`` reading the body in 64 KiB pieces: status, headers, length, SHA-256."""
    connection = http.client.HTTPConnection(*_address(url), timeout=60)
    try:
        connection.request("GET", target)
        response = connection.getresponse()
        digest, length = hashlib.sha256(), 0
        while chunk := response.read(1 << 16):
            digest.update(chunk)
            length += len(chunk)
        return response.status, dict(response.getheaders()), length, digest.hexdigest()
    finally:
        connection.close()


def test_a_large_file_is_streamed_byte_exact_in_little_memory(tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    size = 20 << 20
    expected = _fill(root / "big.bin", 20)
    with _running(root) as url:
        # Traced in this process, so the server's threads count too: reading the file
        # whole anywhere (to hash it or to send it) would show a peak of 20 MiB.
        tracemalloc.start()
        try:
            status, headers, length, digest = _download(url, "/big.bin")
            again = _download(url, "/big.bin")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        head = _request(url, "/big.bin", "HEAD")
        cached = _request(url, "/big.bin", headers={"If-None-Match": headers["ETag"]})
    assert (status, length, digest) == (200, size, expected)
    assert again[2:] == (size, expected)
    assert peak < size // 8, f"peak {peak} bytes while serving {size}"
    assert headers["Content-Length"] == str(size)
    assert headers["ETag"] == again[1]["ETag"]
    assert headers["ETag"] == validators.entity_tag((root / "big.bin").read_bytes(),
                                               "application/octet-stream")
    assert (head[0], head[1]["Content-Length"], head[2]) == (200, str(size), b"")
    assert (cached[0], cached[2]) == (304, b"")


def test_respond_hands_a_large_file_to_the_handler(tmp_path: Path) -> None:
    root = tmp_path / "site"
    root.mkdir()
    (root / "big.txt").write_bytes(b"x" * (validators.INLINE_LIMIT + 1))
    (root / "small.txt").write_bytes(b"x" * validators.INLINE_LIMIT)
    site = Site(root.resolve())
    big, small = _get(site, "/big.txt"), _get(site, "/small.txt")
    assert (big.body, big.file, big.length) == (b"", root.resolve() / "big.txt",
                                                validators.INLINE_LIMIT + 1)
    assert (len(small.body), small.file) == (validators.INLINE_LIMIT, None)


def test_an_unchanged_file_is_hashed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "site"
    root.mkdir()
    page = root / "notes.txt"
    page.write_bytes(b"low tide")
    site = Site(root.resolve())
    hashed: list[int] = []
    hash_file = validators._hash_file

    def counting(file: Any, size: int, content_type: str) -> tuple[str, bytes | None]:
        hashed.append(size)
        return hash_file(file, size, content_type)

    monkeypatch.setattr(validators, "_hash_file", counting)
    etag = _get(site, "/notes.txt").header("ETag")
    assert etag == validators.entity_tag(b"low tide", "text/plain; charset=utf-8")
    assert _get(site, "/notes.txt", method="HEAD").header("ETag") == etag
    revalidated = respond(site, Request(target="/notes.txt", if_none_match=etag))
    assert (revalidated.status, revalidated.body) == (304, b"")
    assert _get(site, "/notes.txt").body == b"low tide"
    assert hashed == [8]

    page.write_bytes(b"high tide!")  # a new size
    changed = _get(site, "/notes.txt")
    assert (changed.body, len(hashed)) == (b"high tide!", 2)
    assert changed.header("ETag") not in (etag, None)

    touched = page.stat().st_mtime_ns + 2_000_000_000
    os.utime(page, ns=(touched, touched))  # a new time, the same bytes: the same ETag
    assert _get(site, "/notes.txt").header("ETag") == changed.header("ETag")
    assert len(hashed) == 3

    page.write_bytes(b"HIGH TIDE!")  # the same size, other bytes, a later time
    os.utime(page, ns=(touched + 2_000_000_000, touched + 2_000_000_000))
    last = _get(site, "/notes.txt")
    assert (last.body, len(hashed)) == (b"HIGH TIDE!", 4)
    assert last.header("ETag") == validators.entity_tag(b"HIGH TIDE!", "text/plain; charset=utf-8")


def test_the_etag_cache_is_bounded() -> None:
    cache = validators._ETagCache(entries=2)
    stamp = (1, 2, 3, 4)
    cache.put(("a", "t"), stamp, '"a"')
    cache.put(("b", "t"), stamp, '"b"')
    assert cache.get(("a", "t"), stamp) == '"a"'  # now the most recently used
    cache.put(("c", "t"), stamp, '"c"')
    assert len(cache) == 2
    assert cache.get(("b", "t"), stamp) is None
    assert cache.get(("a", "t"), stamp) == '"a"'
    assert cache.get(("a", "t"), (1, 2, 3, 5)) is None  # the file changed
    cache.put(("a", "t"), (1, 2, 3, 5), '"a2"')
    assert len(cache) == 2


def test_two_hundred_clients_at_once(built: dict[str, Path]) -> None:
    clients = 200
    results: list[object] = [None] * clients
    connected = threading.Barrier(clients)

    def client(i: int, address: tuple[str, int]) -> None:
        connection = http.client.HTTPConnection(*address, timeout=120)
        try:
            connection.connect()
            connected.wait(timeout=120)  # every connection open before any request
            connection.request("GET", "/tide-pools.md")
            response = connection.getresponse()
            results[i] = (response.status, response.read().startswith(b"---\ntitle:"))
        except (OSError, threading.BrokenBarrierError) as error:
            results[i] = repr(error)
        finally:
            connection.close()

    with _running(built["/"]) as url:
        threads = [threading.Thread(target=client, args=(i, _address(url)))
                   for i in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
    assert results == [(200, True)] * clients


def test_a_silent_client_is_disconnected_and_frees_its_worker(built: dict[str, Path]) -> None:
    with _running(built["/"], workers=1, timeout=1) as url:
        address = _address(url)
        with socket.create_connection(address, timeout=30) as silent, \
                socket.create_connection(address, timeout=30) as stalled:
            stalled.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finishes its headers
            # One worker: the page is served only once the two above are let go.
            status, _, body = _request(url, "/tide-pools.md")
            assert (status, body.startswith(b"---\ntitle:")) == (200, True)
            assert silent.recv(1) == b""
            assert stalled.recv(1) == b""
        # Between two requests, a kept-alive connection is let go after the timeout too.
        kept = http.client.HTTPConnection(*address, timeout=30)
        try:
            kept.request("GET", "/llms.txt")
            assert kept.getresponse().read().startswith(b"# Coast Guide")
            assert kept.sock is not None
            assert kept.sock.recv(1) == b""
        finally:
            kept.close()


def test_a_kept_alive_connection_holds_no_worker(
        built: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "_KEEP_ALIVE", 600.0)
    with _running(built["/"], workers=1, timeout=600) as url:
        kept = http.client.HTTPConnection(*_address(url), timeout=60)
        try:
            kept.request("GET", "/llms.txt")
            answer = kept.getresponse()
            assert answer.read().startswith(b"# Coast Guide")
            # Told how long it may keep the connection, so it drops it before we do.
            assert answer.getheader("Keep-Alive") == "timeout=600"
            # The kept connection waits for its next request without the one worker: a
            # new client gets it at once, and the kept connection still serves.
            status, _, body = _request(url, "/tide-pools.md")
            assert (status, body.startswith(b"---\ntitle:")) == (200, True)
            kept.request("GET", "/tide-pools.md")
            assert kept.getresponse().read().startswith(b"---\ntitle:")
        finally:
            kept.close()


def test_closing_the_server_hangs_up_on_open_connections(
        built: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "_KEEP_ALIVE", 600.0)
    server = make_server(built["/"], port=0, quiet=True, timeout=600)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    kept = http.client.HTTPConnection(*_address(server.url), timeout=60)
    try:
        kept.request("GET", "/llms.txt")  # answered: a worker now waits for the next one
        assert kept.getresponse().read().startswith(b"# Coast Guide")
        server.shutdown()
        thread.join(timeout=30)
        # Waiting out the client's 600 s would never finish in time: the worker is woken.
        closer = threading.Thread(target=server.server_close)
        closer.start()
        closer.join(timeout=60)
        assert not closer.is_alive()
        assert kept.sock is not None
        assert kept.sock.recv(1) == b""
    finally:
        kept.close()
        server.server_close()


def test_connections_beyond_the_limit_are_closed_not_queued(
        built: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "_MAX_CONNECTIONS", 1)
    with _running(built["/"], workers=1) as url:
        address = _address(url)
        with socket.create_connection(address, timeout=30) as first, \
                socket.create_connection(address, timeout=30) as second:
            assert second.recv(1) == b""  # accepted after the first, and closed at once
            first.sendall(b"GET /llms.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            with first.makefile("rb") as answer:
                assert answer.read().startswith(b"HTTP/1.1 200")  # to the end: closed
        status, _, _ = _request(url, "/llms.txt")  # the first's place is free again
        assert status == 200


def _rss() -> int:
    """This process's resident memory now, in bytes (Linux), else 0."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, ValueError, IndexError):
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE")


def test_slow_clients_hold_no_worker(built: dict[str, Path]) -> None:
    # issue 40: 300 half-requests (or one header byte every 10 s) held all 32 workers and
    # probes waited 35-48 s. Heads are read by one thread: workers get complete requests.
    before = threading.active_count()
    rss = _rss()
    with _running(built["/"], workers=4, timeout=600) as url:
        address = _address(url)
        slow = [socket.create_connection(address, timeout=30) for _ in range(300)]
        try:
            for number, connection in enumerate(slow):
                head = b"GET /llms.txt HTTP/1.1\r\nHost: x\r\nX-Slow: "
                connection.sendall(head[: 10 + number % 20])
            for _ in range(20):  # each answered at once (a 1 s timeout would fail it)
                probe = http.client.HTTPConnection(*address, timeout=1)
                try:
                    probe.request("GET", "/tide-pools.md")
                    answer = probe.getresponse()
                    assert (answer.status, answer.read().startswith(b"---\ntitle:")) == \
                        (200, True)
                finally:
                    probe.close()
            # one worker pool and one head thread, however many clients; memory too
            assert threading.active_count() <= before + 1 + 4 + 1 + 1
            assert _rss() - rss < 64 * 1024 * 1024
        finally:
            for connection in slow:
                connection.close()


def test_a_head_that_never_ends_is_cut_off(built: dict[str, Path],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "_HEAD_SECONDS", 0.5)
    with _running(built["/"], workers=1, timeout=600) as url, \
            socket.create_connection(_address(url), timeout=30) as dripping:
        dripping.sendall(b"GET / HTTP/1.1\r\n")
        for _ in range(8):  # a byte every 0.1 s: alive, but past the head's deadline
            time.sleep(0.1)
            with contextlib.suppress(OSError):
                dripping.sendall(b"X")
        assert dripping.recv(1) == b""
        big = socket.create_connection(_address(url), timeout=30)
        with big:  # a head larger than 64 KiB is refused
            with contextlib.suppress(OSError):
                big.sendall(b"GET / HTTP/1.1\r\nX-Big: " + b"a" * 70_000)
            assert big.recv(1) == b""


def test_an_absurd_if_modified_since_is_answered_normally(built: dict[str, Path]) -> None:
    # issue 40: year 99999999999 dropped the connection with an OverflowError traceback
    with _running(built["/"]) as url:
        for since in ("Sat, 01 Jan 99999999999 00:00:00 GMT", "Mon, 32 Foo -1 99:99:99 GMT"):
            status, _, body = _request(url, "/llms.txt", headers={"If-Modified-Since": since})
            assert status in (200, 304)
            assert (status == 304 or body.startswith(b"# Coast"))


def test_each_view_is_sent_with_the_tokens_its_post_gives(built: dict[str, Path]) -> None:
    site_dir = built["/"]
    site = Site(site_dir.resolve())
    index = json.loads((site_dir / "agentprose.json").read_text(encoding="utf-8"))
    assert index["posts"]
    for post in index["posts"]:
        relative = post["markdown_url"].removeprefix("https://coast.example/")
        answer = _get(site, "/" + relative)
        assert answer.status == 200
        assert answer.header("x-markdown-tokens") == str(post["size"]["tokens"])
        text = (site_dir / relative).read_text(encoding="utf-8")
        assert post["size"]["characters"] == len(text)
    assert _get(site, "/llms.txt").header("x-markdown-tokens") is None
    assert _get(site, "/", "text/html").header("x-markdown-tokens") is None
