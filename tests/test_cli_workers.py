"""`agentprose build` on a large Material site: workers and the nav cut change no byte."""

from __future__ import annotations

import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
import yaml

from agentprose_core.build.postbuild import build_site
from agentprose_core.convert.tree import to_html
from agentprose_core.extract.page import LARGE_NAV, decode, parse_page, without_large_navs
from agentprose_core.parallel.policy import MIN_PAGES
from agentprose_core.settings import Settings

from .outputs import check_site
from .sites import snapshot, write_tree

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://big.example/"
SECTIONS = 6
PER_SECTION = 12


@pytest.fixture(scope="module")
def material_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare Material build whose navigation is longer than LARGE_NAV on every page."""
    root = tmp_path_factory.mktemp("material")
    pages = {"docs/index.md": "# Home\n\nStart with [the first page](s0/p0.md).\n"}
    nav: list[object] = [{"Home": "index.md"}]
    for section in range(SECTIONS):
        entries = []
        for number in range(PER_SECTION):
            name = f"s{section}/p{number}.md"
            pages[f"docs/{name}"] = (
                f"# Page {section}.{number}\n\n## Setup\n\nSee [home](../index.md).\n\n"
                f"```python\nvalue = {number}\n```\n\n!!! note\n    Keep it.\n")
            entries.append({f"Page {section}.{number}": name})
        nav.append({f"Section {section}": entries})
    config = {"site_name": "Big", "site_url": BASE, "nav": nav,
              "theme": {"name": "material"}, "markdown_extensions": ["admonition"]}
    write_tree(root, {**pages, "mkdocs.yml": yaml.safe_dump(config, sort_keys=False)})
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return root / "site"


def test_the_nav_cut_leaves_content_and_metadata_as_they_were(material_site: Path) -> None:
    pages = sorted(material_site.rglob("*.html"))
    cut = 0
    for path in pages:
        text = decode(path.read_bytes())
        short = without_large_navs(text)
        cut += len(short) < len(text) - LARGE_NAV
        url = BASE + path.relative_to(material_site).as_posix()
        whole, lean = parse_page(text, url=url), parse_page(short, url=url)
        assert (whole.meta, whole.no_view, whole.diagnostics) == (
            lean.meta, lean.no_view, lean.diagnostics)
        assert (whole.content is None) == (lean.content is None)
        if whole.content is not None and lean.content is not None:
            assert to_html(whole.content) == to_html(lean.content)
    assert cut >= SECTIONS * PER_SECTION  # every content page had its nav cut


def test_workers_give_the_same_site_as_one_process(material_site: Path,
                                                   tmp_path: Path) -> None:
    built = {}
    for workers in (True, False):
        copy = tmp_path / str(workers)
        shutil.copytree(material_site, copy)
        build_site(copy, base_url=BASE, settings=Settings(workers=workers))
        built[workers] = snapshot(copy, (".md", ".json", ".txt", ".html"))
    assert built[True] == built[False]
    outputs = check_site(tmp_path / "True", BASE)
    second = outputs.index["posts"][1]
    assert (second["title"], second.get("section")) == ("Page 0.0", ["Section 0"]), second


def _plain_page(title: str, body: str, *, robots: str = "") -> str:
    meta = f'<meta name="robots" content="{robots}">' if robots else ""
    return (f"<!doctype html><html lang=en><head><title>{title}</title>{meta}</head>"
            f"<body><main><h1>{title}</h1>{body}</main></body></html>")


@pytest.mark.parametrize("workers", [True, False])
def test_a_link_to_a_page_without_a_view_is_converted_again(tmp_path: Path,
                                                             workers: bool) -> None:
    # Pages are converted while they are read, with every page's view URL; a page that
    # turns out to have none (noindex here) must not be linked as a view.
    pages = {f"p{n}.html": _plain_page(f"Page {n}", f'<p>See <a href="p{n + 1}.html">next</a>.</p>')
             for n in range(MIN_PAGES + 4)}
    pages["p1.html"] = _plain_page("Page 1", '<p>See <a href="hidden.html#top">hidden</a> '
                                             'and <a href="p2.html">next</a>.</p>')
    pages["hidden.html"] = _plain_page("Hidden", "<p>Not for robots.</p>", robots="noindex")
    write_tree(tmp_path, pages)
    build_site(tmp_path, base_url=BASE, settings=Settings(workers=workers))
    first = (tmp_path / "p1.md").read_text()
    assert f"[hidden]({BASE}hidden.html#top)" in first, first
    assert f"[next]({BASE}p2.md)" in first, first
    assert f"[next]({BASE}p3.md)" in (tmp_path / "p2.md").read_text()
    assert not (tmp_path / "hidden.md").exists()
