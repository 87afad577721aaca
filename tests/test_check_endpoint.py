"""``agentprose check`` and an advertised MCP endpoint (issue 44): the server card and
agent skill of a folder or a deployed site (``mcp-files``), and over HTTP the endpoint
itself, called as a client would (``mcp-endpoint``): initialize, list the tools, find a
page by its title, read it. Sites built for a loopback origin and served by
``agentprose serve``, with and without ``--mcp``."""

from __future__ import annotations

import json
import shutil
import threading
import urllib.error
import urllib.request
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest

from agentprose_core.build.postbuild import build_site
from agentprose_core.check.checker import check_site_dir, check_url
from agentprose_core.mcp.http import McpEndpoint
from agentprose_core.mcp.sources import FolderSource
from agentprose_core.render.discovery import SERVER_CARD_NAME, SKILLS_INDEX_NAME
from agentprose_core.serve.server import make_server
from agentprose_core.settings import Settings

from .http_cases import EXAMPLE

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@contextmanager
def _site(tmp_path: Path, *, endpoint: str | None = "/mcp", mcp: bool = True,
          base_path: str = "/") -> Iterator[tuple[str, Path]]:
    """The example site built for the URL it is served at, with ``mcp_endpoint`` set to
    ``endpoint``, served by ``agentprose serve`` (``--mcp`` with ``mcp``)."""
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("README.md"))
    server = make_server(site, port=0, quiet=True, base_path=base_path,
                         endpoint=McpEndpoint(FolderSource(site)) if mcp else None)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        build_site(site, base_url=server.url, settings=Settings(mcp_endpoint=endpoint))
        yield server.url, site
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def test_a_working_endpoint_passes(tmp_path: Path) -> None:
    with _site(tmp_path) as (url, site):
        report = check_url(url, max_pages=3)
        assert check_site_dir(site).problems == []
    assert report.problems == [], report.to_text()
    assert f"The MCP endpoint {url}mcp answered initialize" in " ".join(report.notes)


def test_an_endpoint_that_does_not_answer(tmp_path: Path) -> None:
    with _site(tmp_path, mcp=False) as (url, _):
        report = check_url(url, max_pages=3)
    assert report.rules_broken() == {"mcp-endpoint"}, report.to_text()
    [problem] = report.errors
    assert problem.where == url + "mcp"
    assert problem.message.startswith("initialize: HTTP ")


def test_llms_txt_alone_names_the_endpoint(tmp_path: Path) -> None:
    """A site under a sub-path: no well-known file, its llms.txt names the endpoint."""
    with _site(tmp_path, endpoint="/docs/mcp", base_path="/docs/") as (url, site):
        assert not (site / ".well-known").exists()
        report = check_url(url, max_pages=3)
    assert report.problems == [], report.to_text()
    assert any(f"{url}mcp answered initialize" in note for note in report.notes)


def test_an_endpoint_on_another_origin_is_not_called(tmp_path: Path) -> None:
    with _site(tmp_path, endpoint="https://tools.elsewhere.example/mcp") as (url, _):
        report = check_url(url, max_pages=3)
    assert report.problems == [], report.to_text()
    assert any("tools.elsewhere.example/mcp is on another origin: not called" in note
               for note in report.notes)


def test_files_that_disagree(tmp_path: Path) -> None:
    with _site(tmp_path) as (url, site):
        card_path = site / SERVER_CARD_NAME
        card = json.loads(card_path.read_text(encoding="utf-8"))
        card["remotes"][0]["url"] = url + "other-mcp"
        card_path.write_text(json.dumps(card), encoding="utf-8")
        index = json.loads((site / SKILLS_INDEX_NAME).read_text(encoding="utf-8"))
        skill = site / ".well-known" / "agent-skills" / index["skills"][0]["name"] / "SKILL.md"
        skill.write_text(skill.read_text(encoding="utf-8") + "\nChanged.\n", encoding="utf-8")
        report = check_site_dir(site)
        served = check_url(url, max_pages=3)
    messages = sorted(problem.message for problem in report.errors)
    assert report.rules_broken() == {"mcp-files"}, report.to_text()
    assert messages == ["its digest is not the one index.json gives",
                        f"names the endpoint {url}other-mcp, and llms.txt names {url}mcp"]
    assert served.rules_broken() == {"mcp-files", "mcp-endpoint"}, served.to_text()


def test_serve_mcp_advertises_what_it_serves(tmp_path: Path) -> None:
    """A folder built without ``mcp_endpoint``: ``serve --mcp`` answers the server card
    and the skill for its own endpoint, and the check calls it; without ``--mcp``,
    nothing is advertised."""
    with _site(tmp_path, endpoint=None) as (url, site):
        assert not (site / ".well-known").exists()
        with urllib.request.urlopen(url + SERVER_CARD_NAME, timeout=10) as answer:
            card = json.loads(answer.read())
            assert answer.headers["Content-Type"] == "application/json"
        report = check_url(url, max_pages=3)
    assert card["remotes"][0]["url"] == url + "mcp"
    assert report.problems == [], report.to_text()
    assert any(f"{url}mcp answered initialize" in note for note in report.notes)
    with _site(tmp_path / "plain", endpoint=None, mcp=False) as (url, _), \
            pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(url + SERVER_CARD_NAME, timeout=10)
    with missing.value as error:
        assert error.code == 404
