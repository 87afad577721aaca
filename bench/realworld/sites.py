"""The real public docs sites the harness builds, and how to build each one here.

A site names its repository and the commit measured, the build tool, where its docs
live in the checkout, what to ``pip install`` into its own venv, and the tweaks the
build needs on this machine (no network besides package registries): plugins that
fetch from the internet or duplicate agentprose's outputs are dropped, Sphinx
``intersphinx_mapping`` is emptied. ``{checkout}`` in a requirement is the checkout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Tool = Literal["mkdocs", "sphinx"]


@dataclass(frozen=True)
class Site:
    name: str
    repo: str
    commit: str
    tool: Tool
    theme: str
    docs_dir: str
    """MkDocs: the docs dir; Sphinx: the source dir (relative to the checkout)."""
    config: str
    """MkDocs: the mkdocs.yml; Sphinx: the folder of conf.py (relative to the checkout)."""
    requirements: tuple[str, ...]
    features: str
    drop_plugins: tuple[str, ...] = ()
    """MkDocs plugins left out of both builds (network, Insiders, competing outputs)."""
    overrides: dict[str, Any] = field(default_factory=dict)
    """MkDocs: top-level mkdocs.yml keys; Sphinx: conf.py values set after the original."""
    builder: str = "html"
    env: dict[str, str] = field(default_factory=dict)
    markers: Literal["md", "rst"] = "md"
    """The format of the planted hidden-marker page (MkDocs is always Markdown)."""
    notes: str = ""
    timeout: int = 900
    rebuild_page: str = ""
    """The source file ``timing.py --rebuild`` edits (relative to the checkout)."""


_NO_NETWORK_SPHINX: dict[str, Any] = {"intersphinx_mapping": {}}

SITES: tuple[Site, ...] = (
    Site(
        name="mkdocs-material",
        repo="squidfunk/mkdocs-material",
        commit="5b36f2ac499a45905e246bc66bbee2858ef6556f",
        tool="mkdocs",
        theme="material",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("mkdocs-material==9.7.6", "mkdocs-minify-plugin", "-r",
                      "{checkout}/requirements.txt"),
        features="Material, blog plugin, snippets, content tabs, annotations, admonitions, "
                 "minified HTML, hooks",
        notes="Theme from PyPI at the checkout's version (the checkout's material/ is the "
              "built theme, used through custom_dir overrides). Google Analytics key unset.",
        rebuild_page="docs/getting-started.md",
    ),
    Site(
        name="mkdocstrings-python",
        repo="mkdocstrings/python",
        commit="624974a419d6f0bf30acb4808675fdd66c6f302d",
        tool="mkdocs",
        theme="material",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("-e", "{checkout}", "markdown-callouts>=0.4", "markdown-exec[ansi]>=1.8",
                      "mkdocs>=1.6", "mkdocs-git-revision-date-localized-plugin>=1.2",
                      "mkdocs-material>=9.5", "mkdocs-minify-plugin>=0.8",
                      "mkdocs-redirects>=1.2", "mkdocs-section-index>=0.3",
                      "mkdocstrings>=0.29", "pydantic>=2.10", "ruff"),
        features="mkdocstrings (Python handler) API pages, autorefs, markdown-exec, "
                 "section-index, git revision dates, Material",
        drop_plugins=("llmstxt", "coverage"),
        overrides={"exclude_docs": "usage/configuration/headings.md\n"},
        notes="usage/configuration/headings.md excluded (its examples use Python 3.12 "
              "generics syntax; this machine has Python 3.11 only); llmstxt dropped "
              "(writes llms.txt, as agentprose does); coverage dropped "
              "(needs a coverage run); inventories of other sites not fetched (no network).",
    ),
    Site(
        name="httpx",
        repo="encode/httpx",
        commit="ae1b9f66238f75ced3ced5e4485408435de10768",
        tool="mkdocs",
        theme="material",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("-e", "{checkout}", "mkdocs==1.6.1", "mkautodoc==0.2.0",
                      "mkdocs-material==9.6.18"),
        features="Material (older 9.6), mkautodoc API pages, admonitions, custom_dir",
        rebuild_page="docs/quickstart.md",
    ),
    Site(
        name="mkdocs",
        repo="mkdocs/mkdocs",
        commit="2862536793b3c67d9d83c33e0dd6d50a791928f8",
        tool="mkdocs",
        theme="mkdocs",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("mkdocs==1.6.1", "markdown-callouts", "mdx-gh-links", "mkdocs-autorefs",
                      "mkdocs-click", "mkdocs-literate-nav", "mkdocs-redirects",
                      "mkdocstrings", "mkdocstrings-python", "pymdown-extensions"),
        features="mkdocs theme (highlight.js), literate-nav, redirects, autorefs, "
                 "mkdocstrings, mkdocs-click, callouts",
        notes="mkdocs 1.6.1 from PyPI (what the checkout documents) instead of the checkout.",
    ),
    Site(
        name="jrnl",
        repo="jrnl-org/jrnl",
        commit="90de4948d79a4fca8c7238dd2487b599f458c903",
        tool="mkdocs",
        theme="readthedocs",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("mkdocs>=1.6,<2",),
        features="readthedocs MkDocs theme with custom_dir and a static index.html template",
    ),
    Site(
        name="flask",
        repo="pallets/flask",
        commit="2ac89889f4cc330eabd50f295dcef02828522c69",
        tool="sphinx",
        theme="flask (pallets-sphinx-themes)",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}", "pallets-sphinx-themes", "sphinx<9", "sphinx-tabs",
                      "sphinxcontrib-log-cabinet"),
        features="pallets theme, autodoc API, sphinx-tabs, changelog directives, dirhtml",
        overrides=_NO_NETWORK_SPHINX,
        builder="dirhtml",
        markers="rst",
        notes="dirhtml builder, as on Read the Docs; intersphinx emptied (no network).",
        rebuild_page="docs/quickstart.rst",
    ),
    Site(
        name="pytest",
        repo="pytest-dev/pytest",
        commit="df87db7b0462fb764ef73fa00561adf8ad047572",
        tool="sphinx",
        theme="furo",
        docs_dir="doc/en",
        config="doc/en",
        requirements=("-e", "{checkout}", "-r", "{checkout}/doc/en/requirements.txt"),
        features="furo, autodoc, autosummary, viewcode, inline tabs, towncrier draft, "
                 "pygments-pytest, large site",
        overrides=_NO_NETWORK_SPHINX,
        markers="rst",
        timeout=1500,
        notes="intersphinx emptied (no network).",
    ),
    Site(
        name="sphinx-design",
        repo="executablebooks/sphinx-design",
        commit="4f66f32e160f16d73dee5eed52cd91984935763f",
        tool="sphinx",
        theme="furo",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}[rtd]", "furo"),
        features="sphinx-design grids, cards, tabs, dropdowns, badges; MyST; furo",
        env={"SPHINX_THEME": "furo"},
        markers="md",
        notes="SPHINX_THEME=furo (the conf picks the theme from the environment).",
    ),
    Site(
        name="sphinx-tabs",
        repo="executablebooks/sphinx-tabs",
        commit="399bd8e00c833430146700eb2073c01452806325",
        tool="sphinx",
        theme="alabaster",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}",),
        features="sphinx-tabs (hidden inactive panels, group and code tabs), alabaster",
        markers="rst",
    ),
    Site(
        name="myst-parser",
        repo="executablebooks/MyST-Parser",
        commit="4ec4cf86c2ba01e0d425f801f8374effc65b71fb",
        tool="sphinx",
        theme="sphinx-book-theme",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}[linkify,rtd]",),
        features="MyST syntax pages, sphinx-book-theme, sphinx-design, autodoc2, "
                 "togglebutton, copybutton, math, tippy",
        overrides=_NO_NETWORK_SPHINX,
        markers="md",
        notes="intersphinx emptied (no network).",
    ),
    Site(
        name="requests",
        repo="psf/requests",
        commit="1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e",
        tool="sphinx",
        theme="alabaster",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}", "-r", "{checkout}/docs/requirements.txt"),
        features="alabaster with custom sidebars, autodoc API, Sphinx 7.2, dirhtml",
        overrides=_NO_NETWORK_SPHINX,
        builder="dirhtml",
        markers="rst",
        notes="Sphinx 7.2.6 as pinned; dirhtml as on Read the Docs; intersphinx emptied.",
        rebuild_page="docs/user/quickstart.rst",
    ),
    Site(
        name="sphinx-rtd-theme",
        repo="readthedocs/sphinx_rtd_theme",
        commit="795de79c8b311592f5863a25307d85924bf52164",
        tool="sphinx",
        theme="sphinx_rtd_theme",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}", "-r", "{checkout}/docs/requirements.txt"),
        features="sphinx_rtd_theme demo pages (every reST construct, API, lists, tables, "
                 "math), autosummary",
        overrides=_NO_NETWORK_SPHINX,
        markers="rst",
        notes="intersphinx emptied (no network).",
    ),
)


def by_name(names: list[str] | None) -> list[Site]:
    """The sites named (all of them when ``names`` is None), in the list's order."""
    if not names:
        return list(SITES)
    known = {site.name: site for site in SITES}
    unknown = [name for name in names if name not in known]
    if unknown:
        raise SystemExit(f"Unknown site(s): {', '.join(unknown)}. Known: {', '.join(known)}")
    return [known[name] for name in names]
