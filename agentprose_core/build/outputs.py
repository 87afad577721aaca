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
from typing import TYPE_CHECKING, Any

from agentprose_core.model import PageRecord
from agentprose_core.parallel.pool import Failed
from agentprose_core.parallel.wire import from_wire, to_wire

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from agentprose_core.diagnostics import Diagnostic
    from agentprose_core.model import SiteRecord
    from agentprose_core.parallel.pool import WorkerPool
    from agentprose_core.settings import Settings

__all__ = ["OutputsJob", "SentOutputs", "Written", "write_outputs"]


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

    def __reduce__(self) -> tuple[Any, ...]:
        # Each page's Markdown as UTF-8 bytes (see parallel.wire): pickled as it is, the
        # tool would keep a UTF-8 copy of every page's Markdown until the build ends.
        fields = {field.name: getattr(self, field.name) for field in dataclasses.fields(self)}
        fields["records"] = tuple(_WiredRecord(record) for record in self.records)
        return (_job, (fields,))


class _WiredRecord:
    """A record pickled with its Markdown through :func:`~.parallel.wire.to_wire`, one
    at a time (the pool pickles without a memo: see its writer)."""

    __slots__ = ("record",)

    def __init__(self, record: PageRecord) -> None:
        self.record = record

    def __reduce__(self) -> tuple[Any, ...]:
        return (_record, ({**vars(self.record), "markdown": ""}, to_wire(self.record.markdown)))


def _record(fields: dict[str, Any], markdown: str | bytes) -> PageRecord:
    return PageRecord(**{**fields, "markdown": from_wire(markdown)})


def _job(fields: dict[str, Any]) -> OutputsJob:
    return OutputsJob(**fields)  # its records come back as PageRecords (_record)


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
    files the tool writes meanwhile (paths relative to the job's ``site_dir``)."""

    def __init__(self, pool: WorkerPool, job: OutputsJob, others: Sequence[str]) -> None:
        self.pool = pool
        self.job = job
        self.others = frozenset(others)
        self.ticket = pool.submit(write_outputs, job)

    def written(self) -> Written:
        """What the worker wrote, once it is done; written here instead when the worker
        failed (an error is raised here then) or wrote a file the tool wrote too."""
        answer = self.pool.gather().get(self.ticket, Failed("no answer"))
        if isinstance(answer, Written) and not self.others.intersection(answer.files):
            return answer
        return write_outputs(None, self.job)
