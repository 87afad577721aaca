"""A full disk gives a clear error, and leaves no half-written file behind."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from agentprose_core.errors import OutputError
from agentprose_core.files import update_in_place
from agentprose_core.model import PageRecord
from agentprose_core.records.store import RecordStore

if TYPE_CHECKING:
    from collections.abc import Iterator

EXAMPLE = Path(__file__).parent.parent / "examples" / "plain-site"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 96 KiB tmpfs: room for the example site, not for its agent outputs."""
    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if os.environ.get("CI") == "true":
            pytest.fail(f"cannot mount a small tmpfs for this test: {done.stderr.strip()}")
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def test_cli_on_a_full_disk(small_disk: Path) -> None:
    site = small_disk / "site"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("README.md"))
    filler = small_disk / "filler"
    free = shutil.disk_usage(small_disk).free
    filler.write_bytes(b"\0" * max(free - 6 * 1024, 0))
    done = subprocess.run(
        [sys.executable, "-m", "agentprose_core.cli", "build", str(site), "--base-url",
         "https://coast.example/"], capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "agentprose: error: Could not write" in done.stderr
    assert "No space left on device" in done.stderr
    assert "Traceback" not in done.stderr
    leftovers = [p.name for p in site.rglob(".*.tmp")]
    assert leftovers == []
    for page in site.rglob("*.html"):  # the site itself is untouched or whole
        assert page.read_text(encoding="utf-8").rstrip().endswith("</html>")


def test_a_page_updated_in_place_on_a_full_disk_keeps_its_bytes(small_disk: Path) -> None:
    page = small_disk / "page.html"
    old = b"<html><head></head><body>" + b"x" * 3000 + b"</body></html>\n"
    page.write_bytes(old)
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * shutil.disk_usage(small_disk).free)
    grown = b"<link>" * 2000  # past the page's last block: needs room the disk lacks
    with pytest.raises(OutputError, match="No space left on device"):
        update_in_place(page, lambda document: document.replace(b"</head>", grown + b"</head>"))
    assert page.read_bytes() == old


def test_a_sphinx_page_record_saved_on_a_full_disk_keeps_the_last_one(small_disk: Path) -> None:
    def record(markdown: str) -> PageRecord:
        return PageRecord(url="https://x.org/a/", markdown_url="https://x.org/a.md",
                          title="A", modified="2026-01-01T00:00:00Z", markdown=markdown)

    records = RecordStore(small_disk / "records")
    records.save("a", record("# A\n"))
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * shutil.disk_usage(small_disk).free)
    with pytest.raises(OutputError, match="No space left on device"):
        records.save("a", record("# A\n" + "x" * 20_000))
    assert records.load("a") == record("# A\n")
