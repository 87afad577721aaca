"""Pages handed to a real worker and their heads filled in, without Sphinx."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from agentprose_core.build.deferred import BACKLOG, DeferredPages
from agentprose_core.build.pagewise import HeadFill, PageJob, SitePages, marker, write_page
from agentprose_core.model import SiteRecord
from agentprose_core.parallel.pool import WorkerPool
from agentprose_core.records.metadata import PageFacts
from agentprose_core.records.store import RecordStore
from agentprose_core.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://coast.example/docs/"
FILL = HeadFill(marker("0123abcd"))
PAGE = "<html><head>\n<title>T</title>\n{head}\n</head><body><p>Body</p></body></html>"


def _site(tmp_path: Path, names: list[str]) -> SitePages:
    return SitePages(
        outdir=tmp_path / "out", base_url=BASE, settings=Settings(),
        site=SiteRecord(name="Coast", url=BASE),
        site_map={f"{BASE}{name}.html": f"{BASE}{name}.md" for name in names},
        site_digest="d", cache=None, records=RecordStore(tmp_path / "records"),
    )


def _job(name: str) -> PageJob:
    return PageJob(
        docname=name, body=f"<h1>Page {name}</h1><p>About {name}, <a href='b.html'>b</a>.</p>",
        url=f"{BASE}{name}.html", markdown_url=f"{BASE}{name}.md", facts=PageFacts(),
        tool_title=None, modified="2026-01-02T03:04:05Z", section=(), prev=None, next=None,
        lang="en", in_nav=True, metatags="",
    )


def test_filled_puts_the_tags_where_the_marker_was() -> None:
    page = PAGE.format(head=FILL.marker).encode()
    assert FILL.filled(page, "<link x>") == PAGE.format(head="<link x>").encode()
    # No tags: the page is as if nothing had been added to its head.
    assert FILL.filled(page, "") == PAGE.replace("\n{head}\n", "").encode()
    assert FILL.filled(PAGE.format(head="").encode(), "<link x>") is None


def test_filled_writes_what_the_page_s_encoding_cannot_hold_as_references() -> None:
    latin = HeadFill(FILL.marker, "latin-1")
    page = PAGE.format(head=FILL.marker).encode("latin-1")
    filled = latin.filled(page, '<meta content="Maré 潮">')
    assert filled is not None
    assert '<meta content="Maré &#28526;">'.encode("latin-1") in filled


def test_the_worker_writes_the_views_and_fills_each_head_once_it_is_written(
    tmp_path: Path,
) -> None:
    names = ["a", "b", "c"]
    site = _site(tmp_path, names)
    pool = WorkerPool(1)
    try:
        deferred = DeferredPages(pool, site, FILL)
        for name in names:
            page = tmp_path / "out" / f"{name}.html"
            deferred.submit(_job(name), page)
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(PAGE.format(head=FILL.marker))  # as Sphinx writes it, after
        deferred.all_written()
        assert deferred.take(pool.gather()) == []
        assert deferred.finish() == []
        assert deferred.redone == 0
    finally:
        pool.close()
    for name in names:
        here = _site(tmp_path / "here", names)
        tags = write_page(here, _job(name)).tags
        page = (tmp_path / "out" / f"{name}.html").read_text()
        assert page == PAGE.format(head=tags)
        assert (tmp_path / "out" / f"{name}.md").read_bytes() == \
            (tmp_path / "here" / "out" / f"{name}.md").read_bytes()


def test_pages_of_a_worker_that_ended_are_done_here(tmp_path: Path) -> None:
    site = _site(tmp_path, ["a", "b"])
    pool = WorkerPool(1, sys.exit, 3)  # a worker that ends before its first task
    try:
        deferred = DeferredPages(pool, site, FILL)
        for name in ("a", "b"):
            page = tmp_path / "out" / f"{name}.html"
            deferred.submit(_job(name), page)
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(PAGE.format(head=FILL.marker))
        deferred.all_written()
        assert deferred.take(pool.gather()) == []
        assert not deferred.accepts()
        assert deferred.redone == 2
    finally:
        pool.close()
    for name in ("a", "b"):
        assert FILL.marker not in (tmp_path / "out" / f"{name}.html").read_text()
        assert (tmp_path / "out" / f"{name}.md").read_text().startswith("---\n")


def test_a_head_the_worker_answered_for_but_never_filled_is_filled_here(
    tmp_path: Path,
) -> None:
    site = _site(tmp_path, ["a", "b"])
    pages = {name: tmp_path / "out" / f"{name}.html" for name in ("a", "b")}
    pool = WorkerPool(1)
    try:
        deferred = DeferredPages(pool, site, FILL)
        deferred.submit(_job("a"), pages["a"])
        pages["a"].parent.mkdir(parents=True)
        pages["a"].write_text(PAGE.format(head=FILL.marker))
        assert deferred.take(pool.gather()) == []  # its head waits for the next task
        assert FILL.marker in pages["a"].read_text()
        worker = pool._workers[0].process
        worker.kill()
        worker.wait()
        deferred.submit(_job("b"), pages["b"])
        pages["b"].write_text(PAGE.format(head=FILL.marker))
        assert deferred.take(pool.gather()) == []
        assert deferred.redone == 1
    finally:
        pool.close()
    for page in pages.values():
        assert FILL.marker not in page.read_text()


def test_a_worker_that_ended_after_its_last_answer_leaves_that_head_to_finish(
    tmp_path: Path,
) -> None:
    site = _site(tmp_path, ["a"])
    page = tmp_path / "out" / "a.html"
    pool = WorkerPool(1)
    try:
        deferred = DeferredPages(pool, site, FILL)
        deferred.submit(_job("a"), page)
        page.parent.mkdir(parents=True)
        page.write_text(PAGE.format(head=FILL.marker))
        assert deferred.take(pool.gather()) == []
        pool._workers[0].process.kill()
        while pool.alive:  # until its reader has told of its end
            deferred.take(pool.answered(wait=True))
        deferred.all_written()  # sent to no one
        assert deferred.take(pool.gather()) == []
        assert FILL.marker in page.read_text()
        assert deferred.finish() == []
    finally:
        pool.close()
    assert FILL.marker not in page.read_text()


def test_backlogged_once_the_worker_is_that_many_pages_behind(tmp_path: Path) -> None:
    site = _site(tmp_path, ["a"])
    pool = WorkerPool(1)
    try:
        deferred = DeferredPages(pool, site, FILL)
        for number in range(BACKLOG):
            assert not deferred.backlogged
            deferred.submit(_job("a"), tmp_path / f"{number}.html")
        assert deferred.backlogged
        deferred.take(pool.answered(wait=True))
        deferred.take(pool.gather())
        assert not deferred.backlogged
    finally:
        pool.close()
