"""Build the corpus sites, one per theme, into a temporary folder, and list their pages.

MkDocs and Sphinx builds run with agentprose enabled and with the corpus' capture
hook/extension, which keeps each page's content fragment as the build tool hands it
to plugins. Zensical cannot run either, so its site is post-processed with
``agentprose build`` and read through the theme's content container.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

__all__ = ["BUILDS", "Build", "BuiltPage", "BuiltSite", "run_build", "view_of"]

SITES = Path(__file__).resolve().parent.parent / "sites"
BASE = "https://fidelity.example/"
TIMEOUT = 600  # seconds per build command


@dataclass(frozen=True)
class Build:
    """One site built with one theme."""

    name: str
    tool: str  # "mkdocs", "sphinx" or "zensical"
    theme: str
    container: str  # CSS selector of the content in a full page of this theme
    config: str = "mkdocs.yml"
    quick: bool = False

    @property
    def base_url(self) -> str:
        """Where this build's site is published."""
        return f"{BASE}{self.name}/"


_MATERIAL = "article.md-content__inner"
_BD = "article.bd-article"
BUILDS = (
    Build("mkdocs-material", "mkdocs", "material", _MATERIAL, quick=True),
    Build("mkdocs-mkdocs", "mkdocs", "mkdocs", "div[role=main]",
          config="mkdocs-theme-mkdocs.yml"),
    Build("mkdocs-readthedocs", "mkdocs", "readthedocs", "[itemprop=articleBody]",
          config="mkdocs-theme-readthedocs.yml", quick=True),
    Build("zensical", "zensical", "material", _MATERIAL),
    Build("sphinx-alabaster", "sphinx", "alabaster", "div.body", quick=True),
    Build("sphinx-furo", "sphinx", "furo", "article[role=main]", quick=True),
    Build("sphinx-rtd", "sphinx", "sphinx_rtd_theme", "div[itemprop=articleBody]"),
    Build("sphinx-pydata", "sphinx", "pydata_sphinx_theme", _BD),
    Build("sphinx-book", "sphinx", "sphinx_book_theme", _BD),
)


@dataclass(frozen=True)
class BuiltPage:
    """A page of a built site: its HTML, its agent view and what the plugins got."""

    name: str
    html_path: Path
    view_path: Path
    fragment: str | None
    source: Path | None


@dataclass
class BuiltSite:
    """A finished build, or why it failed."""

    build: Build
    site_dir: Path
    pages: list[BuiltPage] = field(default_factory=list)
    error: str | None = None
    note: str = ""


def view_of(output: str) -> str:
    """The agent view beside an output page: ``a/b/index.html`` -> ``a/b.md``."""
    path = PurePosixPath(output)
    if path.name == "index.html":
        return "index.md" if str(path.parent) == "." else f"{path.parent}.md"
    return str(path.with_suffix(".md"))


def _environment(capture: Path) -> dict[str, str]:
    env = dict(os.environ, FIDELITY_CAPTURE_DIR=str(capture), PYTHONDONTWRITEBYTECODE="1",
               NO_MKDOCS_2_WARNING="1", SOURCE_DATE_EPOCH="1767225600")
    env.pop("AGENTPROSE_DUMP_DIR", None)
    return env


def _run(command: list[str], *, cwd: Path, env: dict[str, str]) -> str | None:
    """Run a build command; the tail of its output when it fails, else None."""
    try:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{' '.join(command[:4])}: {error}"
    if done.returncode == 0:
        return None
    tail = (done.stderr or done.stdout).strip().splitlines()[-12:]
    return f"{' '.join(command[:4])} exited {done.returncode}:\n" + "\n".join(tail)


def _command(build: Build, source: Path, out: Path) -> list[str]:
    if build.tool == "mkdocs":
        return [sys.executable, "-m", "mkdocs", "build", "-q", "-f",
                str(source / build.config), "-d", str(out)]
    return [sys.executable, "-m", "sphinx", "-q", "-b", "html",
            "-D", f"html_theme={build.theme}", "-D", f"html_baseurl={build.base_url}",
            str(source), str(out)]


def _captured(build: Build, out: Path, capture: Path) -> list[BuiltPage]:
    pages = []
    for facts_path in sorted(capture.rglob("*.json")):
        facts = json.loads(facts_path.read_text(encoding="utf-8"))
        view = view_of(facts["output"])
        pages.append(BuiltPage(
            name=view.removesuffix(".md"),
            html_path=out / facts["output"],
            view_path=out / view,
            fragment=facts_path.with_suffix(".html").read_text(encoding="utf-8"),
            source=Path(facts["source"]) if build.tool == "mkdocs" else None,
        ))
    return sorted(pages, key=lambda page: page.name)


def _tool_build(build: Build, work: Path) -> BuiltSite:
    source, out, capture = work / f"src-{build.name}", work / f"out-{build.name}", \
        work / f"capture-{build.name}"
    shutil.copytree(SITES / build.tool, source)
    site = BuiltSite(build, out)
    site.error = _run(_command(build, source, out), cwd=source, env=_environment(capture))
    if site.error is None:
        site.pages = _captured(build, out, capture)
    return site


def _zensical_version() -> str | None:
    try:
        return importlib.metadata.version("zensical")
    except importlib.metadata.PackageNotFoundError:
        return None


def _zensical_pages(out: Path, docs: Path) -> list[BuiltPage]:
    pages = []
    for page in sorted(out.rglob("*.html")):
        output = page.relative_to(out).as_posix()
        name = view_of(output).removesuffix(".md")
        sources = [docs / f"{name}.md", docs / name / "index.md"]
        found = next((path for path in sources if path.is_file()), None)
        if found is not None:
            pages.append(BuiltPage(name, page, out / view_of(output), None, found))
    return pages


def _zensical_build(build: Build, work: Path) -> BuiltSite:
    source = work / f"src-{build.name}"
    shutil.copytree(SITES / "mkdocs", source)
    config = source / "mkdocs.yml"
    config.write_text(re.sub(r"(?m)^site_url:.*$", f"site_url: {build.base_url}",
                             config.read_text(encoding="utf-8")), encoding="utf-8")
    out = source / "site"
    site = BuiltSite(build, out)
    version = _zensical_version()
    if version is None:
        site.error = "zensical is not installed (pip install zensical)"
        return site
    site.note = f"zensical {version}"
    env = _environment(work / "capture-zensical")
    zensical = [sys.executable, "-m", "zensical", "build", "-f", str(config)]
    site.error = _run(zensical, cwd=source, env=env) or _run(
        [sys.executable, "-m", "agentprose_core.cli", "build", str(out),
         "--base-url", build.base_url, "--quiet"], cwd=source, env=env)
    if site.error is None:
        site.pages = _zensical_pages(out, source / "docs")
    return site


def run_build(build: Build, work: Path) -> BuiltSite:
    """Build ``build`` under ``work`` and list its pages (or say why it failed)."""
    if build.tool == "zensical":
        return _zensical_build(build, work)
    return _tool_build(build, work)
