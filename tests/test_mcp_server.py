"""``agentprose mcp`` driven by the MCP SDK's own client, over standard input/output
(and once over streamable HTTP): on this project's docs built with MkDocs, on the
example Sphinx project, as folders and as deployed sites on a loopback
``agentprose serve``; split and body-less indexes; what it refuses."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from agentprose_core.cli import main as cli
from agentprose_core.errors import InputError
from agentprose_core.mcp.server import make_server as make_mcp_server
from agentprose_core.mcp.sources import FolderSource
from agentprose_core.serve.server import PreviewServer, make_server

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {"site_info", "search_docs", "list_pages", "get_page", "get_section",
         "table_of_contents", "related_pages"}

Call = tuple[str, dict[str, Any]]
Answer = tuple[str, bool]


async def _session(target: str, calls: list[Call]) -> tuple[list[Any], list[Answer]]:
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "agentprose_core.cli", "mcp", target],
                                   env=dict(os.environ))
    async with stdio_client(params) as streams, ClientSession(*streams[:2]) as session:
        await session.initialize()
        listed = (await session.list_tools()).tools
        answers = []
        for name, arguments in calls:
            result = await session.call_tool(name, arguments)
            answers.append((result.content[0].text, bool(result.is_error)))
        return listed, answers


def run_session(target: str, calls: list[Call]) -> tuple[list[Any], list[Answer]]:
    """List the tools and make ``calls`` in one session with a server for ``target``."""
    return anyio.run(_session, target, calls)


class _Served:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.server: PreviewServer = make_server(folder, port=0, quiet=True)
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.1}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return str(self.server.url)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)


@pytest.fixture
def serve_folder() -> Iterator[Any]:
    started: list[_Served] = []

    def start(folder: Path) -> _Served:
        started.append(_Served(folder))
        return started[-1]

    yield start
    for served in started:
        served.stop()


def _build(kind: str, site: Path, url: str, doctrees: Path) -> None:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", AGENTPROSE_SITE_URL=url)
    if kind == "mkdocs":
        command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", "mkdocs.yml", "-d",
                   str(site)]
    else:
        command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-d", str(doctrees),
                   "-D", f"html_baseurl={url}", "examples/sphinx-site", str(site)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module", params=["mkdocs", "sphinx"])
def demo(request: pytest.FixtureRequest,
         tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Served]:
    """A demo site built with its site URL on a loopback server that serves it."""
    folder = tmp_path_factory.mktemp(request.param) / "site"
    folder.mkdir()
    served = _Served(folder)
    _build(request.param, folder, served.url, folder.parent / "doctrees")
    yield served
    served.stop()


def _index(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "agentprose.json").read_text("utf-8"))
    return data


def _view(folder: Path, base: str, markdown_url: str) -> str:
    return (folder / markdown_url.removeprefix(base)).read_text("utf-8")


def _whole_page(answers: list[Answer], start: int) -> str:
    """The parts of a page, from the answer at ``start`` on, put together."""
    text = ""
    for answer, failed in answers[start:]:
        assert not failed, answer
        footer = re.search(r"\n\n\[Part (\d+) of (\d+): call get_page again with part=\d+ "
                           r"for the rest\.\]\Z", answer)
        text += answer[: footer.start()] if footer else answer
        if footer is None:
            break
    return text


def _listed_urls(answer: str) -> list[str]:
    found = re.findall(r"^ *(?:- |\d+\. )\[[^\]]*\]\((https?://[^)\s]+)\)|"
                       r"^(?:- Base URL: |From [^\n]*\()?(https?://[^\s)]+)\)?:?$",
                       answer, re.MULTILINE)
    return [link or bare for link, bare in found]


def _every_tool(served: _Served, target: str) -> None:
    """Call every tool on the site at ``target`` and hold the answers to the files."""
    data = _index(served.folder)
    base, posts = data["site"]["url"], data["posts"]
    assert base == served.url
    deep = next(post for post in posts if len(post.get("headings", [])) > 2)
    heading = next(h for h in deep["headings"][1:] if "id" in h)
    calls: list[Call] = [
        ("site_info", {}),
        ("list_pages", {"limit": 500}),
        ("search_docs", {"query": deep["title"], "limit": 5}),
        ("table_of_contents", {"url_or_path": deep["url"]}),
        ("get_section", {"url_or_path": deep["url"], "heading": heading["id"]}),
        ("get_section", {"url_or_path": deep["url"], "heading": heading["title"]}),
        ("related_pages", {"url_or_path": deep["url"], "limit": 5}),
        ("get_page", {"url_or_path": "/no/such/page/"}),
    ]
    # Every page, each in as many parts as it takes.
    pages = []
    for post in posts:
        pages.append((post, len(calls)))
        view = _view(served.folder, base, post["markdown_url"])
        calls += [("get_page", {"url_or_path": post["url"], "part": part})
                  for part in range(1, len(view) // 19_000 + 3)]
    listed, answers = run_session(target, calls)
    assert {tool.name for tool in listed} == TOOLS
    assert all(tool.description and len(tool.description) > 40 for tool in listed)
    for (name, _), (answer, failed) in zip(calls[:7], answers, strict=False):
        assert not failed, (name, answer)
        assert len(answer) <= 20_000
        known = {post["url"] for post in posts} | {base}
        for url in _listed_urls(answer):
            assert url.split("#")[0] in known, (name, url)
    info, listing, found, outline, by_id, by_title, related, missing = answers[:8]
    assert f"- Pages: {len(posts)}" in info[0]
    assert listing[0].count("\n- [") == len(posts)
    assert deep["url"] in found[0].split("\n\n")[1]
    assert f"(#{heading['id']})" in outline[0]
    assert by_id == by_title
    assert f"#{heading['id']}):" in by_id[0]
    section_text = by_id[0].split(":\n\n", 1)[1]
    assert section_text in _view(served.folder, base, deep["markdown_url"])
    assert "linked from this page" in related[0] or "links to this page" in related[0]
    assert missing[1]
    assert "is not a page of" in missing[0]
    for post, start in pages:
        assert _whole_page(answers, start) == _view(served.folder, base,
                                                    post["markdown_url"])


def test_every_tool_on_a_built_folder(demo: _Served) -> None:
    _every_tool(demo, str(demo.folder))


def test_every_tool_on_a_deployed_site(demo: _Served) -> None:
    _every_tool(demo, demo.url)


def _split(folder: Path, cut: int) -> None:
    """Split the index after ``cut`` posts into the root file and one part."""
    data = _index(folder)
    rest = {**data, "posts": data["posts"][cut:]}
    (folder / "agentprose-2.json").write_text(json.dumps(rest), encoding="utf-8")
    data["posts"] = data["posts"][:cut]
    data["parts"] = ["agentprose-2.json"]
    (folder / "agentprose.json").write_text(json.dumps(data), encoding="utf-8")


def _without_bodies(folder: Path) -> None:
    data = _index(folder)
    for post in data["posts"]:
        del post["markdown"]
    (folder / "agentprose.json").write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture(scope="module")
def sphinx_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example Sphinx site built for a loopback URL chosen before a server holds it."""
    folder = tmp_path_factory.mktemp("sphinx-copy") / "site"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _build("sphinx", folder, f"http://127.0.0.1:{port}/", folder.parent / "doctrees")
    return folder


