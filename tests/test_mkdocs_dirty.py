"""``mkdocs build --dirty`` and ``mkdocs serve --dirty``: MkDocs renders only the pages
changed since it last wrote them, and the site files must still list every page."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from agentprose_core.parallel.policy import worker_count

from .sites import commit_all, snapshot
from .test_cache import _age
from .test_mkdocs_plugin import make_site, mkdocs_build

if TYPE_CHECKING:
    from pathlib import Path

SITE_FILES = ("agentprose.json", "llms.txt", "llms-full.txt")

# What ``mkdocs serve --dirty`` does: a first build, then a reload after rocks.md changes.
_SERVE_DIRTY_EDIT = """
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

config = load_config(config_file="mkdocs.yml")
config.plugins.on_startup(command="serve", dirty=True)
build(config, dirty=True)
page = Path("docs/guide/rocks.md")
page.write_text(page.read_text() + "\\n{line}\\n")
build(load_config(config_file="mkdocs.yml"), dirty=True)
"""
_SERVE_DIRTY = _SERVE_DIRTY_EDIT.format(line="A line added for the reload.") + \
    "config.plugins.on_shutdown()\n"


@pytest.fixture
def site_root(tmp_path: Path) -> Path:
    """A site in git: its dates are the commit's, the same for every build."""
    root = make_site(tmp_path / "proj")
    commit_all(root, "first", "2025-03-04T05:06:07+00:00")
    return root


def _edit(root: Path) -> None:
    page = root / "docs/guide/rocks.md"
    page.write_text(page.read_text() + "\nA line added for the reload.\n")


def test_a_dirty_build_writes_what_a_full_build_writes(site_root: Path) -> None:
    # A new process: the pages MkDocs does not render again come from the last build's
    # page store in the cache folder.
    assert mkdocs_build(site_root).returncode == 0
    entries = set((site_root / ".cache" / "agentprose").glob("*/*.json"))
    _age(entries)
    _edit(site_root)
    done = mkdocs_build(site_root, "--dirty", quiet=False)
    assert done.returncode == 0, done.stderr
    assert "left as they were" not in done.stderr
    # The unchanged pages' cache entries were used, so they are kept; the edited page's
    # old one is not, and goes. With workers, a page is stored under the key of the site
    # map it was converted with and under the final one's (drafts leave this one's).
    after = set((site_root / ".cache" / "agentprose").glob("*/*.json"))
    per_page = 2 if worker_count(len(list((site_root / "docs").rglob("*.md"))),
                                 enabled=True) else 1
    assert len(entries - after) == per_page
    assert len(after - entries) == per_page
    full = mkdocs_build(site_root, "--site-dir", "full")
    assert full.returncode == 0, full.stderr
    dirty, built = snapshot(site_root / "site"), snapshot(site_root / "full")
    ours = [name for name in built if name.endswith(".md") or name in SITE_FILES]
    assert len(ours) == 7  # four views and the three site files
    assert {name: dirty[name] for name in ours} == {name: built[name] for name in ours}
    assert b"A line added for the reload." in dirty["agentprose.json"]
    pages = [name for name in built if name.endswith(".html")]
    assert {name: dirty[name] for name in pages} == {name: built[name] for name in pages}


def test_a_dirty_build_without_the_cache_leaves_the_site_files_as_they_were(
        tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": {"cache": False}}])
    commit_all(root, "first", "2025-03-04T05:06:07+00:00")
    assert mkdocs_build(root).returncode == 0
    site = root / "site"
    before = {name: (site / name).read_bytes() for name in SITE_FILES}
    _edit(root)
    done = mkdocs_build(root, "--dirty", quiet=False)
    assert done.returncode == 0, done.stderr
    assert "A line added for the reload." in (site / "guide/rocks.md").read_text()
    assert {name: (site / name).read_bytes() for name in SITE_FILES} == before
    assert "agentprose.json, llms.txt and llms-full.txt are left as they were" in done.stderr
    assert not (root / ".cache").exists()


def test_a_dirty_serve_reload_writes_what_a_full_build_writes(site_root: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _SERVE_DIRTY], cwd=site_root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # serve's reloads keep their pages in memory: no page store written per reload.
    assert not (site_root / ".cache" / "agentprose" / "pages.pickle").exists()
    full = mkdocs_build(site_root, "--site-dir", "full")
    assert full.returncode == 0, full.stderr
    reloaded, built = snapshot(site_root / "site"), snapshot(site_root / "full")
    ours = [name for name in built if name.endswith(".md") or name in SITE_FILES]
    assert len(ours) == 7  # four views and the three site files
    assert {name: reloaded[name] for name in ours} == {name: built[name] for name in ours}
    assert b"A line added for the reload." in reloaded["agentprose.json"]


_SERVE_DIRTY_COMMIT = _SERVE_DIRTY_EDIT.format(line="A line added, not yet committed.") + """
import os, subprocess
env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.org",
           GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.org",
           GIT_AUTHOR_DATE="2026-01-02T03:04:05+00:00",
           GIT_COMMITTER_DATE="2026-01-02T03:04:05+00:00")
subprocess.run(["git", "commit", "-qam", "rocks"], env=env, check=True)
build(load_config(config_file="mkdocs.yml"), dirty=True)  # MkDocs renders no page now
config.plugins.on_shutdown()
"""


def test_a_dirty_serve_after_a_commit_dates_the_page_anew_in_its_head_too(
        site_root: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _SERVE_DIRTY_COMMIT], cwd=site_root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    site = site_root / "site"
    assert 'modified: "2026-01-02T03:04:05Z"' in (site / "guide/rocks.md").read_text()
    page = (site / "guide/rocks/index.html").read_text(encoding="utf-8")
    assert page.count("application/ld+json") == 1
    assert page.count('rel="agentprose-index"') == 1
    assert '"dateModified":"2026-01-02T03:04:05Z"' in page.replace(" ", "")
    tide = (site / "guide/tide-pools/index.html").read_text(encoding="utf-8")
    assert '"dateModified":"2025-03-04T05:06:07Z"' in tide.replace(" ", "")
