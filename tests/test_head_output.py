"""Discovery links in <head>, and atomic writes that never leave the site."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentprose_core.errors import OutputError
from agentprose_core.files import safe_target, update_in_place, write_atomic
from agentprose_core.render.head import discovery_tags, inject_discovery

TAGS = discovery_tags("https://x.org/a.md", "https://x.org/agentprose.json")


def test_tags() -> None:
    assert TAGS == (
        '<link rel="alternate" type="text/markdown" href="https://x.org/a.md">\n'
        '<link rel="agentprose-index" type="application/json" '
        'href="https://x.org/agentprose.json">'
    )


def test_injected_once_before_head_closes() -> None:
    page = b"<!doctype html><html><head><title>A</title></head><body>x</body></html>"
    once = inject_discovery(page, TAGS)
    assert once is not None
    assert once.count(b'rel="alternate"') == 1
    assert once.index(b"agentprose-index") < once.index(b"</head>")
    assert once.replace(TAGS.encode() + b"\n", b"") == page
    assert inject_discovery(once, TAGS) is None


def test_no_head_no_change() -> None:
    assert inject_discovery(b"<p>fragment</p>", TAGS) is None


def test_bytes_outside_head_untouched() -> None:
    page = "<html><HEAD><meta charset=latin-1></HEAD><body>caf\xe9</body></html>".encode("latin-1")
    out = inject_discovery(page, TAGS)
    assert out is not None
    assert out.endswith("<body>caf\xe9</body></html>".encode("latin-1"))


def test_write_atomic_replaces_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "a.md"
    assert write_atomic(target, "é") == 2
    write_atomic(target, "second")
    assert target.read_text() == "second"
    assert [p.name for p in target.parent.iterdir()] == ["a.md"]


def test_write_atomic_leaves_a_file_that_holds_the_same_bytes(tmp_path: Path) -> None:
    target = tmp_path / "a.md"
    write_atomic(target, "same")
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    assert write_atomic(target, "same") == 4
    assert write_atomic(target, b"same") == 4
    assert target.stat().st_mtime_ns == 1_000_000_000  # not written again
    write_atomic(target, "same, longer")
    write_atomic(target, ["streamed"])  # chunks are never compared: written
    assert target.read_text() == "streamed"
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    write_atomic(target, "Streamed")  # same size, other bytes
    assert target.read_text() == "Streamed"
    assert target.stat().st_mtime_ns != 1_000_000_000


def test_update_in_place_writes_over_the_same_file(tmp_path: Path) -> None:
    target = tmp_path / "a.html"
    target.write_bytes(b"<head></head>body")
    inode = target.stat().st_ino
    assert update_in_place(target, lambda old: old.replace(b"</head>", b"<x></head>")) == 20
    assert target.read_bytes() == b"<head><x></head>body"
    assert target.stat().st_ino == inode
    assert update_in_place(target, lambda old: old[:6]) == 6  # shorter: the rest is cut
    assert target.read_bytes() == b"<head>"
    assert [p.name for p in tmp_path.iterdir()] == ["a.html"]


def test_update_in_place_leaves_a_file_it_does_not_change(tmp_path: Path) -> None:
    target = tmp_path / "a.html"
    target.write_bytes(b"same")
    os.utime(target, ns=(1_000_000_000, 1_000_000_000))
    assert update_in_place(target, lambda old: None) == 0
    assert target.stat().st_mtime_ns == 1_000_000_000


def test_update_in_place_never_writes_through_other_names(tmp_path: Path) -> None:
    outside = tmp_path / "outside.html"
    outside.write_bytes(b"old")
    linked, pointing = tmp_path / "site" / "linked.html", tmp_path / "site" / "pointing.html"
    linked.parent.mkdir()
    os.link(outside, linked)
    pointing.symlink_to(outside)
    for target in (linked, pointing):
        assert update_in_place(target, lambda old: old + b" new") == 7
        assert target.read_bytes() == b"old new"
        assert not target.is_symlink()
    assert outside.read_bytes() == b"old"


def test_update_in_place_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(OutputError, match="Could not read"):
        update_in_place(tmp_path / "gone.html", lambda old: old)


def test_safe_target_refuses_escape(tmp_path: Path) -> None:
    assert safe_target(tmp_path, "a/b.md") == tmp_path.resolve() / "a" / "b.md"
    with pytest.raises(OutputError):
        safe_target(tmp_path, "../x.md")
    for outside in ("a/../../x.md", "/etc/x.md", "a/../.."):
        with pytest.raises(OutputError):
            safe_target(tmp_path, outside)
    assert safe_target(tmp_path, "a/../b.md") == tmp_path.resolve() / "b.md"


def test_safe_target_takes_a_site_folder_named_through_its_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `agentprose build ../site-pages/2.0`, as the versions recipe runs it
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    assert safe_target(Path("../site-pages/2.0"), "a.md") == tmp_path / "site-pages/2.0/a.md"
    with pytest.raises(OutputError):
        safe_target(Path("../site-pages/2.0"), "../1.0/a.md")


def test_write_atomic_gives_the_mode_of_any_new_file(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "a.md", "x")
        os.umask(0o077)
        write_atomic(tmp_path / "b.md", "x")
    finally:
        os.umask(umask)
    assert (tmp_path / "a.md").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "b.md").stat().st_mode & 0o777 == 0o600


def test_unwritable_target_is_a_clear_error(tmp_path: Path) -> None:
    # A file where a directory should be fails for root too (unlike a read-only dir).
    (tmp_path / "blocker").write_text("")
    with pytest.raises(OutputError, match="Could not write"):
        write_atomic(tmp_path / "blocker" / "a.md", "x")
