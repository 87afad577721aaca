"""Pages Sphinx would not write again that agentprose must: an incremental build
(``sphinx-build`` without ``-E``, sphinx-autobuild) reads only the documents whose
files changed, so a commit (which changes a page's date, not its file) or a deleted
page (whose view others link) would leave views, the index and JSON-LD out of date.

At ``env-get-outdated`` they are handed back to Sphinx to read and write again, the
normal way. Both checks run only when there is something to check: a page removed,
or a repository at another commit than the last build's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from agentprose_core.build.incremental import content_dependencies, outdated_documents
from agentprose_core.build.pagewise import read_metadata

from .blogs import page_metadata
from .generated import generated_api

if TYPE_CHECKING:
    from collections.abc import Collection

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .plan import Plan

__all__ = ["content_files", "media_files", "outdated_pages", "page_modified"]


def page_modified(app: Sphinx, plan: Plan, docname: str) -> str:
    """The latest change of the page's source and of every file its text comes from;
    for a source the build generated, of the code it documents."""
    srcdir = Path(app.srcdir)
    if plan.media is None:
        plan.media = media_files(app.env)
    if plan.generated is None:
        plan.generated = generated_api(app)
    dates = plan.last_changed
    assert dates is not None  # made at builder-inited
    relative = str(app.env.doc2path(docname, False))
    source = srcdir / relative
    deps = [srcdir / dep for dep in content_files(app.env, docname, plan.media)]
    if dates.untracked(source):
        code = [*plan.generated.modules_of(source), *(dep for dep in deps if dep.suffix == ".py")]
        if code:
            return dates.newest([*code, *deps])
        if plan.generated.code and plan.generated.holds(Path(relative).as_posix()):
            return dates.newest(plan.generated.code)  # a generator's index page
    return dates.newest([source, *deps, *plan.generated.summarized_in(source)])


def media_files(env: BuildEnvironment) -> frozenset[str]:
    """The site's images and downloads, relative to the source folder."""
    return frozenset(_relative(env, name) for name in (*env.images, *env.dlfiles))


def _relative(env: BuildEnvironment, name: object) -> str:
    # Sphinx 7 and 8 record dependencies relative to srcdir, Sphinx 9 absolute.
    return os.path.relpath(Path(env.srcdir) / str(name), env.srcdir).replace(os.sep, "/")


def content_files(env: BuildEnvironment, docname: str, media: frozenset[str]) -> list[str]:
    """The files the document depends on whose text is in its view (not its images,
    downloads or ``docutils.conf``), relative to the source folder, sorted."""
    return content_dependencies(
        sorted(_relative(env, dep) for dep in env.dependencies.get(docname, ())), media=media)


def outdated_pages(app: Sphinx, plan: Plan, env: BuildEnvironment,
                   changed: Collection[str], removed: Collection[str]) -> list[str]:
    """The documents Sphinx would leave as they are whose views are out of date."""
    assert plan.last_changed is not None  # made at builder-inited

    def now(docname: str) -> str:
        facts = read_metadata(page_metadata(app, docname), location=docname)
        return facts.modified or page_modified(app, plan, docname)

    return outdated_documents(plan.records, plan.last_changed, known=env.all_docs,
                              changed=changed, removed=removed, modified_now=now)
