"""``agentprose check TARGET``: does a built folder or a deployed site keep the contract?

Both targets run the rules of :data:`~.shared.SHARED_CHECKS` (``agentprose.json``
parses and validates against the shipped schema, every post's URLs stay on the site,
each view's front matter and body, ``llms.txt``, ``llms-full.txt``, the discovery
links). A folder adds that pages without a view carry no discovery links; a URL adds
the HTTP rules of :mod:`.http` (content types, content negotiation, ``Vary``,
validators and ``304``), never leaving the target's origin.

Every rule and its level are listed in :data:`~.report.RULES`; the command's exit
status is non-zero when :attr:`Report.ok` is false (an error-level problem). Schema
validation uses :mod:`.schema_subset`, so it is complete without ``jsonschema``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from agentprose_core.check.http import check_url
from agentprose_core.check.report import RULES, Problem, Report, Rule
from agentprose_core.check.rules import (
    Read,
    SiteCheck,
    has_discovery_links,
    load_index,
)
from agentprose_core.check.shared import SHARED_CHECKS
from agentprose_core.errors import InputError
from agentprose_core.model import INDEX_NAME
from agentprose_core.reading.fetch import MAX_BODY, HttpRequest, HttpResponse, urllib_fetch
from agentprose_core.urls import base_url_of, output_path

__all__ = [
    "RULES",
    "HttpRequest",
    "HttpResponse",
    "Problem",
    "Report",
    "Rule",
    "check_site_dir",
    "check_target",
    "check_url",
    "urllib_fetch",
]

_NO_BASE = "agentprose.json gives no usable site.url: pass base_url to check the rest."


def check_target(target: str, *, max_pages: int = 50, timeout: float = 10,
                 base_url: str | None = None) -> Report:
    """Check ``target``: an http(s) URL, else the path of a built site folder.

    ``max_pages`` and ``timeout`` apply to a URL, ``base_url`` to a folder.
    """
    if target.startswith(("http://", "https://")):
        return check_url(target, max_pages=max_pages, timeout=timeout)
    return check_site_dir(Path(target), base_url=base_url)


def check_site_dir(site_dir: Path, *, base_url: str | None = None) -> Report:
    """Check the agent outputs of the built site in ``site_dir``.

    The base URL is ``base_url`` when given (``site.url`` in the index must then match
    it), else the index's ``site.url``. Raises :class:`InputError` when ``site_dir`` is
    not a directory or ``base_url`` is not an absolute http(s) URL.
    """
    if not site_dir.is_dir():
        raise InputError(f"No such directory: {site_dir}. Give the folder of the built site.")
    report = Report(target=str(site_dir))
    given = base_url_of(base_url) if base_url is not None else None
    if given is None and not (site_dir / INDEX_NAME).is_file():
        below = [folder for folder, own in _nested_sites(site_dir).items() if own]
        if below:  # a tree of languages or versions built one by one, without a root
            return _check_each(report, site_dir, below)
    reader = _DirReader(site_dir, given or "", report)
    index_url = (given or "") + INDEX_NAME
    check = SiteCheck(report, given or "", index_url, reader.read, where=reader.where)
    index_read = reader.file(INDEX_NAME, index_url)
    check.index = load_index(index_read, check) or {}
    base = _base(check, given)
    if base is None:
        if "index-base" not in report.rules_broken():
            report.notes.append(_NO_BASE)
        return report
    check.base = reader.base = base
    check.index_url = base + INDEX_NAME
    nested = _nested_sites(site_dir)
    _leave_nested_posts(check, [base + folder for folder, own in nested.items() if own])
    for rule in SHARED_CHECKS:
        rule(check)
    if check.index:  # without the list of posts, every page would look unlisted
        check_unlisted_pages(check, reader, skip=list(nested))
    for folder, own in nested.items():  # a language's or a version's, checked as a site
        if own:  # not an alias (mike's symlink or copy): its own site URL says where
            _merge(report, check_site_dir(site_dir / folder), folder)
    return report


def _check_each(report: Report, site_dir: Path, folders: list[str]) -> Report:
    """A tree whose root has no agent outputs: each site in it checked on its own."""
    report.notes.append(
        f"No {INDEX_NAME} at the root: the {len(folders)} sites below it (a language's or a "
        "version's each) are checked one by one. Agents find them from the root's llms.txt: "
        "see docs/versions-and-translations.md.")
    for folder in folders:
        _merge(report, check_site_dir(site_dir / folder), folder)
    return report


def _leave_nested_posts(check: SiteCheck, roots: list[str]) -> None:
    """Leave out of the root's check the posts of its index that belong to a nested site
    (a versioned tree's root lists its default version's pages): they are checked there,
    against that site's own files."""
    posts = check.index.get("posts")
    if not roots or not isinstance(posts, list):
        return
    kept = [post for post in posts if not (isinstance(post, dict) and any(
        str(post.get("url", "")).startswith(root) for root in roots))]
    if len(kept) < len(posts):
        check.index = {**check.index, "posts": kept}
        check.report.notes.append(f"{len(posts) - len(kept)} posts of {INDEX_NAME} belong to "
                                  "a version's or a language's own site: checked there.")


