"""The rules on ``llms.txt`` and ``llms-full.txt`` both targets of ``agentprose check``
share: the format, every post listed, every link serving a view, the sections' own
files and the other languages', and ``llms-full.txt`` introducing every post.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from agentprose_core.check.rules import SiteCheck, add_findings, text_of
from agentprose_core.model import VERSIONS_SECTION
from agentprose_core.reading.llmstxt import (
    language_llms_files,
    linked_llms_files,
    parse_llms_txt,
)
from agentprose_core.records.scopes import folder_of
from agentprose_core.urls import is_on_site, page_key, same_origin

if TYPE_CHECKING:
    from agentprose_core.reading.llmstxt import LlmsFile

__all__ = ["check_llms", "check_llms_full"]


def check_llms(check: SiteCheck) -> None:
    """``llms.txt``: its form, that it lists every post, and that every link resolves."""
    read = check.read(check.base + "llms.txt", "file")
    if read.text is None:
        check.missing("llms-missing", read, "no llms.txt")
        return
    parsed = parse_llms_txt(read.text)
    add_findings(check, read.url, parsed.findings)
    _compare_reference(check, read.url, read.text, parsed)
    versions = [link for name, links in parsed.sections if name == VERSIONS_SECTION
                for link in links]
    pages = [link for link in parsed.links if link not in versions]
    listed = {page_key(link.url) for link in pages}
    for post in check.posts:
        view = text_of(post, "markdown_url")
        if view is not None and page_key(view) not in listed:
            check.add("llms-coverage", read.url, f"{view} is not listed")
    links = pages if check.limit is None else pages[: check.limit]
    if len(links) < len(pages):
        check.report.notes.append(
            f"Checked the first {len(links)} of {len(pages)} llms.txt links.")
    for link in links:
        _check_link(check, read.url, link.url, link.line)
    for link in versions:  # each version's llms.txt, checked where it is, as a site
        if not (is_on_site(link.url, check.base) and link.url.endswith("/llms.txt")
                and check.read(link.url, "file").text is not None):
            check.add("llms-section", read.url, f"{link.url}: a version's llms.txt that "
                                                "is not a file on the site")
    for section in linked_llms_files(parsed.info):
        _check_section_llms(check, read.url, section)
    for other in language_llms_files(parsed.info):  # checked where it is, as a site
        if not same_origin(other, check.base):
            check.add("llms-section", read.url, f"{other}: another language's llms.txt "
                                                "must be on the site's origin")


def _check_section_llms(check: SiteCheck, root: str, url: str) -> None:
    """A section's own llms.txt, linked from the root file: on the site, readable by
    both parsers, listing every post under its folder, each link serving a view."""
    folder = url[len(check.base):-len("llms.txt")] if is_on_site(url, check.base) else None
    if folder is None or not folder:
        check.add("llms-section", root, f"{url} is not a section's llms.txt on the site")
        return
    read = check.read(url, "file")
    if read.text is None:
        check.missing("llms-section", read, "no llms.txt for the section the root file links")
        return
    check.scopes.append(folder)
    parsed = parse_llms_txt(read.text)
    for _, line, message in parsed.findings:
        check.add("llms-section", read.url, message, line)
    _compare_reference(check, read.url, read.text, parsed)
    listed = {page_key(link.url) for link in parsed.links}
    for post in check.posts:
        page, view = text_of(post, "url"), text_of(post, "markdown_url")
        if page and view and (folder_of(page, check.base) or "").startswith(folder) \
                and page_key(view) not in listed:
            check.add("llms-section", read.url, f"{view} is under {folder} but not listed")
    for link in parsed.links if check.limit is None else parsed.links[: check.limit]:
        _check_link(check, read.url, link.url, link.line)


def _check_link(check: SiteCheck, llms_url: str, url: str, line: int) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        check.add("llms-link", llms_url, f"{url} is not an absolute URL", line)
    elif not is_on_site(url, check.base):
        check.add("llms-link", llms_url, f"{url} is not on the site ({check.base})", line)
    elif page_key(url) not in check.served:
        target = check.read(url, "file")
        if target.text is None and not target.reported:
            check.add("llms-link", llms_url, f"{url}: {target.reason}", line)
        elif target.text is not None:
            check.served.add(page_key(url))


def _compare_reference(check: SiteCheck, url: str, text: str, parsed: LlmsFile) -> None:
    """With ``llms_txt`` installed, its parser must read what ours reads."""
    try:
        from llms_txt import parse_llms_file  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        check.report.notes.append(
            "llms.txt read with agentprose's parser only (pip install llms-txt to compare "
            "with the reference parser).")
        return
    try:
        theirs = parse_llms_file(text)
        links = [(str(link["title"]), str(link["url"]), str(link.get("desc") or ""))
                 for section in theirs.sections.values() for link in section]
        title, summary = theirs.title, theirs.summary
    except (AttributeError, KeyError, TypeError) as error:
        check.add("llms-reference", url, f"the reference parser fails: {error!r}")
        return
    ours = [(link.title, link.url, link.description) for link in parsed.links]
    if (title, summary) != (parsed.title, parsed.summary):
        check.add("llms-reference", url, f"it reads title {title!r}, summary {summary!r}")
    if links != ours:
        check.add("llms-reference", url, "it reads different links than the sections hold")


def check_llms_full(check: SiteCheck) -> None:
    """``llms-full.txt`` exists and introduces every post by its URL."""
    read = check.read(check.base + "llms-full.txt", "file")
    if read.text is None:
        check.missing("llms-full-missing", read, "no llms-full.txt")
        return
    words = {word for line in read.text.split("\n") for word in line.split()}
    for post in check.posts:
        url = text_of(post, "canonical") or text_of(post, "url")
        if url is not None and url not in words:
            check.add("llms-full-post", read.url, f"{url} is not in llms-full.txt")
