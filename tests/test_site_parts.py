"""Each page's parts of the site files, kept from one build for the next: a build that
takes them gives the very bytes and findings of one that made them all again."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from agentprose_core.model import Heading, PageRecord, SiteRecord
from agentprose_core.output.publish import Published, publish
from agentprose_core.records.store import RecordStore
from agentprose_core.settings import Settings

if TYPE_CHECKING:
    from pathlib import Path

SITE = SiteRecord(name="Coast", url="https://coast.example/docs/", lang="en")
BASE = "https://coast.example/docs/"


def _page(name: str, markdown: str, **fields: object) -> PageRecord:
    values: dict[str, object] = {
        "url": f"{BASE}{name}/", "markdown_url": f"{BASE}{name}.md",
        "title": name.title(), "modified": "2026-01-02T03:04:05Z", "markdown": markdown,
        "section": ("Guide",), **fields}
    return PageRecord(**values)  # type: ignore[arg-type]


PAGES = [
    _page("pools", "# Pools\n\nSee [rocks](" + BASE + "rocks.md#barnacles) and "
          "[lost](" + BASE + "rocks.md#id3).\n\n```md\n[in code](" + BASE + "rocks/)\n```\n"),
    _page("rocks", "# Rocks\n\n## Barnacles\n\nThey hold on.\n", unanchored=("id3",),
          headings=(Heading(2, "barnacles", "Barnacles"),), summary="Rocks."),
    _page("tides", "Tides come [twice](" + BASE + "pools/).\n", lang="fr",
          authors=("Ana",)),
    _page("empty", ""),
] + [_page(f"more{n}", f"# More {n}\n\n" + "Text. " * 200 + "\n") for n in range(8)]

SETTINGS = Settings(llms_full_max_bytes=None)


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def _publish(folder: Path, pages: list[PageRecord], site: SiteRecord = SITE,
             **options: object) -> tuple[dict[str, bytes], Published]:
    done = publish(folder, site, pages, settings=SETTINGS, generator="agentprose (test)",
                   **options)  # type: ignore[arg-type]
    return _files(folder), done


def test_kept_parts_give_the_same_files_and_findings(tmp_path: Path) -> None:
    made, first = _publish(tmp_path / "made", PAGES)
    kept, second = _publish(tmp_path / "kept", PAGES, parts=first.parts)
    assert kept == made
    assert [note.code for note in second.diagnostics] == ["link-not-view", "fragment-lost"]
    assert second.diagnostics == first.diagnostics
    # Taken as they are, not made again (the views' sizes included).
    assert all(second.parts[url] is part for url, part in first.parts.items())


def test_the_site_files_only_equal_those_written_with_the_views(tmp_path: Path) -> None:
    made, first = _publish(tmp_path / "made", PAGES)
    kept, _ = _publish(tmp_path / "kept", PAGES, parts=first.parts, views=False)
    assert kept == {name: data for name, data in made.items() if name in kept}
    assert "agentprose.json" in kept
    assert "llms-full.txt" in kept


def test_parts_made_for_another_site_url_or_directive_are_made_again(tmp_path: Path) -> None:
    _, first = _publish(tmp_path / "first", PAGES)
    moved = SiteRecord(name="Coast", url="https://tides.example/", lang="en")
    pages = [dataclasses.replace(page, url=page.url.replace(BASE, moved.url),
                                 markdown_url=page.markdown_url.replace(BASE, moved.url),
                                 markdown=page.markdown.replace(BASE, moved.url))
             for page in PAGES]
    fresh, _ = _publish(tmp_path / "fresh", pages, site=moved)
    by_url = {page.url: first.parts[old.url] for page, old in zip(pages, PAGES, strict=True)}
    given, _ = _publish(tmp_path / "given", pages, site=moved, parts=by_url)
    assert given == fresh
    # The directive line is part of each view's size.
    plain = publish(tmp_path / "plain", SITE, PAGES, settings=Settings(directive=False),
                    generator="agentprose (test)", parts=first.parts)
    again = publish(tmp_path / "again", SITE, PAGES, settings=Settings(directive=False),
                    generator="agentprose (test)")
    assert _files(tmp_path / "plain") == _files(tmp_path / "again")
    assert plain.parts["https://coast.example/docs/rocks/"].size == \
        again.parts["https://coast.example/docs/rocks/"].size


def test_the_store_gives_back_what_was_kept_beside_an_unchanged_record(
    tmp_path: Path,
) -> None:
    store = RecordStore(tmp_path / "records")
    names = [f"p{n:02d}" for n in range(16)]
    for name, page in zip(names, PAGES * 2, strict=False):
        store.save(name, dataclasses.replace(page, title=name))
    stored = store.load_stored(names)
    assert stored.kept == {}
    assert stored.fresh == set(names)
    store.keep(stored, {name: f"parts of {name}" for name in names})
    again = store.load_stored(names)
    assert again.kept == {name: f"parts of {name}" for name in names}
    assert again.fresh == set()
    # An edited record loses what was kept beside it; the others keep theirs.
    store.save("p03", dataclasses.replace(PAGES[0], title="edited"))
    edited = store.load_stored(names)
    assert "p03" not in edited.kept
    assert len(edited.kept) == 15
    assert edited.records["p03"].title == "edited"
    # So does a record saved again by this build (its neighbours moved).
    moved = dataclasses.replace(edited.records["p05"], next=f"{BASE}elsewhere/")
    edited.replace("p05", moved, store.save("p05", moved))
    assert "p05" not in edited.kept
    assert edited.fresh == {"p03", "p05"}
    # Two of sixteen are an eighth: the memo is written again, with the new parts.
    store.keep(edited, {**edited.kept, "p03": "new", "p05": "new too"})
    last = store.load_stored(names)
    assert last.kept["p03"] == "new"
    assert last.kept["p05"] == "new too"
    assert last.records["p05"] == moved
    assert last.fresh == set()
