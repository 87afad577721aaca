"""What a build knows of the whole site before Sphinx writes any page: the
:class:`Plan` the event handlers share (on the app, inherited by forked writers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .order import ReadingOrder

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from agentprose_core.build.deferred import DeferredPages, WorkerPool
    from agentprose_core.build.incremental import LastChanged
    from agentprose_core.build.pagewise import ConversionCache, RecordStore, SitePages
    from agentprose_core.build.sitejob import ListingPage
    from agentprose_core.languages import SiteLanguages
    from agentprose_core.location import SiteLocation
    from agentprose_core.settings import Settings

    from .generated import GeneratedApi

__all__ = ["Plan", "plan_of"]


@dataclass
class Plan:
    """What the writer needs to know about the whole site before writing any page."""

    settings: Settings
    base_url: str
    records: RecordStore
    location: SiteLocation
    order: ReadingOrder = field(default_factory=ReadingOrder)
    views: dict[str, str] = field(default_factory=dict)  # docname -> view URL
    site_map: dict[str, str] = field(default_factory=dict)  # page key -> view URL
    neighbours: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    scopes: tuple[tuple[str, str], ...] = ()  # sections with an llms.txt of their own
    languages: SiteLanguages | None = None  # on a site built once per language
    last_changed: LastChanged | None = None
    cache: ConversionCache | None = None
    pool: WorkerPool | None = None  # the one worker of a serial or incremental build
    pages: SitePages | None = None  # what every page's outputs share
    deferred: DeferredPages | None = None  # pages handed to the worker
    written: set[str] = field(default_factory=set)  # documents this build writes
    rebuild: bool = False  # of a site Sphinx built before: its worker starts early
    media: frozenset[str] | None = None  # images and downloads: they date no page
    generated: GeneratedApi | None = None  # API sources the build writes, and their code
    listings: dict[str, tuple[str, ...]] = field(default_factory=dict)  # blog pages: posts
    listing_pages: dict[str, ListingPage] = field(default_factory=dict)  # written now


def plan_of(app: Sphinx) -> Plan | None:
    """The build's plan, or None where agentprose writes nothing (another builder, a
    mistake in conf.py, ``enabled = False``)."""
    plan: Plan | None = getattr(app, "agentprose_plan", None)
    return plan
