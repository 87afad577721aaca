"""``agentprose-search.json`` (issue 44): written with ``mcp_endpoint``, valid under its
schema, the same bytes from both tools for the same pages, and ranking exactly as the
index an MCP server builds from ``agentprose.json`` itself: the same posts, scores and
links for every query. A stale or broken file is left unread."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import jsonschema
import pytest

from agentprose_core.mcp import tools
from agentprose_core.mcp.server import Reading
from agentprose_core.mcp.sources import FolderSource
from agentprose_core.render.searchfile import SEARCH_NAME, load_search_schema
from agentprose_core.search.index import SearchIndex, document_of
from agentprose_core.search.links import links_between
from agentprose_core.search.stored import stored_search
from agentprose_core.search.terms import terms

if TYPE_CHECKING:
    from agentprose_core.mcp.site import LoadedSite

ROOT = Path(__file__).resolve().parent.parent
URL = "https://docs.example/"


def _mkdocs(site: Path) -> None:
    """This project's docs, with the endpoint set (a config beside ``mkdocs.yml``)."""
    config = ROOT / f"mkdocs.search-{uuid.uuid4().hex}.yml"
    config.write_text("INHERIT: mkdocs.yml\nplugins:\n  - search\n  - agentprose:\n"
                      "      mcp_endpoint: /mcp\n", encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f",
                               str(config), "-d", str(site)], cwd=ROOT, capture_output=True,
                              text=True, check=False, timeout=600,
                              env=dict(os.environ, AGENTPROSE_SITE_URL=URL))
    finally:
        config.unlink()
    assert done.returncode == 0, done.stderr


def _sphinx(site: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "dirhtml", "-D",
                           f"html_baseurl={URL}", "-D", "agentprose_mcp_endpoint=/mcp",
                           "-d", str(site.parent / "doctrees"), "examples/sphinx-site",
                           str(site)], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=600)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module", params=["mkdocs", "sphinx"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    site = tmp_path_factory.mktemp(request.param) / "site"
    (_mkdocs if request.param == "mkdocs" else _sphinx)(site)
    return site


def _queries(site: LoadedSite) -> list[str]:
    """Every title, and a spread of the site's words, identifiers and pairs of them."""
    words = sorted({word for post in site.posts for word in
                    (post.markdown or "").replace("`", " ").split()
                    if word.strip(".,:;()[]*").isidentifier()})
    picked = words[:: max(1, len(words) // 150)]
    pairs = [f"{a} {b}" for a, b in zip(picked, picked[7:], strict=False)][:60]
    return [post.title for post in site.posts] + picked + pairs + ["", "zzzz no such word"]


def test_the_file_ranks_exactly_as_the_index_built_from_agentprose_json(built: Path) -> None:
    data = json.loads((built / SEARCH_NAME).read_text(encoding="utf-8"))
    jsonschema.validate(data, load_search_schema())
    reading = Reading(FolderSource(built))
    site = reading.site
    stored = stored_search(data, [post.url for post in site.posts])
    assert stored is not None
    index, links = stored
    bodies = [reading.body(post) for post in site.posts]
    rebuilt = SearchIndex.build([
        document_of(post.title, [(h.title, h.id) for h in post.headings], post.summary, body)
        for post, body in zip(site.posts, bodies, strict=True)])
    assert rebuilt.to_data() == index.to_data()
    assert links == links_between([(p.url, p.markdown_url) for p in site.posts], bodies)
    assert any(links), "the docs link between their pages"
    queries = _queries(site)
    assert len(queries) > 150
    for query in queries:
        assert index.search(query, 20) == rebuilt.search(query, 20), query
    assert sum(bool(index.search(query, 20)) for query in queries) > len(queries) * 0.9
    assert reading.search_index().to_data() == index.to_data()  # the server read the file
    for post in site.posts[:10]:
        assert tools.related_pages(site, index, links, post) == tools.related_pages(
            site, rebuilt, links, post)


def test_a_stale_or_broken_file_is_left_unread(built: Path) -> None:
    data = json.loads((built / SEARCH_NAME).read_text(encoding="utf-8"))
    urls = data["posts"]
    assert stored_search(data, urls) is not None
    assert stored_search(data, urls[1:]) is None  # another build's index
    assert stored_search({**data, "version": 2}, urls) is None
    broken = {**data, "terms": {**data["terms"], "crab": [[0, 1], [5]]}}
    assert stored_search(broken, urls) is None
    assert stored_search({**data, "links": data["links"][:-1]}, urls) is None
    assert stored_search("not json", urls) is None


def test_answers_are_the_same_with_and_without_the_file(built: Path, tmp_path: Path) -> None:
    with_file = Reading(FolderSource(built))
    queries = [*[post.title for post in with_file.site.posts][:15], "install", "search_docs"]
    before = [tools.search_docs(with_file.site, with_file.search_index(), with_file.body, q)
              for q in queries if terms(q)]
    (built / SEARCH_NAME).rename(tmp_path / SEARCH_NAME)
    try:
        without = Reading(FolderSource(built))
        after = [tools.search_docs(without.site, without.search_index(), without.body, q)
                 for q in queries if terms(q)]
    finally:
        (tmp_path / SEARCH_NAME).rename(built / SEARCH_NAME)
    assert before == after


def test_no_endpoint_no_file(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", "-D",
                           f"html_baseurl={URL}", "-d", str(tmp_path / "doctrees"),
                           "examples/sphinx-site", str(site)], cwd=ROOT, capture_output=True,
                          text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (site / "agentprose.json").is_file()
    assert not (site / SEARCH_NAME).exists()