def _nested_sites(site_dir: Path) -> dict[str, bool]:
    """The folders below ``site_dir`` with an ``agentprose.json`` of their own (each
    language's or version's root, relative, with a trailing slash), outermost only,
    each True unless it is another's alias (a symlink, or a copy of the same files)."""
    found: dict[str, bool] = {}
    seen: set[bytes] = set()
    for index in sorted(site_dir.rglob(INDEX_NAME)):
        folder = index.parent.relative_to(site_dir).as_posix() + "/"
        if folder == "./" or any(folder.startswith(outer) for outer in found):
            continue
        digest = hashlib.sha256(index.read_bytes()).digest()
        found[folder] = not index.parent.is_symlink() and digest not in seen
        seen.add(digest)
    return found


def _merge(report: Report, nested: Report, folder: str) -> None:
    """The problems and counts of a nested site's check, under its folder."""
    for problem in nested.problems:
        where = problem.where if problem.where.startswith(("http://", "https://")) \
            else folder + problem.where
        report.add(problem.rule, where, problem.message)
    report.files_read += nested.files_read
    report.pages_checked += nested.pages_checked
    report.notes.extend(nested.notes)


def _base(check: SiteCheck, given: str | None) -> str | None:
    site = check.index.get("site")
    url = site.get("url") if isinstance(site, dict) else None
    if given is not None:
        if isinstance(url, str) and url != given:
            check.add("index-base", INDEX_NAME,
                      f"site.url is {url}, not {given}: the rest was not checked")
            return None
        return given
    try:
        return base_url_of(url) if isinstance(url, str) else None
    except InputError:
        return None


class _DirReader:
    """Reads the site's URLs from the folder, never outside it."""

    def __init__(self, site_dir: Path, base: str, report: Report) -> None:
        self.site_dir = site_dir
        self.root = site_dir.resolve()
        self.base = base
        self.report = report
        self.pages: set[Path] = set()
        self.page_texts: set[bytes] = set()  # digests of the listed pages' HTML

    def where(self, url: str) -> str:
        try:
            return output_path(url, self.base) if self.base else url
        except InputError:
            return url

    def read(self, url: str, kind: str) -> Read:
        try:
            relative = output_path(url, self.base)
        except InputError as error:
            return Read(None, url, str(error))
        candidates = [relative]
        if kind == "page" and not relative.endswith((".html", ".htm")):
            candidates += [relative + ".html", relative + "/index.html"]
        for candidate in candidates:
            path = self.site_dir / candidate
            if path.is_file() and self.root in path.resolve().parents:
                read = self.file(candidate, url)
                if kind == "page":
                    self.pages.add(path.resolve())
                    if read.text is not None:  # a copy of the page is one too
                        self.page_texts.add(hashlib.sha256(read.text.encode()).digest())
                return read
        return Read(None, url, f"no file {relative}")

    def file(self, relative: str, url: str) -> Read:
        """A file's text, at most ``MAX_BODY`` bytes of it, as over a URL: a page of
        gigabytes is reported, not read for minutes."""
        path = self.site_dir / relative
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_BODY + 1)
        except FileNotFoundError:
            return Read(None, url, f"no file {relative}")
        except OSError as error:
            return Read(None, url, f"{relative} cannot be read: {error.strerror or error}")
        if len(data) > MAX_BODY:
            return Read(None, url, f"{relative} is larger than {MAX_BODY:,} bytes: not read")
        try:  # line ends as read_text() gives them
            text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        except UnicodeDecodeError:
            return Read(None, url, f"{relative} is not UTF-8")
        self.report.files_read += 1
        return Read(text, url)


def check_unlisted_pages(check: SiteCheck, reader: _DirReader, *,
                         skip: list[str] | None = None) -> None:
    """HTML pages that are not a post's page must not carry the discovery links, unless
    they are a copy of one, byte for byte (a page copied to ``index.html`` after the
    build): its links lead to that page's view. Pages in the folders ``skip`` (nested
    sites, checked as such) are left out."""
    for path in sorted(_site_html(reader.site_dir)):
        if path.resolve() in reader.pages:
            continue
        relative = path.relative_to(reader.site_dir).as_posix()
        if any(relative.startswith(folder) for folder in skip or ()):
            continue
        read = reader.file(relative, check.base + relative)
        if read.text is None or not has_discovery_links(read.text):
            continue
        if hashlib.sha256(read.text.encode()).digest() in reader.page_texts:
            continue
        check.report.add("discovery-unlisted", relative,
                         "has discovery links but is not a page listed in agentprose.json")


def _site_html(site_dir: Path) -> list[Path]:
    """The HTML files of a site folder that stay inside it."""
    root = site_dir.resolve()
    return [path for path in site_dir.rglob("*.htm*")
            if path.suffix in (".html", ".htm") and path.is_file()
            and root in path.resolve().parents]