@pytest.mark.parametrize("change", [_without_bodies, lambda f: _split(f, 3),
                                    lambda f: (_split(f, 2), _without_bodies(f))],
                         ids=["body-less", "split", "split-body-less"])
@pytest.mark.parametrize("deployed", [False, True], ids=["folder", "url"])
def test_split_and_body_less_indexes(sphinx_copy: Path, tmp_path: Path, serve_folder: Any,
                                     change: Any, deployed: bool) -> None:
    folder = tmp_path / "site"
    shutil.copytree(sphinx_copy, folder)
    change(folder)
    whole = json.loads((sphinx_copy / "agentprose.json").read_text("utf-8"))
    base = whole["site"]["url"]
    target = str(folder)
    if deployed:
        served = serve_folder(folder)
        # The site was built for another port: point the index at this server.
        for name in ("agentprose.json", "agentprose-2.json"):
            path = folder / name
            if path.exists():
                path.write_text(path.read_text("utf-8").replace(base, served.url), "utf-8")
        base = target = served.url
    last = whole["posts"][-1]
    api = next(post for post in whole["posts"] if post["url"].endswith("api.html"))
    _, answers = run_session(target, [
        ("list_pages", {"limit": 100}),
        ("get_page", {"url_or_path": last["url"].removeprefix(whole["site"]["url"])}),
        ("get_section", {"url_or_path": "api.html", "heading": "tidelib.tide_height"}),
        ("search_docs", {"query": "tide_height amplitude"}),
        ("site_info", {}),
    ])
    listing, page, section, found, info = answers
    assert not any(failed for _, failed in answers), [a for a in answers if a[1]]
    assert listing[0].count("\n- [") == len(whole["posts"])
    assert page[0] == _view(folder, base, last["markdown_url"].replace(
        whole["site"]["url"], base))
    assert "Height of the tide" in section[0]
    assert found[0].split("\n")[2].startswith(
        f"1. [API]({api['url'].replace(whole['site']['url'], base)}#tidelib.tide_height)")
    if deployed and "markdown" not in _index(folder)["posts"][0]:
        assert "the index carries no page bodies" in info[0]
    else:
        assert "titles, headings, summaries and page bodies" in info[0]


