"""agentprose beside mike (issue 42): ``mike deploy`` builds each version into a folder
of its own on the ``gh-pages`` branch. Each version's views, index and llms.txt name
that version's URLs and its ``version``; with mike's ``canonical_version`` (a common
production setting) only the views' canonical names the canonical version, as the
HTML pages' canonical links do."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from agentprose_core.check.checker import check_site_dir
from agentprose_core.cli import main

from ..outputs import check_site
from ..sites import snapshot
from .harness import docs_recipe, make_repo

BASE = "https://shore.example/docs/"
PAGES = {
    "docs/index.md": "# Shore\n\nA guide to the shore. Read about [tide pools](guide/pools.md).\n",
    "docs/guide/pools.md": "# Tide pools\n\nPools keep water between the rocks.\n",
}


def _mike(root: Path, *arguments: str) -> None:
    tools = Path(sys.executable).parent  # mike runs mkdocs (or properdocs) from PATH
    environ = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run([str(tools / "mike"), *arguments], cwd=root, capture_output=True,
                          text=True, check=False, timeout=600, env=environ)
    assert done.returncode == 0, done.stdout + done.stderr
    warned = [line for line in (done.stdout + done.stderr).splitlines()
              if "agentprose" in line and "WARNING" in line]
    assert warned == [], done.stdout + done.stderr


def _deployed(root: Path, tmp_path: Path) -> Path:
    pages = tmp_path / "gh-pages"
    subprocess.run(["git", "-C", str(root), "worktree", "add", "-q", str(pages), "gh-pages"],
                   check=True, capture_output=True)
    return pages


def _canonical_link(html: str) -> str | None:
    found = re.search(r'<link[^>]*rel="canonical"[^>]*href="([^"]+)"', html) or \
        re.search(r'<link[^>]*href="([^"]+)"[^>]*rel="canonical"', html)
    return found.group(1) if found else None


@pytest.mark.parametrize("canonical", [None, "latest"])
def test_each_version_names_its_own_urls(canonical: str | None, tmp_path: Path) -> None:
    mike = {"mike": {"canonical_version": canonical}} if canonical else "mike"
    config = {"site_name": "Shore", "site_url": BASE, "plugins": [mike, "agentprose"]}
    root = tmp_path / "site-src"
    make_repo(root, {**PAGES, "mkdocs.yml": yaml.dump(config)}, {})
    _mike(root, "deploy", "1.0")
    _mike(root, "deploy", "2.0", "latest", "--update-aliases")
    _mike(root, "set-default", "latest")
    pages = _deployed(root, tmp_path)

    for version in ("1.0", "2.0"):
        base = f"{BASE}{version}/"
        cited = f"{BASE}{canonical}/" if canonical else None
        outputs = check_site(pages / version, base, expect_pages=2, canonical_base=cited)
        front, _ = outputs.views["guide/pools.md"]
        assert front["version"] == version
        assert front["canonical"] == (cited or base) + "guide/pools/"
        assert f"[llms.txt]({base}llms.txt)" in (pages / version / "guide/pools.md").read_text()
        html = (pages / version / "guide" / "pools" / "index.html").read_text(encoding="utf-8")
        assert f'type="text/markdown" href="{base}guide/pools.md"' in html
        assert _canonical_link(html) == front["canonical"]
        report = check_site_dir(pages / version, base_url=base)
        assert report.ok, report.to_text()
    # version 1.0's index never points at another version's text: only its canonical
    # (with canonical_version) names where to cite the page
    index = json.loads((pages / "1.0" / "agentprose.json").read_text(encoding="utf-8"))
    for post in index["posts"]:
        for key in ("url", "markdown_url", "prev", "next"):
            assert post.get(key, BASE + "1.0/").startswith(BASE + "1.0/"), (key, post)
        assert post.get("canonical", BASE + "latest/").startswith(BASE + "latest/")
        assert ("canonical" in post) == (canonical is not None)


def test_the_root_of_a_versioned_tree_maps_every_version(tmp_path: Path) -> None:
    config = {"site_name": "Shore", "site_url": BASE,
              **docs_recipe("versions-and-translations.md", "- mike")}
    root = tmp_path / "site-src"
    make_repo(root, {**PAGES, "docs/guide/old.md": "# Old\n\nOnly in 1.0.\n",
                     "mkdocs.yml": yaml.dump(config)}, {})
    _mike(root, "deploy", "1.0")
    (root / "docs" / "guide" / "old.md").unlink()
    _mike(root, "deploy", "2.0", "latest", "--update-aliases")
    _mike(root, "set-default", "latest")
    pages = _deployed(root, tmp_path)

    assert main(["versions", str(pages)]) == 0
    llms = (pages / "llms.txt").read_text(encoding="utf-8")
    assert f"- [Tide pools]({BASE}2.0/guide/pools.md)" in llms  # the default's map first
    versions = llms.split("\n## Versions\n", 1)[1]
    assert f"- [2.0 (latest)]({BASE}2.0/llms.txt): the default version" in versions
    assert f"- [1.0]({BASE}1.0/llms.txt)" in versions
    index = json.loads((pages / "agentprose.json").read_text(encoding="utf-8"))
    assert index["site"]["url"] == BASE
    assert [post["url"] for post in index["posts"]] == [f"{BASE}2.0/", f"{BASE}2.0/guide/pools/"]
    assert (pages / "llms-full.txt").read_bytes() == (pages / "2.0" / "llms-full.txt").read_bytes()

    pools = (pages / "1.0" / "guide" / "pools.md").read_text(encoding="utf-8")
    assert f'version: "1.0"\nlatest: "{BASE}2.0/guide/pools/"\n' in pools
    assert "latest:" not in (pages / "1.0" / "guide" / "old.md").read_text(encoding="utf-8")
    assert "latest:" not in (pages / "2.0" / "guide" / "pools.md").read_text(encoding="utf-8")

    report = check_site_dir(pages, base_url=BASE)
    assert report.ok, report.to_text()
    before = snapshot(pages)
    assert main(["versions", str(pages)]) == 0  # again: the same bytes
    assert snapshot(pages) == before
