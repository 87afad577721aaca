"""The collect-then-assemble build session (MkDocs' strategy) on strings and small
records, without MkDocs: what the plugin hands it, what it hands back and writes.
Real MkDocs builds through the plugin are in test_mkdocs_plugin.py and
test_mkdocs_dirty.py."""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

import pytest

from agentprose_core.build.assemble import CollectedPage, SiteSources
from agentprose_core.build.collect import CollectingBuild
from agentprose_core.build.pagestore import UnrenderedPage
from agentprose_core.location import SiteLocation
from agentprose_core.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://x.org/"
WHEN = 1_773_484_200  # 2026-03-14T10:30:00Z


def _sources(tmp_path: Path) -> SiteSources:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    for name in ("index.md", "tide.md", "secret.md", "blog.md", "post.md"):
        (docs / name).write_text("x", encoding="utf-8")
        os.utime(docs / name, (WHEN, WHEN))
    return SiteSources(docs)


def _page(tmp_path: Path, source: str, html: str, **fields: object) -> CollectedPage:
    url = BASE if source == "index.md" else f"{BASE}{source[:-3]}/"
    return CollectedPage(url=url, source=source, content_html=html,
                         source_file=tmp_path / "docs" / source, **fields)  # type: ignore[arg-type]


def _start(tmp_path: Path, *, dirty: bool = False, cache: bool = False,
           pages: dict[str, str] | None = None) -> CollectingBuild:
    build = CollectingBuild(dirty=dirty)
    build.configure(Settings(workers=False, cache=cache), location=SiteLocation(BASE),
                    sources=_sources(tmp_path), cache_dir=tmp_path / "cache" if cache else None)
    pages = pages or {"index.md": BASE, "tide.md": f"{BASE}tide/",
                      "secret.md": f"{BASE}secret/"}
    build.plan(list(pages), pages, docs_dir=tmp_path / "docs", fallback=tmp_path)
    return build


_INDEX = '<h1>Coast</h1>\n<p>See <a href="tide/">tides</a> and <a href="secret/">this</a>.</p>'
_TIDE = "<h1>Tides</h1>\n<p>Twice a day.</p>"


def test_a_build_assembles_decorates_and_publishes(tmp_path: Path) -> None:
    build = _start(tmp_path)
    build.collect(_page(tmp_path, "index.md", _INDEX))
    build.collect(_page(tmp_path, "tide.md", _TIDE))
    build.collect(_page(tmp_path, "secret.md", "<h1>Secret</h1>",
                        metadata={"agentprose": False}))
    build.assemble({}, [], name="Coast", description="Tide pools.", lang="en")
    assert sorted(build.records) == [BASE, f"{BASE}tide/"]
    page = build.decorate("tide.md", "<html><head></head><body>x</body></html>",
                          written=tmp_path / "site" / "tide" / "index.html", kind=None)
    assert page is not None
    assert 'type="text/markdown" href="https://x.org/tide.md"' in page
    assert build.decorate("secret.md", "<html></html>", written=tmp_path, kind=None) \
        == "<html></html>"  # no view, no tags

    published = build.publish(tmp_path / "site", generator="test")
    site = tmp_path / "site"
    assert (published.views, published.partial) == (2, False)
    index = (site / "index.md").read_text(encoding="utf-8")
    # the page left out by its front matter is linked from no view
    assert "[tides](https://x.org/tide.md)" in index
    assert "this." in index
    assert "secret" not in index
    assert 'modified: "2026-03-14T10:30:00Z"' in index  # the source's time, not the clock
    listed = json.loads((site / "agentprose.json").read_text(encoding="utf-8"))
    assert [page["url"] for page in listed["posts"]] == [BASE, f"{BASE}tide/"]
    assert any(note.code == "no-view" for note in published.diagnostics)
    assert build.records == {}
    assert build.assembled is None


def test_a_page_another_plugin_finishes_later_is_converted_as_finished(tmp_path: Path) -> None:
    build = _start(tmp_path)
    build.collect(_page(tmp_path, "index.md", "<h1>Coast</h1>\n<p><autoref>Tides</autoref></p>"))
    build.collect(_page(tmp_path, "tide.md", _TIDE))
    assert build.held == {"index.md"}
    # Not kept until then: alive beside the finished HTML, it would double the site's HTML
    assert build.pages["index.md"].content_html == ""
    build.assemble({"index.md": '<h1>Coast</h1>\n<p><a href="tide/">Tides</a></p>',
                    "tide.md": _TIDE}, [], name="Coast", description=None, lang=None)
    assert "[Tides](https://x.org/tide.md)" in build.records[BASE].markdown
    assert "autoref" not in build.records[BASE].markdown


