"""Blocks for one audience (issue 43): agents only (in every agent output, hidden from
people) and people only (on the page, in no agent output), by class or attribute, in
both engines, in MkDocs, Sphinx (rST and MyST) and ``agentprose build``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agentprose_core import Settings, convert_fragment
from agentprose_core.audience import hide_agent_only, hide_agent_only_bytes
from agentprose_core.check.checker import check_site_dir
from agentprose_core.cli import main
from agentprose_core.settings import ENGINES

from .outputs import check_site
from .sites import write_tree

PAGE = "https://x.org/a/"
MARKED = (
    '<p>Intro.</p>'
    '<div class="agent-only" hidden><p>Call <code>api()</code> with a token.</p>'
    '<p hidden>Hidden inside.</p></div>'
    '<div data-agent-only style="display: none"><p>Agents two.</p></div>'
    '<div aria-hidden="true" class="note agent-only"><p>Agents three.</p></div>'
    '<div class="human-only"><p>Click the blue button.</p></div>'
    '<section data-human-only><p>People two.</p></section>'
    '<div class="not-agent-only" hidden><p>Plain hidden.</p></div>'
    '<p>End.</p>'
)


@pytest.mark.parametrize("engine", ENGINES)
def test_each_engine_keeps_blocks_for_agents_and_drops_blocks_for_people(engine: str) -> None:
    markdown = convert_fragment(MARKED, page_url=PAGE, site_map={},
                                settings=Settings(converter=engine)).markdown  # type: ignore[arg-type]
    assert markdown == ("Intro.\n\nCall `api()` with a token.\n\nAgents two.\n\n"
                        "Agents three.\n\nEnd.\n")


@pytest.mark.parametrize(("given", "shown"), [
    ('<div class="agent-only">', '<div class="agent-only" hidden>'),
    ('<div class="tip agent-only" markdown="1">',
     '<div class="tip agent-only" markdown="1" hidden>'),
    ("<aside data-agent-only>", "<aside data-agent-only hidden>"),
    ('<div data-agent-only="">', '<div data-agent-only="" hidden>'),
    ("<div class='agent-only'>", "<div class='agent-only' hidden>"),
    ('<div class="agent-only" hidden>', '<div class="agent-only" hidden>'),
    ('<div class="not-agent-only">', '<div class="not-agent-only">'),
    ('<div class="agent-only-ish">', '<div class="agent-only-ish">'),
    ('<p>&lt;div class="agent-only"&gt;</p>', '<p>&lt;div class="agent-only"&gt;</p>'),
    ('<div title="a > b" class="agent-only">', '<div title="a > b" class="agent-only" hidden>'),
    ('<div data-agent-onlyx>', '<div data-agent-onlyx>'),
])
def test_a_page_hides_its_blocks_for_agents_from_people(given: str, shown: str) -> None:
    assert hide_agent_only(given) == shown
    assert hide_agent_only(shown) == shown  # once
    assert hide_agent_only_bytes(("é " + given).encode("utf-8")) == ("é " + shown).encode()


DOCS = (Path(__file__).parent.parent / "docs" / "audiences.md").read_text(encoding="utf-8")


def _example(kind: str, needle: str) -> str:
    """The example of docs/audiences.md in a ``kind`` fence that holds ``needle``."""
    fences = re.findall(r"^(`{3,})(\w+)\n(.*?)^\1$", DOCS, re.MULTILINE | re.DOTALL)
    return next(body for _, language, body in fences if language == kind and needle in body)


DOC_PAGE = _example("markdown", '<div class="agent-only" markdown>')


def test_mkdocs_md_in_html_blocks(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "mkdocs.yml": "site_name: Coast\nsite_url: https://coast.example/\n"
                      "markdown_extensions: [md_in_html]\nnav: [index.md, tables.md]\n"
                      "plugins: [{agentprose: {quiet: [no-git]}}]\n",
        "docs/index.md": DOC_PAGE,
        "docs/tables.md": "# Tables\n\nHigh and low.\n",
    })
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=tmp_path,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    site = tmp_path / "site"
    outputs = check_site(site, "https://coast.example/")
    _assert_for_agents(outputs.views["index.md"][1], site, "https://coast.example/tables.md")
    _assert_page_for_people(site)


def _assert_page_for_people(site: Path) -> None:
    """The block for agents is hidden on the page, the block for people shown, and the
    site checks clean."""
    page = (site / "index.html").read_text(encoding="utf-8")
    assert '<div class="agent-only" hidden>' in page
    assert "Scroll down for the interactive map." in page
    report = check_site_dir(site)
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()


def _assert_for_agents(body: str, site: Path, link: str) -> None:
    assert f"To answer questions about tide times, read the [tables]({link}) first." in body
    assert "interactive map" not in body
    index = json.loads((site / "agentprose.json").read_text(encoding="utf-8"))
    assert "read the [tables]" in index["posts"][0]["markdown"]
    full = (site / "llms-full.txt").read_text(encoding="utf-8")
    assert "read the [tables]" in full
    assert "interactive map" not in full + json.dumps(index)


RST_PAGE = ("Tide pools\n==========\n\nLow tide leaves pools behind.\n\n"
            + _example("rst", ".. agent-only::") + "\n.. toctree::\n\n   tables\n")


def test_sphinx_directives_in_rst_and_myst(tmp_path: Path) -> None:
    myst = "# MyST\n\n" + _example("markdown", "```{agent-only}")
    src = tmp_path / "src"
    write_tree(src, {
        "conf.py": "project = 'Coast'\nextensions = ['myst_parser', 'sphinx_agentprose']\n"
                   "html_baseurl = 'https://coast.example/'\nagentprose_quiet = ['no-git']\n",
        "index.rst": RST_PAGE, "tables.rst": "Tables\n======\n\nHigh and low.\n",
        "myst.md": myst,
    })
    with (src / "index.rst").open("a", encoding="utf-8") as page:
        page.write("   myst\n")
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", ".",
                           str(out)], cwd=src, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    outputs = check_site(out, "https://coast.example/")
    link = "https://coast.example/tables.md"
    for view in ("index.md", "myst.md"):
        body = outputs.views[view][1]
        assert f"read the [Tables]({link}) first." in body, body
    assert "interactive map" not in outputs.views["index.md"][1]
    _assert_page_for_people(out)
    text = tmp_path / "text"  # a format people read: the block for agents is left out
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "text", ".",
                           str(text)], cwd=src, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    plain = (text / "index.txt").read_text(encoding="utf-8")
    assert "tide times" not in plain
    assert "interactive map" in plain


def test_agentprose_build_reads_the_attributes_and_hides_the_block(tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "plain-site", site)
    page = site / "rock-pools.html"
    text = page.read_text(encoding="utf-8")
    at = text.index("</article>")
    page.write_text(text[:at] + _example("html", "data-agent-only") + text[at:],
                    encoding="utf-8")
    base = "https://example.com/docs/"
    assert main(["build", str(site), "--base-url", base, "--quiet"]) == 0
    outputs = check_site(site, base)
    view = outputs.views["rock-pools.md"][1]
    assert "To answer questions about tide times, read the tables first." in view
    assert "interactive map" not in view
    shown = page.read_text(encoding="utf-8")
    assert "<div data-agent-only hidden>" in shown
    assert "Scroll down for the interactive map." in shown
    assert main(["build", str(site), "--base-url", base, "--quiet"]) == 0  # again: same bytes
    assert page.read_text(encoding="utf-8") == shown
