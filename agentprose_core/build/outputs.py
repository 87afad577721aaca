"""The views and site files of a collect-then-assemble build, written by a worker while
the tool writes its pages.

Once MkDocs has called ``on_env`` every record is final (unless the site has listing
pages, whose views come from the pages as the theme writes them), and MkDocs spends the
rest of the build writing pages on one CPU while the workers sit idle. So the views,
``agentprose.json``, ``llms.txt`` and the rest are handed to a worker then, and
``on_post_build`` only takes its answer: the same :func:`~.output.publish.publish`, the
same bytes, off MkDocs' path (0.9 ms a page at 10,000 pages, 80-110 ms of an 80-page
Material site).

MkDocs copies the site's static files and writes its templates meanwhile: if one of them
lands where one of our files does, ours are written again when the build ends, so ours
win, as when they were written last.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentprose_core.parallel.pool import Failed
from agentprose_core.parallel.wire import from_wire, to_wire

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.parallel.pool import WorkerPool
    from agentprose_core.settings import Settings

__all__ = ["OutputsJob", "SentOutputs", "Written", "views_only", "write_outputs", "write_wired"]


@dataclass(frozen=True)
class OutputsJob:
    """Everything :func:`write_outputs` needs: the arguments of
    :func:`~agentprose_core.output.publish.publish`."""

    site_dir: Path
    site: SiteRecord
    records: tuple[PageRecord, ...]
    settings: Settings
    generator: str
    llms_sections: Sequence[tuple[str, Sequence[str]]]


def views_only(settings: Settings) -> Settings:
    """``settings`` that write the views and no site file: after a dirty build that
    rendered pages this process never had the others of, the site files would list only
    the changed pages."""
    return dataclasses.replace(settings, index=False, llms_txt=False, llms_full_txt=False,
                               host="none")


def _with_markdown(job: OutputsJob, markdown: Sequence[str | bytes]) -> OutputsJob:
    """``job`` with each record's Markdown back, from :func:`~.parallel.wire.to_wire`."""
    records = tuple(dataclasses.replace(record, markdown=from_wire(text))
                    for record, text in zip(job.records, markdown, strict=True))
    return dataclasses.replace(job, records=records)


def write_wired(_state: object, job: OutputsJob, markdown: Sequence[str | bytes]) -> Written:
    """:func:`write_outputs` of a job sent with its records' Markdown apart (a worker's
    task: see :class:`SentOutputs`)."""
    return write_outputs(None, _with_markdown(job, markdown))


@dataclass(frozen=True)
class Written:
    """What :func:`write_outputs` wrote: the views, every file's path (relative to
    ``site_dir``, the views' too) and the notes."""

    views: int
    files: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]


def write_outputs(_state: object, job: OutputsJob) -> Written:
    """Write a build's views and site files, as a worker's task or here (the first
    argument, a worker's state, is unused). Raises :class:`~.errors.AgentproseError`
    when they can't be written."""
    # Imported here: with a worker, the tool's process never loads the renderers.
    from agentprose_core.output.publish import publish

    published = publish(job.site_dir, job.site, job.records, settings=job.settings,
                        generator=job.generator, llms_sections=job.llms_sections)
    return Written(len(published.pages), tuple(published.files), tuple(published.diagnostics))


class SentOutputs:
    """One build's :class:`OutputsJob`, sent to a worker of ``pool``; ``others`` are the
    files the tool writes meanwhile (paths relative to the job's ``site_dir``). Its
    ``job`` is the one sent: the records without their Markdown, which ``markdown``
    holds apart, in the records' order."""

    def __init__(self, pool: WorkerPool, job: OutputsJob, others: Sequence[str]) -> None:
        self.pool = pool
        self.others = frozenset(others)
        # The records without their Markdown, which goes apart, as UTF-8 where it is not
        # ASCII (:mod:`~.parallel.wire`): the tool's process needs no page's Markdown
        # while it writes the pages (head tags are made from the rest), and a str of text
        # beyond Latin-1 takes two or four bytes a character (griffe's 81 pages: 6.7 MiB
        # as str, 3.1 as UTF-8). Kept for writing here if the worker fails.
        self.markdown = tuple(to_wire(record.markdown) for record in job.records)
        self.job = dataclasses.replace(job, records=tuple(
            dataclasses.replace(record, markdown="") for record in job.records))
        self.ticket = pool.submit(write_wired, self.job, self.markdown)

    def written(self) -> Written:
        """What the worker wrote, once it is done; written here instead when the worker
        failed (an error is raised here then) or wrote a file the tool wrote too."""
        answer = self.pool.gather().get(self.ticket, Failed("no answer"))
        if isinstance(answer, Written) and not self.others.intersection(answer.files):
            return answer
        return write_outputs(None, _with_markdown(self.job, self.markdown))
