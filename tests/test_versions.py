"""``agentprose versions`` on small trees written here (tests/ecosystem/test_mike.py runs
it on trees mike deployed)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from agentprose_core.build.versions import _with_latest, read_versions, write_versions
from agentprose_core.cli import main
from agentprose_core.errors import InputError

from .sites import snapshot, write_tree

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://x.org/docs/"


def _version(name: str, pages: list[str]) -> dict[str, str]:
    posts = [{"url": f"{BASE}{name}/{page}", "markdown_url": f"{BASE}{name}/{page or 'index'}"
              .rstrip("/") + ".md", "title": page or "Home", "modified": "2026-01-01T00:00:00Z"}
             for page in pages]
    files = {f"{name}/agentprose.json": json.dumps(
        {"version": 1, "generator": "t", "site": {"name": "X", "url": f"{BASE}{name}/"},
         "posts": posts}),
        f"{name}/llms.txt": f"# X\n\n> X {name}.\n\n## Docs\n\n- [Home]({BASE}{name}/index.md)\n",
        f"{name}/llms-full.txt": f"# Home\n\nSource: {BASE}{name}/\n"}
    for post in posts:
        view = post["markdown_url"][len(BASE):]
        files[view] = (f'---\ntitle: "{post["title"]}"\ncanonical: "{post["url"]}"\n'
                       f'modified: "2026-01-01T00:00:00Z"\nversion: "{name}"\n'
                       f'prev: "{BASE}{name}/"\n---\n\n# {post["title"]}\n')
    return files


def _tree(root: Path) -> None:
    write_tree(root, {
        **_version("2.0", ["", "guide/"]), **_version("1.0", ["", "guide/", "old/"]),
        "versions.json": json.dumps([
            {"version": "2.0", "title": "2.0", "aliases": ["latest"]},
            {"version": "1.0", "title": "1.0", "aliases": []}]),
        "index.html": '<meta http-equiv="refresh" content="1; url=latest/" />',
    })


def test_the_root_gets_the_default_versions_map_and_old_views_their_latest(
        tmp_path: Path) -> None:
    _tree(tmp_path)
    written = write_versions(tmp_path)
    assert written.default == "2.0"
    assert written.files == ["agentprose.json", "llms.txt", "llms-full.txt"]
    assert written.views_dated == 2  # home and guide; old/ is not in 2.0
    index = json.loads((tmp_path / "agentprose.json").read_text())
    assert index["site"]["url"] == BASE
    assert [post["url"] for post in index["posts"]] == [f"{BASE}2.0/", f"{BASE}2.0/guide/"]
    llms = (tmp_path / "llms.txt").read_text()
    assert llms.endswith(f"## Versions\n\n- [2.0 (latest)]({BASE}2.0/llms.txt): the default "
                         f"version, listed above\n- [1.0]({BASE}1.0/llms.txt)\n")
    guide = (tmp_path / "1.0/guide.md").read_text()
    assert f'version: "1.0"\nlatest: "{BASE}2.0/guide/"\nprev:' in guide
    assert "latest" not in (tmp_path / "1.0/old.md").read_text()
    assert "latest" not in (tmp_path / "2.0/guide.md").read_text()
    before = snapshot(tmp_path)
    write_versions(tmp_path)
    assert snapshot(tmp_path) == before  # idempotent


def test_the_default_version_can_be_named(tmp_path: Path) -> None:
    _tree(tmp_path)
    write_versions(tmp_path)
    assert write_versions(tmp_path, default="1.0").default == "1.0"
    assert f'latest: "{BASE}1.0/guide/"' in (tmp_path / "2.0/guide.md").read_text()
    assert "latest" not in (tmp_path / "1.0/guide.md").read_text()  # moved with the default
    with pytest.raises(InputError, match="not a version"):
        write_versions(tmp_path, default="3.0")


@pytest.mark.parametrize(("content", "message"), [
    (None, "has no versions.json"),
    ("[not json", "cannot be read"),
    ('{"version": "1.0"}', "not mike's list"),
])
def test_a_tree_without_mikes_list_is_refused_with_what_to_do(
        tmp_path: Path, content: str | None, message: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    if content is not None:
        (tmp_path / "versions.json").write_text(content)
    with pytest.raises(InputError, match=message):
        read_versions(tmp_path)
    assert main(["versions", str(tmp_path)]) == 2
    assert "agentprose: error:" in capsys.readouterr().err


def test_latest_takes_its_place_in_the_key_order() -> None:
    view = (b'---\ntitle: "T"\ncanonical: "u"\nmodified: "m"\nauthor:\n  - "A"\n  - "B"\n'
            b'lang: "en"\ntranslations:\n  - lang: "fr"\n    url: "f"\nnext: "n"\n---\n\nBody\n')
    dated = _with_latest(view, target="https://x.org/l/")
    assert dated is not None
    assert b'lang: "en"\nlatest: "https://x.org/l/"\ntranslations:' in dated
    assert _with_latest(dated, target="https://x.org/l/") is None  # unchanged
    assert _with_latest(dated, target=None) == view
    assert _with_latest(b"no front matter", target="x") is None


def test_zensical_versions_deployed_as_mike_lays_them_out(tmp_path: Path) -> None:
    """Zensical versions a site with its fork of mike, which runs no plugin of ours:
    ``agentprose build --site-version`` on each version's folder, then ``agentprose
    versions`` on the tree, as docs/versions-and-translations.md says."""
    import shutil

    from .outputs import check_site
    from .test_cli import zensical_site

    root = zensical_site(tmp_path / "proj")
    tree = tmp_path / "gh-pages"
    shutil.copytree(root / "site", tree / "1.0")
    shutil.copytree(root / "site", tree / "2.0")
    shutil.rmtree(tree / "2.0/admonitions")  # a page 2.0 dropped
    write_tree(tree, {"versions.json": json.dumps([
        {"version": "2.0", "title": "2.0", "aliases": ["latest"]},
        {"version": "1.0", "title": "1.0", "aliases": []}])})
    for name in ("1.0", "2.0"):
        assert main(["build", str(tree / name), "--base-url", f"{BASE}{name}/", "--source",
                     str(root / "docs"), "--site-version", name, "--quiet"]) == 0
    assert main(["versions", str(tree)]) == 0
    old = check_site(tree / "1.0", f"{BASE}1.0/")
    front, _ = old.views["code.md"]
    assert (front["version"], front["latest"]) == ("1.0", f"{BASE}2.0/code/")
    assert "latest" not in old.views["admonitions.md"][0]
    assert check_site(tree / "2.0", f"{BASE}2.0/").views["code.md"][0]["version"] == "2.0"
    llms = (tree / "llms.txt").read_text(encoding="utf-8")
    assert f"- [2.0 (latest)]({BASE}2.0/llms.txt): the default version, listed above" in llms
    assert f"- [1.0]({BASE}1.0/llms.txt)" in llms
    from agentprose_core.check.checker import check_site_dir

    report = check_site_dir(tree)
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()