def test_a_rebuilt_folder_is_read_again_and_a_page_url_finds_its_index(
        tmp_path: Path, sphinx_copy: Path, serve_folder: Any) -> None:
    folder = tmp_path / "site"
    shutil.copytree(sphinx_copy, folder)

    async def session() -> list[str]:
        params = StdioServerParameters(command=sys.executable, args=[
            "-m", "agentprose_core.cli", "mcp", str(folder)], env=dict(os.environ))
        answers = []
        async with stdio_client(params) as streams, ClientSession(*streams[:2]) as client:
            await client.initialize()
            for rebuild in (False, True):
                if rebuild:
                    data = _index(folder)
                    data["site"]["name"] = "Shore notes, rebuilt"
                    del data["posts"][-1]
                    (folder / "agentprose.json").write_text(json.dumps(data), "utf-8")
                for name in ("site_info", "search_docs"):
                    result = await client.call_tool(name, {"query": "rebuilt"}
                                                    if name == "search_docs" else {})
                    answers.append(result.content[0].text)
        return answers

    before, _, after, found = anyio.run(session)
    assert not any(answer.startswith("Error") for answer in (before, after, found))
    assert before.startswith("# Shore notes\n")
    assert after.startswith("# Shore notes, rebuilt\n")
    count = len(_index(sphinx_copy)["posts"])
    assert f"- Pages: {count}" in before
    assert f"- Pages: {count - 1}" in after
    assert "Nothing on Shore notes, rebuilt matches" in found


def test_a_page_url_finds_its_site_s_index(demo: _Served) -> None:
    data = _index(demo.folder)
    page = data["posts"][1]["url"]  # not the root: its agentprose-index link says where
    _, answers = run_session(page, [("site_info", {})])
    assert not answers[0][1], answers
    assert answers[0][0].startswith(f"# {data['site']['name']}\n")
    assert f"- Base URL: {demo.url}" in answers[0][0]


def test_a_broken_or_missing_index_is_a_tool_error_and_the_server_goes_on(
        tmp_path: Path, sphinx_copy: Path) -> None:
    async def session() -> list[Answer]:
        params = StdioServerParameters(command=sys.executable, args=[
            "-m", "agentprose_core.cli", "mcp", str(tmp_path / "site")], env=dict(os.environ))
        answers = []
        async with stdio_client(params) as streams, ClientSession(*streams[:2]) as client:
            await client.initialize()
            for step in ("missing", "broken", "fixed"):
                if step == "broken":
                    (tmp_path / "site").mkdir()
                    (tmp_path / "site" / "agentprose.json").write_text('{"version": 1, "si',
                                                                       "utf-8")
                if step == "fixed":
                    shutil.rmtree(tmp_path / "site")
                    shutil.copytree(sphinx_copy, tmp_path / "site")
                result = await client.call_tool("search_docs", {"query": "tides"})
                answers.append((result.content[0].text, bool(result.is_error)))
        return answers

    missing, broken, fixed = anyio.run(session)
    assert missing[1]
    assert "is not a folder: build the site with the agentprose" in missing[0]
    assert broken[1]
    assert "agentprose.json is not JSON (Unterminated string" in broken[0]
    assert not fixed[1]
    assert "results for 'tides'" in fixed[0]


