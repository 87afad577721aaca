"""Deterministic synthetic documentation sites: MkDocs + Material and Sphinx + Furo.

Both kinds are rendered from the same abstract pages (``pagegen.py``), so a 1,000-page
MkDocs site and a 1,000-page Sphinx project have the same tree, titles, prose, code,
tables, admonitions, tabs, API entries and cross-page links. Page sources are
5-15 KB each. The same ``seed`` and size always give byte-identical files.

    write_mkdocs_site(root, pages=1000, variants={"bare": [], ...})
    write_sphinx_site(root, pages=1000, variants={"bare": "", ...})
"""

from __future__ import annotations

import shutil
import subprocess
from typing import TYPE_CHECKING

from pagegen import plan_site
from render import render_markdown, render_rst

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from pagegen import Page

__all__ = ["BASE_URL", "SiteFiles", "git_commit", "write_mkdocs_site", "write_sphinx_site"]

BASE_URL = "https://bench.example/docs/"


class SiteFiles:
    """What a generator wrote: the root, one config per variant, the page sources."""

    def __init__(self, root: Path, configs: dict[str, Path], sources: list[Path]) -> None:
        self.root = root
        self.configs = configs
        self.sources = sources

    @property
    def source_bytes(self) -> int:
        return sum(path.stat().st_size for path in self.sources)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- MkDocs + Material -------------------------------------------------------------

_MKDOCS_HEAD = f"""site_name: Bench Docs
site_url: {BASE_URL}
site_description: A synthetic documentation site for the agentprose benchmark.
docs_dir: docs
theme:
  name: material
  features:
    - navigation.sections
    - navigation.indexes
    - navigation.top
    - content.code.copy
    - content.tabs.link
    - search.highlight
markdown_extensions:
  - admonition
  - attr_list
  - md_in_html
  - tables
  - def_list
  - toc:
      permalink: true
  - pymdownx.details
  - pymdownx.superfences
  - pymdownx.inlinehilite
  - pymdownx.highlight:
      anchor_linenums: true
  - pymdownx.tabbed:
      alternate_style: true
"""


_PLAIN_THEME = "theme:\n  name: null\n  custom_dir: theme\n"
_PLAIN_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>{{ page.title }} - {{ config.site_name }}</title></head>
<body><main>{{ page.content }}</main></body>
</html>
"""


def _mkdocs_nav(pages: list[Page]) -> str:
    lines = ["nav:", "  - Home: index.md"]
    for page in pages[1:]:
        indent = "  " * page.depth
        if page.is_index:  # a section: its index page first, then its pages
            lines.append(f"{indent}- {_yaml_str(page.title)}:")
            lines.append(f"{indent}  - {page.stem}.md")
        else:
            lines.append(f"{indent}- {_yaml_str(page.title)}: {page.stem}.md")
    return "\n".join(lines) + "\n"


def _yaml_str(text: str) -> str:
    return '"' + text.replace('"', "'") + '"'


def _mkdocs_plugins(entries: list[str]) -> str:
    lines = ["plugins:", "  - search"]
    lines += [f"  {line}" for entry in entries for line in entry.splitlines()]
    return "\n".join(lines) + "\n"


def write_mkdocs_site(
    root: Path, *, pages: int, variants: Mapping[str, list[str]], seed: int = 7,
    prune: bool = False, plain: bool = False,
) -> SiteFiles:
    """An N-page Material site in ``root/docs``, and ``root/mkdocs-<variant>.yml``.

    ``prune`` turns on Material's ``navigation.prune``: each page renders only the
    navigation around it, which Material recommends for large sites (a full one makes
    a bare build's cost per page grow with the number of pages).

    ``plain``: a theme of its own instead of Material (``root/theme/main.html``: the
    page's title and content, no navigation), so that the build's cost per page does not
    grow with the site and what a plugin adds per page shows at any size.

    ``variants`` maps a name to the YAML lines of its ``plugins:`` entries after
    ``search`` (``[]`` for a bare build), e.g. ``["- agentprose:", "    converter: x"]``.
    """
    planned = plan_site(pages, seed=seed)
    sources = [
        _write(root / "docs" / f"{page.stem}.md", render_markdown(page))
        for page in planned
    ]
    head = _MKDOCS_HEAD + _mkdocs_nav(planned)
    if plain:
        start = head.index("theme:\n")
        head = head[:start] + _PLAIN_THEME + head[head.index("markdown_extensions:"):]
        _write(root / "theme" / "main.html", _PLAIN_PAGE)
    elif prune:
        top = "    - navigation.top\n"
        head = head.replace(top, top + "    - navigation.prune\n")
    configs = {
        name: _write(root / f"mkdocs-{name}.yml", head + _mkdocs_plugins(entries))
        for name, entries in variants.items()
    }
    return SiteFiles(root, configs, sources)


# --- Sphinx + Furo -----------------------------------------------------------------

SPHINX_THEMES = {"sphinx": "furo", "sphinx-basic": "basic"}  # by bench kind
_CONF = f"""# Generated by bench/perf/sitegen.py
project = "Bench Docs"
author = "agentprose bench"
copyright = "2026, agentprose bench"
html_theme = "{{theme}}"
html_title = "Bench Docs"
html_baseurl = "{BASE_URL}"
pygments_style = "sphinx"
exclude_patterns = ["_build"]
suppress_warnings = ["ref.python"]
extensions = ["sphinx_design"]
"""


def write_sphinx_site(
    root: Path, *, pages: int, variants: Mapping[str, str], seed: int = 7, theme: str = "furo"
) -> SiteFiles:
    """An N-page project in ``root/src`` (Furo, or ``theme``), and
    ``root/conf-<variant>/conf.py``.

    ``variants`` maps a name to the conf.py lines appended for it (``""`` for bare);
    build with ``sphinx-build -c root/conf-<variant> root/src OUT``.
    """
    sources = [_write(root / "src" / f"{page.stem}.rst", render_rst(page))
               for page in plan_site(pages, seed=seed)]
    configs = {
        name: _write(root / f"conf-{name}" / "conf.py",
                     _CONF.replace("{theme}", theme) + lines).parent
        for name, lines in variants.items()
    }
    return SiteFiles(root, configs, sources)


def git_commit(root: Path) -> None:
    """Make the site a git repository of one commit, so agentprose's dates come from
    its one-pass git history (no git: nothing)."""
    if shutil.which("git") is None:
        return
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=bench", "-c", "user.email=bench@example.invalid",
                  "commit", "-q", "-m", "site"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)
