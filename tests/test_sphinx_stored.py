"""Sphinx page records on disk, read back through the memo: never a stale record."""

from __future__ import annotations

import pickle
from typing import TYPE_CHECKING

from agentprose_core.model import PageRecord
from agentprose_core.records.store import RecordStore

if TYPE_CHECKING:
    from pathlib import Path


def _record(title: str) -> PageRecord:
    return PageRecord(url=f"https://x.org/{title}/", markdown_url=f"https://x.org/{title}.md",
                      title=title, modified="2026-01-01T00:00:00Z", markdown=f"# {title}\n")


def test_records_come_back_as_saved_and_edits_are_seen(tmp_path: Path) -> None:
    stored = RecordStore(tmp_path / "records")
    stored.save("a", _record("aaa"))
    stored.save("guide/b", _record("bbb"))
    assert stored.docnames() == ["a", "guide/b"]
    assert stored.load_all(["a", "guide/b", "gone"]) == {
        "a": _record("aaa"), "guide/b": _record("bbb")}
    assert (tmp_path / "records" / "records.pickle").is_file()
    # Same size, and written within the same clock tick: the digest still tells.
    stored.save("a", _record("ccc"))
    assert stored.load_all(["a", "guide/b"])["a"] == _record("ccc")
    stored.remove("guide/b")
    assert stored.load_all(["a", "guide/b"]) == {"a": _record("ccc")}


def test_a_broken_or_foreign_memo_is_ignored(tmp_path: Path) -> None:
    stored = RecordStore(tmp_path)
    stored.save("a", _record("aaa"))
    memo = tmp_path / "records.pickle"
    memo.write_bytes(b"\x80\x05truncated")
    assert stored.load_all(["a"]) == {"a": _record("aaa")}
    memo.write_bytes(pickle.dumps(("0.0.0-other", {"a": (b"x", _record("old"))})))
    assert stored.load_all(["a"]) == {"a": _record("aaa")}
    assert stored.docnames() == ["a"]  # the memo is not a record


def test_a_memo_cut_between_two_records_still_serves_the_first(tmp_path: Path) -> None:
    stored = RecordStore(tmp_path)
    for name in ("a", "b", "c"):
        stored.save(name, _record(name * 3))
    assert len(stored.load_all(["a", "b", "c"])) == 3
    memo = tmp_path / "records.pickle"
    with memo.open("rb") as handle:  # the header and the first record, whole
        pickle.load(handle)
        pickle.load(handle)
        kept = handle.tell()
    memo.write_bytes(memo.read_bytes()[:kept])
    stored.save("c", _record("ddd"))
    assert stored.load_all(["a", "b", "c"]) == {
        "a": _record("aaa"), "b": _record("bbb"), "c": _record("ddd")}


def test_the_memo_is_written_again_only_once_an_eighth_of_it_is_out_of_date(
        tmp_path: Path) -> None:
    stored = RecordStore(tmp_path)
    names = [f"p{number:02}" for number in range(16)]
    for name in names:
        stored.save(name, _record(name))
    stored.load_all(names)
    memo = tmp_path / "records.pickle"
    first = memo.read_bytes()
    # One page edited, twice: each load parses it again, the memo stays as it was.
    for title in ("edited", "edited again"):
        stored.save("p03", _record(title))
        assert stored.load_all(names)["p03"] == _record(title)
        assert memo.read_bytes() == first
    # A second page out of date makes an eighth: the memo is brought up to date.
    stored.save("p09", _record("also edited"))
    assert stored.load_all(names)["p09"] == _record("also edited")
    assert memo.read_bytes() != first
    assert stored._memo()["p03"][1] == _record("edited again")
