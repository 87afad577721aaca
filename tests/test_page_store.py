"""MkDocs' page store: the pages of the last complete build, for a dirty build in a new
process (tests/test_mkdocs_dirty.py builds with it)."""

from __future__ import annotations

import threading
from pathlib import Path

from agentprose_core.build.assemble import CollectedPage
from agentprose_core.build.pagestore import PageStore


def _pages(count: int) -> dict[str, CollectedPage]:
    return {f"p{n}.md": CollectedPage(url=f"https://x.org/p{n}/", source=f"p{n}.md",
                                      content_html=f"<p>Page {n}</p>",
                                      metadata={"title": f"P{n}", "tags": ["a"]},
                                      source_file=Path(f"/docs/p{n}.md"))
            for n in range(count)}


def test_the_pages_come_back_as_they_were_kept(tmp_path: Path) -> None:
    store = PageStore(tmp_path / "cache" / "pages.pickle")
    assert store.load() == {}  # nothing kept yet
    pages = _pages(30)
    assert store.save(pages)
    assert store.load() == pages
    assert store.save({})
    assert store.load() == {}


def test_pages_that_do_not_pickle_leave_no_store(tmp_path: Path) -> None:
    store = PageStore(tmp_path / "pages.pickle")
    assert store.save(_pages(3))
    odd = CollectedPage(url="https://x.org/", source="index.md", content_html="",
                        metadata={"lock": threading.Lock()})  # front matter from a hook
    assert not store.save({**_pages(3), "index.md": odd})
    assert not store.path.exists()  # not the older pages: they would not match the site
    assert store.load() == {}
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_store_cut_short_or_of_another_version_is_empty(tmp_path: Path) -> None:
    store = PageStore(tmp_path / "pages.pickle")
    assert store.save(_pages(10))
    data = store.path.read_bytes()
    store.path.write_bytes(data[: len(data) // 2])
    assert store.load() == {}
    store.path.write_bytes(b"not a pickle")
    assert store.load() == {}
