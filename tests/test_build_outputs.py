"""A build's views and site files written by a worker (MkDocs' path after ``on_env``):
the same bytes and notes as written here; a file the tool also wrote is ours at the end."""

from __future__ import annotations

import dataclasses
import pickle
import sys
import time
import tracemalloc
from typing import TYPE_CHECKING

import pytest

from agentprose_core.build import outputs
from agentprose_core.build.outputs import OutputsJob, SentOutputs, write_outputs
from agentprose_core.model import Heading, PageRecord, SiteRecord
from agentprose_core.output import publish
from agentprose_core.parallel.pool import WorkerPool
from agentprose_core.settings import Settings

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

BASE = "https://coast.example/docs/"
SITE = SiteRecord(name="Côte", url=BASE, lang="fr")


def _page(name: str, markdown: str) -> PageRecord:
    return PageRecord(url=f"{BASE}{name}/", markdown_url=f"{BASE}{name}.md", title=name.title(),
                      modified="2026-01-02T03:04:05Z", markdown=markdown, summary="Été.",
                      headings=(Heading(2, "vie", "Vie"),), section=("Guide",))


PAGES = (
    _page("pools", "# Marées\n\n## Vie\n\nVoir [rochers](" + BASE + "rocks/).\n"),
    _page("rocks", "# Rochers\n\nCrabes, ascii only.\n"),
)


def _job(folder: Path) -> OutputsJob:
    return OutputsJob(folder, SITE, PAGES, Settings(), "agentprose (test)",
                      [("Guide", [page.url for page in PAGES])])


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    workers = WorkerPool(1)
    yield workers
    workers.close()


def test_a_sent_job_keeps_no_page_markdown_as_str(pool: WorkerPool, tmp_path: Path) -> None:
    # The tool's process holds the job's records until the build ends: their Markdown
    # goes apart, UTF-8 where it is not ASCII, and sending it does not grow the records
    # (CPython keeps a UTF-8 copy inside a non-ASCII str it pickled, for the str's life).
    job = _job(tmp_path / "site")
    markdown = job.records[0].markdown
    size = sys.getsizeof(markdown)
    sent = SentOutputs(pool, job, others=[])
    assert [record.markdown for record in sent.job.records] == ["", ""]
    assert sent.markdown == (markdown.encode(), PAGES[1].markdown)  # ASCII: the str itself
    assert sent.job == dataclasses.replace(job, records=tuple(
        dataclasses.replace(record, markdown="") for record in PAGES))
    sent.written()
    assert sys.getsizeof(markdown) == size
    pickle.dumps(job.records, protocol=pickle.HIGHEST_PROTOCOL)  # the records as they are
    assert sys.getsizeof(markdown) > size


def test_the_worker_writes_what_writing_here_writes(
        tmp_path: Path, pool: WorkerPool, monkeypatch: pytest.MonkeyPatch) -> None:
    here = write_outputs(None, _job(tmp_path / "here"))

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("written in the tool's process")

    monkeypatch.setattr(publish, "publish", refuse)  # this process only: not the worker
    written = SentOutputs(pool, _job(tmp_path / "worker"), others=["pools/index.html"]).written()
    assert written == here
    assert [note.code for note in written.diagnostics] == ["link-not-view"]
    assert _files(tmp_path / "worker") == _files(tmp_path / "here")
    assert {"pools.md", "llms.txt", "agentprose.json"} <= set(written.files)


def test_a_file_the_tool_wrote_over_ours_is_ours_again(tmp_path: Path, pool: WorkerPool) -> None:
    # MkDocs copies the docs' other files while the worker writes: one that lands where
    # one of ours goes after ours did must not be what the site ends with.
    here = write_outputs(None, _job(tmp_path / "here"))
    site = tmp_path / "worker"
    sent = SentOutputs(pool, _job(site), others=["llms.txt", "pools/index.html"])
    deadline = time.monotonic() + 60
    while not (site / "agentprose.json").is_file():  # written after llms.txt's views
        assert time.monotonic() < deadline, "the worker wrote nothing"
        time.sleep(0.01)
    (site / "llms.txt").write_text("# Someone else's\n", encoding="utf-8")
    assert sent.written() == here
    assert _files(site) == _files(tmp_path / "here")


def test_a_job_whose_worker_ended_is_written_here(tmp_path: Path) -> None:
    ended = WorkerPool(1)
    ended.submit(outputs.write_outputs, _job(tmp_path / "first"))
    ended.release()  # the worker ends after that task: the next is never answered
    try:
        written = SentOutputs(ended, _job(tmp_path / "site"), others=[]).written()
    finally:
        ended.close()
    assert written == write_outputs(None, _job(tmp_path / "again"))
    assert _files(tmp_path / "site") == _files(tmp_path / "again")


def test_sending_a_job_holds_its_markdown_once(pool: WorkerPool, tmp_path: Path) -> None:
    # The job keeps each page's Markdown as UTF-8 (40 MiB here, for writing here if the
    # worker fails); pickled with a memo, every page's would be held once more until the
    # whole job was sent.
    pages = tuple(_page(f"p{number}", "é" + "x" * 200_000 + str(number)) for number in range(200))
    job = OutputsJob(tmp_path / "site", SITE, pages, Settings(llms_full_txt=False, index=False),
                     "agentprose (test)", [])
    tracemalloc.start()
    try:
        sent = SentOutputs(pool, job, others=[])
        kept = sum(sys.getsizeof(text) for text in sent.markdown)
        sent.written()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert kept > 200 * 200_000
    assert peak < kept + 8 * 2**20, (peak, kept)


def test_a_partial_builds_settings_write_the_views_and_no_site_file(tmp_path: Path) -> None:
    # A dirty build that rendered only some pages would list only those in the site files.
    settings = Settings(quiet=("no-git",), directive=False)
    partial = outputs.views_only(settings)
    assert dataclasses.replace(partial, index=True, llms_txt=True, llms_full_txt=True,
                               host=settings.host) == settings
    written = write_outputs(None, dataclasses.replace(_job(tmp_path / "site"), settings=partial))
    assert set(_files(tmp_path / "site")) == {"pools.md", "rocks.md"} == set(written.files)