class _Redirect(BaseHTTPRequestHandler):
    """Sends every request to another origin (a server that would make us a proxy)."""

    def do_GET(self) -> None:
        self.send_response(302)
        self.send_header("Location", "http://127.0.0.2:9/agentprose.json")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def test_urls_on_other_origins_are_refused(tmp_path: Path, sphinx_copy: Path,
                                           serve_folder: Any) -> None:
    redirector = ThreadingHTTPServer(("127.0.0.1", 0), _Redirect)
    threading.Thread(target=redirector.serve_forever, daemon=True).start()
    # An index whose pages are on another origin than the one it was fetched from.
    folder = tmp_path / "site"
    shutil.copytree(sphinx_copy, folder)
    served = serve_folder(folder)
    try:
        _, answers = run_session(f"http://127.0.0.1:{redirector.server_port}/", [
            ("site_info", {})])
        _, elsewhere = run_session(served.url, [("site_info", {})])
    finally:
        redirector.shutdown()
        redirector.server_close()
    assert answers[0][1]
    assert "http://127.0.0.2:9/agentprose.json is not on http://127.0.0.1:" in answers[0][0]
    assert elsewhere[0][1]
    assert "another origin: start the server with that site's URL" in elsewhere[0][0]


def test_the_streamable_http_transport(sphinx_copy: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "agentprose_core.cli", "mcp", str(sphinx_copy), "--http",
         f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    async def session() -> tuple[set[str], str]:
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams, \
                ClientSession(*streams[:2]) as client:
            await client.initialize()
            names = {tool.name for tool in (await client.list_tools()).tools}
            result = await client.call_tool("site_info", {})
            return names, result.content[0].text

    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with socket.socket() as attempt:
                if attempt.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        names, info = anyio.run(session)
    finally:
        process.terminate()
        process.wait(timeout=10)
        assert process.stderr is not None
        process.stderr.close()
    assert names == TOOLS
    assert info.startswith("# Shore notes")


def test_http_listens_on_loopback_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        cli(["mcp", "site", "--http", "0.0.0.0:8808"])
    assert exited.value.code == 2
    assert "is not a loopback address" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli(["mcp", "site", "--http", "8808"])
    assert "is not HOST:PORT, e.g. 127.0.0.1:8808" in capsys.readouterr().err


def test_without_the_sdk_the_message_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "mcp.server.mcpserver", None)
    with pytest.raises(InputError, match=re.escape("pip install 'agentprose[mcp]'")):
        make_mcp_server(FolderSource(tmp_path))


def test_a_huge_body_less_index_and_a_huge_query_end_in_bounded_answers(
        tmp_path: Path, serve_folder: Any) -> None:
    # issue 40: related_pages on a body-less index of 100,000 pages fetched every view
    # (100,000 requests, 73 s); a 1.4 MB query came back echoed in a 1.4 MB answer.
    folder = tmp_path / "site"
    folder.mkdir()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = serve_folder(folder)  # the views are missing: one fetch of them fails the call
    base = served.url
    posts = [{"url": f"{base}p{n}/", "markdown_url": f"{base}p{n}.md", "title": f"Pool {n}",
              "modified": "2026-03-14T10:30:00Z", "section": [f"S{n % 7}"]}
             for n in range(100_000)]
    index = {"version": 1, "generator": "test", "site": {"name": "Huge", "url": base},
             "posts": posts}
    (folder / "agentprose.json").write_text(json.dumps(index), encoding="utf-8")
    del port
    query = "tide " * 280_000  # 1.4 MB
    _, answers = run_session(base, [("related_pages", {"url_or_path": f"{base}p5/"}),
                                    ("search_docs", {"query": query}),
                                    ("get_page", {"url_or_path": query})])
    related, searched, missing = answers
    assert not related[1], related
    assert "Pool" in related[0], related
    assert [len(text) <= 20_000 for text, _ in answers] == [True] * 3, \
        [(len(text), text[:200]) for text, _ in answers]
    assert len(searched[0]) < 2_000 or searched[0].count("tide") < 500, searched[0][:300]
    assert missing[1]
    assert len(missing[0]) <= 20_000


def test_a_call_has_a_request_budget_and_a_deadline(
        tmp_path: Path, serve_folder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 40: give each call an overall deadline and a request budget
    from agentprose_core.mcp import sources

    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "llms.txt").write_text("# Site\n", encoding="utf-8")
    served = serve_folder(folder)
    monkeypatch.setattr(sources, "CALL_REQUESTS", 2)
    source = sources.UrlSource(served.url)
    source.begin_call()
    for _ in range(2):
        assert source.get(served.url + "llms.txt").body == b"# Site\n"
    with pytest.raises(sources.CallLimit, match="2 requests"):
        source.get(served.url + "llms.txt")
    source.begin_call()  # the next call has its own
    assert source.get(served.url + "llms.txt").status == 200
    monkeypatch.setattr(sources, "CALL_SECONDS", 0.0)
    source.begin_call()
    with pytest.raises(sources.CallLimit, match="0 s"):
        source.get(served.url + "llms.txt")
