"""A page-at-a-time build's plan and its incremental rebuilds (Sphinx's strategy), on
values alone. Real Sphinx builds are in test_sphinx_extension.py and
test_sphinx_stored.py."""

from __future__ import annotations

from pathlib import Path

from agentprose_core.build.incremental import LastChanged, outdated_documents
from agentprose_core.build.pagewise import RecordStore
from agentprose_core.build.plan import left_out_reason, plan_views
from agentprose_core.model import PageRecord
from agentprose_core.settings import Settings

BASE = "https://x.org/"
URLS = {"index": BASE, "guide/tide": f"{BASE}guide/tide.html",
        "guide/rocks": f"{BASE}guide/rocks.html", "draft": f"{BASE}draft.html",
        "orphan": f"{BASE}orphan.html"}


def _plan(**changes: object) -> object:
    arguments: dict[str, object] = {
        "sources": {"draft": "draft.rst"}, "nav": list(URLS),
        "in_nav": {"index", "guide/tide", "guide/rocks", "draft"},
        "sections": {"guide/tide": ("Guide",), "guide/rocks": ("Guide",)},
        "base_url": BASE, "settings": Settings(section_llms_txt=True),
    }
    arguments.update(changes)
    return plan_views(URLS, {"draft": "draft: true"}, **arguments)  # type: ignore[arg-type]


def test_the_plan_maps_views_neighbours_and_sections() -> None:
    planned = _plan()
    assert planned.views == {"index": f"{BASE}index.md", "guide/tide": f"{BASE}guide/tide.md",
                             "guide/rocks": f"{BASE}guide/rocks.md",
                             "orphan": f"{BASE}orphan.md"}
    # prev/next skip the page left out and the page outside the nav
    assert planned.neighbours == {
        "index": (None, f"{BASE}guide/tide.html"),
        "guide/tide": (BASE, f"{BASE}guide/rocks.html"),
        "guide/rocks": (f"{BASE}guide/tide.html", None),
    }
    assert "no-view" in {note.code for note in planned.diagnostics}
    assert "draft.rst (draft: true)" in " ".join(n.message for n in planned.diagnostics)
    assert planned.scopes == (("guide/", "Guide"),)  # a section with its own llms.txt
    # the page left out is in the site map, as no view: links to it become text
    assert len(planned.site_map) == len(URLS)


def test_two_pages_that_would_share_a_view_are_reported() -> None:
    urls = {"a": f"{BASE}a/", "b": f"{BASE}a.html"}
    planned = plan_views(urls, {}, sources={}, nav=["a", "b"], in_nav={"a", "b"},
                         sections={}, base_url=BASE, settings=Settings())
    assert "view-collision" in {note.code for note in planned.diagnostics}


def test_why_a_document_is_left_out() -> None:
    asked: list[str] = []

    def source() -> str:
        asked.append("source")
        return "private/notes.rst"

    assert left_out_reason({"draft": "true"}, source, patterns=(), location="d") == "draft: true"
    assert left_out_reason({"agentprose": "false"}, source, patterns=(), location="d") \
        == "agentprose: false"
    assert left_out_reason({}, source, patterns=(), location="d") is None
    assert asked == []  # the source path is made only when a glob may match it
    assert left_out_reason(None, source, patterns=("private/*",), location="d") == "exclude"
    assert left_out_reason(None, source, patterns=("other/*",), location="d") is None


def _record(name: str, markdown: str, modified: str) -> PageRecord:
    return PageRecord(url=f"{BASE}{name}.html", markdown_url=f"{BASE}{name}.md", title=name,
                      markdown=markdown, modified=modified)


class _Dates(LastChanged):
    def __init__(self, head: str | None) -> None:
        super().__init__(Path())
        self._at = head

    def head(self) -> str | None:
        return self._at


def test_outdated_documents_after_a_removal_or_a_new_commit(tmp_path: Path) -> None:
    store = RecordStore(tmp_path)
    store.save("a", _record("a", "See [b](https://x.org/b.md).", "2026-01-01T00:00:00Z"))
    store.save("b", _record("b", "Bee.", "2026-01-01T00:00:00Z"))
    store.save("c", _record("c", "Sea.", "2026-01-01T00:00:00Z"))
    store.keep_head("one")

    def now(docname: str) -> str:
        return "2026-02-02T00:00:00Z" if docname == "c" else "2026-01-01T00:00:00Z"

    same = _Dates("one")
    assert outdated_documents(store, same, known={"a", "b", "c"}, changed=set(),
                              removed=set(), modified_now=now) == []
    # b removed: a links its view
    assert outdated_documents(store, same, known={"a", "c"}, changed=set(), removed={"b"},
                              modified_now=now) == ["a"]
    # a new commit moved c's date; a changed page is read again anyway
    assert outdated_documents(store, _Dates("two"), known={"a", "b", "c"}, changed={"a"},
                              removed=set(), modified_now=now) == ["c"]
