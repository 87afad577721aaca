"""Run every check on one site's agentprose build and gather the figures.

The only module that imports agentprose (from the checkout put first on ``sys.path``
by run.py): its checker, its content extraction and its round-trip comparison.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

import checks
from checks import Finding, LangCount

from agentprose_core.check.checker import check_site_dir
from agentprose_core.check.structure import roundtrip_mismatches
from agentprose_core.convert.tree import to_html
from agentprose_core.extract.page import parse_page
from agentprose_core.mcp import tools as mcp_tools
from agentprose_core.mcp.server import Docs
from agentprose_core.mcp.sources import FolderSource
from agentprose_core.urls import page_key

if TYPE_CHECKING:
    from pathlib import Path

_SPHINX_DEFAULT = "python"


def _checker(root: Path, base: str) -> dict[str, object]:
    try:
        report = check_site_dir(root, base_url=base)
    except Exception as error:  # a crash of the checker is a finding too
        return {"crash": f"{type(error).__name__}: {error}", "by_rule": {}, "total": -1}
    by_rule = Counter(problem.rule for problem in report.problems)
    examples: dict[str, list[str]] = {}
    for problem in report.problems:
        shown = examples.setdefault(problem.rule, [])
        if len(shown) < 3:
            shown.append(f"{problem.where}: {problem.message}"[:300])
    return {"total": len(report.problems), "errors": len(report.errors),
            "by_rule": dict(by_rule.most_common()), "examples": examples,
            "notes": report.notes[:5]}


def _mcp(root: Path) -> dict[str, Any]:
    """``agentprose mcp`` on the build: every heading id of the index asked with
    get_section, every page read whole through get_page's parts, and each page's
    title searched (is the page in the first three hits?)."""
    try:
        reading = Docs(FolderSource(root)).loaded()
        index = reading.search_index()
    except Exception as error:  # a crash is a finding
        return {"crash": f"{type(error).__name__}: {error}"}
    missing = Finding()
    pages = Finding()
    asked = found_by_title = 0
    for post in reading.site.posts:
        body = reading.body(post)
        for heading in post.headings:
            if heading.id:
                asked += 1
                try:
                    mcp_tools.get_section(post, body, heading.id)
                except ValueError:
                    missing.add(post.url, f"#{heading.id} ({heading.title})")
        view = reading.source.view(post)
        parts, number = [], 1
        while True:
            answer = mcp_tools.paged(view, number)
            footer = mcp_tools.part_footer(number, 0, "get_page").split(" of ")[0]
            if footer not in answer:
                parts.append(answer)
                break
            parts.append(answer[: answer.index(footer)])
            number += 1
        if "".join(parts) != view:
            pages.add(post.url, "get_page's parts are not the view")
        hits = index.search(post.title, 3)
        found_by_title += any(hit.number == post.number for hit in hits)
    return {"sections_asked": asked, "sections_missing": missing.to_dict(),
            "pages_differing": pages.to_dict(), "title_top3": found_by_title,
            "posts": len(reading.site.posts)}


def _default_lang(info_file: Path) -> str:
    if not info_file.exists():
        return _SPHINX_DEFAULT
    value = json.loads(info_file.read_text(encoding="utf-8")).get("highlight_language")
    return _SPHINX_DEFAULT if value in (None, "default", "python3") else str(value)


class SiteAnalysis:
    def __init__(self, root: Path, base: str, tool: str, docs_dir: Path,
                 info_file: Path) -> None:
        self.site = checks.load_site(root, base)
        self.tool = tool
        self.docs_dir = docs_dir
        self.default_lang = _default_lang(info_file) if tool == "sphinx" else "text"
        self.site_map = {page_key(p.url): p.view_url for p in self.site.posts}
        self.front = Finding()
        self.roundtrip = Finding()
        self.fences = Finding()
        self.tags = Finding()
        self.fragments = Finding()
        self.unknown_targets = Finding()
        self.broken_in_site = Finding()
        self.langs = Finding()
        self.lang_counts = LangCount()
        self.crashes = Finding()
        self.dates = Finding()
        self.times = checks.commit_times(docs_dir)

    def run(self) -> dict[str, Any]:
        for post in self.site.posts:
            self._post(post)
        checks.check_fragments(self.site, checks.Anchors.of(self.site), self.fragments,
                               self.unknown_targets, self.broken_in_site)
        html_pages = list(self.site.root.rglob("*.html"))
        counts = self.lang_counts
        return {
            "pages": len(html_pages), "views": len(self.site.posts),
            "checker": _checker(self.site.root, self.site.base),
            "front_matter": self.front.to_dict(),
            "dates": self.dates.to_dict(),
            "roundtrip": self.roundtrip.to_dict(),
            "unbalanced_fences": self.fences.to_dict(),
            "bad_tags": self.tags.to_dict(),
            "fragments": self.fragments.to_dict(),
            "unknown_link_targets": self.unknown_targets.to_dict(),
            "fragments_broken_in_site": self.broken_in_site.to_dict(),
            "languages": {"knowable": counts.knowable + counts.source_extra,
                          "kept": counts.kept + counts.source_kept,
                          "html_knowable": counts.knowable, "html_kept": counts.kept,
                          "source_extra": counts.source_extra,
                          "source_kept": counts.source_kept, **self.langs.to_dict()},
            "markers": checks.check_markers(self.site),
            "analysis_crashes": self.crashes.to_dict(),
            "mcp": _mcp(self.site.root),
        }

    def _post(self, post: checks.Post) -> None:
        checks.check_front_matter(post, self.front)
        checks.check_date(post, self.times, self.dates)
        body = checks.view_body(post.view)
        bad = checks.unbalanced_fences(body)
        if bad:
            self.fences.pages += 1
            self.fences.add(post.view_url, "; ".join(bad[:2]), n=len(bad))
        tags = checks.bad_tags(body)
        if tags:
            self.tags.pages += 1
            for name, n in tags.items():
                self.tags.add(post.view_url, f"<{name}> x{n}", name, n)
        if not post.html_path.exists():
            self.crashes.add(post.url, f"no HTML file {post.html_path}")
            return
        try:
            content = parse_page(post.html_path.read_bytes(), url=post.url).content
        except Exception as error:
            self.crashes.add(post.url, f"parse_page: {type(error).__name__}: {error}")
            return
        if content is None:
            self.crashes.add(post.url, "parse_page found no content")
            return
        if not content.text_content().strip():
            # the theme shows none of the page's content (Material's home.html empties
            # the content block): nothing to compare the view with; counted apart
            self.roundtrip.by["theme shows no content"] += 1
            self.roundtrip.examples.append({"where": post.url, "message": "no content shown"})
            return
        self._roundtrip(post, to_html(content), body)
        self._languages(post, content, body)

    def _roundtrip(self, post: checks.Post, fragment: str, body: str) -> None:
        try:
            found = roundtrip_mismatches(fragment, body, page_url=post.url,
                                         site_map=self.site_map)
        except Exception as error:
            self.crashes.add(post.url, f"roundtrip: {type(error).__name__}: {error}")
            return
        if found:
            self.roundtrip.pages += 1
            self.roundtrip.count += len(found)
            if len(self.roundtrip.examples) < 8:
                self.roundtrip.examples.append({"where": post.url, "message": found[0][:300]})

    def _languages(self, post: checks.Post, content: Any, body: str) -> None:
        blocks = checks.html_code_blocks(content, self.default_lang)
        view_fences = checks.fences(body)
        unmatched = checks.compare_langs(blocks, view_fences, post.url, self.langs,
                                         self.lang_counts)
        if self.tool == "sphinx":  # Markdown sources (MkDocs, Zensical) only
            return
        source = checks.source_of(post.url, self.site.base, self.docs_dir)
        if source is None:
            return
        html_langs = Counter(lang for lang, _ in blocks if lang)
        extra = checks.source_langs(source.read_text(encoding="utf-8")) - html_langs
        for lang, n in extra.items():
            self.lang_counts.source_extra += n
            kept = min(n, unmatched.get(lang, 0))
            self.lang_counts.source_kept += kept
            if kept < n:
                self.langs.add(post.url, f"{lang} (from the source) lost x{n - kept}",
                               f"source:{lang}", n - kept)


def analyze(root: Path, base: str, tool: str, docs_dir: Path, info_file: Path) -> dict[str, Any]:
    return SiteAnalysis(root, base, tool, docs_dir, info_file).run()