def test_a_dirty_build_takes_the_pages_it_did_not_render_from_the_last(tmp_path: Path) -> None:
    first = _start(tmp_path, dirty=True, cache=True)
    for source, html in (("index.md", _INDEX), ("tide.md", _TIDE), ("secret.md", "<p>s</p>")):
        first.collect(_page(tmp_path, source, html))
    first.assemble({}, [], name="Coast", description=None, lang="en")
    first.publish(tmp_path / "site", generator="test")

    # The next build of the same process renders one page: the others are the last's.
    first.configure(first.settings, location=SiteLocation(BASE), sources=first.sources,
                    cache_dir=tmp_path / "cache")
    first.plan(["index.md", "tide.md", "secret.md"],
               {"index.md": BASE, "tide.md": f"{BASE}tide/", "secret.md": f"{BASE}secret/"},
               docs_dir=tmp_path / "docs", fallback=tmp_path)
    first.collect(_page(tmp_path, "tide.md", "<h1>Tides</h1>\n<p>Twice a day, mostly.</p>"))
    unrendered = [UnrenderedPage(source, tmp_path / "site" / name, ("Guide",), True)
                  for source, name in (("index.md", "index.html"),
                                       ("secret.md", "secret/index.html"))]
    first.assemble({}, unrendered, name="Coast", description=None, lang="en")
    assert not first.partial
    assert first.records[BASE].section == ("Guide",)  # today's nav
    assert "mostly" in first.records[f"{BASE}tide/"].markdown

    # A new process with no page store has only the page it rendered: a partial build
    # writes its views and leaves the site files as they were.
    (tmp_path / "cache" / "pages.pickle").unlink()
    fresh = _start(tmp_path, dirty=True, cache=True)
    fresh.collect(_page(tmp_path, "tide.md", _TIDE))
    fresh.assemble({}, unrendered, name="Coast", description=None, lang="en")
    before = (tmp_path / "site" / "agentprose.json").read_bytes()
    (tmp_path / "site" / "agentprose.json").write_text("kept", encoding="utf-8")
    published = fresh.publish(tmp_path / "site", generator="test")
    assert published.partial
    assert published.views == 1
    assert (tmp_path / "site" / "agentprose.json").read_text(encoding="utf-8") == "kept"
    assert before != b"kept"


def test_a_listing_page_gets_the_view_the_theme_wrote(tmp_path: Path) -> None:
    pages = {"blog.md": f"{BASE}blog/", "post.md": f"{BASE}post/"}
    build = _start(tmp_path, pages=pages)
    build.collect(_page(tmp_path, "blog.md", "<h1>Blog</h1>", lists=(f"{BASE}post/",)))
    build.collect(_page(tmp_path, "post.md", "<h1>Low tide</h1>\n<p>Rocks.</p>",
                        metadata={"date": "2026-01-02"}))
    build.assemble({}, [], name="Coast", description=None, lang=None)
    written = ('<html><head></head><body><main><h1>Blog</h1><article><h2><a href="../post/">'
               "Low tide</a></h2><p>Rocks.</p></article></main></body></html>")
    page = build.decorate("blog.md", written, written=tmp_path / "blog.html", kind=None)
    assert page is not None
    listing = build.records[f"{BASE}blog/"]
    assert "[Low tide](https://x.org/post.md)" in listing.markdown
    assert listing.modified == build.records[f"{BASE}post/"].modified


@pytest.mark.parametrize("workers", [False, True])
def test_closing_a_session_stops_its_workers(tmp_path: Path, workers: bool) -> None:
    build = CollectingBuild()
    build.configure(Settings(workers=workers, cache=False), location=SiteLocation(BASE),
                    sources=_sources(tmp_path), cache_dir=None)
    build.abandon()
    assert build.pool is None
    assert build.background is None


def test_sent_to_a_worker_the_records_keep_no_markdown_and_the_views_all_of_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # one worker, on any machine
    build = CollectingBuild()
    build.configure(Settings(workers=True, cache=False), location=SiteLocation(BASE),
                    sources=_sources(tmp_path), cache_dir=None)
    pages = {"index.md": BASE, "tide.md": f"{BASE}tide/"}
    build.plan(list(pages), pages, docs_dir=tmp_path / "docs", fallback=tmp_path)
    try:
        build.collect(_page(tmp_path, "index.md", _INDEX))
        build.collect(_page(tmp_path, "tide.md", "<h1>Tides</h1>\n<p>Twice a day → ebb.</p>"))
        build.assemble({}, [], name="Coast", description=None, lang="en")
        build.publish_ahead(tmp_path / "site", generator="test", others=[])
        assert build.outputs is not None
        assert build.assembled is not None
        # Held as sent: the head tags need no Markdown, and the worker has it
        assert [record.markdown for record in build.assembled.records] == ["", ""]
        page = build.decorate("tide.md", "<html><head></head><body>x</body></html>",
                              written=tmp_path / "site" / "tide" / "index.html", kind=None)
        assert page is not None
        assert 'href="https://x.org/tide.md"' in page
        published = build.publish(tmp_path / "site", generator="test")
    finally:
        build.close()
    assert published.views == 2
    assert "Twice a day → ebb." in (tmp_path / "site" / "tide.md").read_text(encoding="utf-8")
    full = (tmp_path / "site" / "llms-full.txt").read_text(encoding="utf-8")
    assert "Twice a day → ebb." in full
    assert "[tides](https://x.org/tide.md)" in full
