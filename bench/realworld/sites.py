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

Tool = Literal["mkdocs", "sphinx", "zensical"]


@dataclass(frozen=True)
class Site:
    name: str
    repo: str
    commit: str
    tool: Tool
    theme: str
    docs_dir: str
    """MkDocs, Zensical: the docs dir; Sphinx: the source dir (relative to the checkout)."""
    config: str
    """MkDocs: the mkdocs.yml; Zensical: its zensical.yml (or .toml: not supported yet);
    Sphinx: the folder of conf.py (relative to the checkout)."""
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
        rebuild_page="docs/usage/index.md",
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
        rebuild_page="docs/getting-started.md",
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
        rebuild_page="docs/usage.md",
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
        rebuild_page="doc/en/getting-started.rst",
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
        rebuild_page="docs/index.md",
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
        rebuild_page="docs/index.rst",
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
        rebuild_page="docs/intro.md",
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
        rebuild_page="docs/installing.rst",
    ),
    Site(
        name="ablog",
        repo="sunpy/ablog",
        commit="e7a55a323a7932a5bf900fd696d595f5dd977743",
        tool="sphinx",
        theme="alabaster",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}[notebook,markdown,docs]",),
        features="ablog blog extension (posts, archives, tags, categories, authors, "
                 "locations, languages, Atom feeds, sidebars), alabaster, nbsphinx notebook, "
                 "MyST page, automodapi",
        overrides=_NO_NETWORK_SPHINX,
        markers="rst",
        notes="intersphinx emptied (no network); needs pandoc on the PATH (nbsphinx).",
        rebuild_page="docs/index.rst",
    ),
    Site(
        name="pymdown-extensions",
        repo="facelessuser/pymdown-extensions",
        commit="7272a2dfcd6c97338dc8a4579289ed56167d67ce",
        tool="mkdocs",
        theme="material",
        docs_dir="docs/src/markdown",
        config="mkdocs.yml",
        requirements=("-e", "{checkout}", "mkdocs-material==9.6.23",
                      "mkdocs_pymdownx_material_extras>=2.1",
                      "mkdocs-git-revision-date-localized-plugin", "mkdocs-minify-plugin"),
        features="Material with custom_dir, snippets (auto_append), superfences custom fences "
                 "(diagram, math, md-render), blocks (admonition, details, tab, html, "
                 "caption, definition), tabbed, arithmatex, emoji, keys, critic, "
                 "git revision dates, minified HTML",
        notes="The last commit built with MkDocs (the next one, f91cee29, moved the docs to "
              "Zensical); pymdown_lexers (a git requirement, not on PyPI) not installed: "
              "its languages fall back to plain text in both builds.",
        rebuild_page="docs/src/markdown/installation.md",
    ),
    Site(
        name="mkdocs-llmstxt",
        repo="pawamoy/mkdocs-llmstxt",
        commit="01d89230223411456038be6eb3b0698528f8d8d3",
        tool="mkdocs",
        theme="material",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("-e", "{checkout}", "markdown-callouts>=0.4", "markdown-exec>=1.8",
                      "mkdocs>=1.6", "mkdocs-git-revision-date-localized-plugin>=1.2",
                      "mkdocs-material==9.7.6", "mkdocs-minify-plugin>=0.8",
                      "mkdocs-section-index>=0.3", "mkdocstrings[python]>=0.29", "ruff"),
        features="mkdocs-llmstxt kept (writes llms.txt and llms-full.txt itself), "
                 "mkdocstrings API page, autorefs, markdown-exec, section-index, typeset, "
                 "snippets, callouts, Material",
        drop_plugins=("coverage",),
        notes="llmstxt kept on purpose (the plugin built from the checkout): agentprose "
              "should warn about it; coverage dropped (needs a coverage run); inventories "
              "of other sites not fetched (no network); git-revision-date-localized and "
              "minify stay disabled (DEPLOY unset), as in a local build; ruff installed "
              "for signature formatting.",
        rebuild_page="docs/index.md",
    ),
    Site(
        name="sphinx-autoapi",
        repo="readthedocs/sphinx-autoapi",
        commit="20880281089c771487d992ddfb6e3e658d20da96",
        tool="sphinx",
        theme="furo",
        docs_dir="doc/source",
        config="doc/source",
        requirements=("-e", "{checkout}", "furo", "sphinx", "sphinx-design"),
        features="sphinx-autoapi (autoapi.extension; autoapiclass directives, no "
                 "generated API pages: autoapi_generate_api_docs = False), confval/event "
                 "object types, sphinx-design grid cards, furo",
        overrides=_NO_NETWORK_SPHINX,
        markers="rst",
        notes="intersphinx emptied (no network). Its conf sets "
              "autoapi_generate_api_docs = False: autoapi parses the source, "
              "the pages use autoapi directives, no API tree is generated.",
        rebuild_page="doc/source/tutorials.rst",
    ),
    Site(
        name="nbsphinx",
        repo="spatialaudio/nbsphinx",
        commit="c8ea68b13da2b4db3680bd4e60328297ec0b74d6",
        tool="sphinx",
        theme="insipid",
        docs_dir="doc",
        config="doc",
        requirements=("-e", "{checkout}", "ipykernel", "numpy", "matplotlib", "ipympl",
                      "pandas", "xarray", "setuptools", "sphinxcontrib-bibtex>=2.1",
                      "sphinxcontrib-svg2pdfconverter", "ipywidgets", "jupytext",
                      "sphinx-last-updated-by-git", "sphinx-codeautolink",
                      "insipid-sphinx-theme"),
        features="nbsphinx: notebooks executed at build time (ipykernel), pre-executed and "
                 "never-executed notebooks, jupytext custom formats (.pct.py, .md), "
                 "galleries with thumbnails, raw/hidden cells, widgets, prolog/epilog raw "
                 "HTML, bibtex, codeautolink, last-updated-by-git, insipid theme",
        overrides={**_NO_NETWORK_SPHINX, "nbsphinx_allow_errors": True,
                   "bibtex_bibfiles": ["../../../nbsphinx/doc/references.bib"]},
        markers="rst",
        notes="Needs pandoc on the PATH (apt-get install pandoc). intersphinx emptied (no "
              "network); nbsphinx_allow_errors = True: two cells fetch an image from the "
              "internet (Image(url=..., embed=True)) and show their traceback instead; "
              "bibtex_bibfiles relative to the wrapper conf dir "
              "(<checkouts>/.builds/nbsphinx/conf-<variant>), as sphinxcontrib-bibtex "
              "reads it relative to confdir. insipid theme, as Read the Docs installs it.",
        timeout=1500,
        rebuild_page="doc/index.rst",
    ),
    Site(
        name="griffe",
        repo="mkdocstrings/griffe",
        commit="b450abb0b372f594271a017153a297c75651531a",
        tool="mkdocs",
        theme="material",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("griffe==2.2.0", "code2flow>=2.5", "griffe-inherited-docstrings>=1.1.2",
                      "markdown-callouts>=0.4", "markdown-exec[ansi]>=1.8", "mkdocs>=1.6",
                      "mkdocs-gen-files>=0.5", "mkdocs-git-revision-date-localized-plugin>=1.2",
                      "mkdocs-material==9.7.6", "mkdocs-minify-plugin>=0.8",
                      "mkdocs-section-index>=0.3", "mkdocs-redirects>=1.2",
                      "mkdocstrings[python]>=0.29", "pydeps>=1.12", "ruff"),
        features="mkdocstrings (Python handler) API pages with inheritance diagrams, "
                 "git revision dates with creation dates (timeago), gen-files, "
                 "markdown-exec (console, ANSI, pydeps SVG), redirects, section-index, "
                 "typeset, minified HTML, Material",
        drop_plugins=("llmstxt", "coverage"),
        env={"DEPLOY": "true"},
        notes="griffe 2.2.0 from PyPI (the checkout's last tag; its three editable "
              "packages do not install with pip: griffecli asks for griffelib at another "
              "version string than griffelib builds); the API pages still document the "
              "checkout's source (mkdocstrings paths). DEPLOY=true, as the docs' CI and "
              "deploy set it: git-revision-date-localized, minify and the DEPLOY-only exec "
              "blocks are on; the pydeps graph needs graphviz's dot on the PATH "
              "(apt-get install graphviz). The console blocks that run `griffe check` show "
              "'griffe: not found' in every build (the venv's bin is not on PATH). llmstxt "
              "dropped (writes llms.txt, as agentprose does); coverage dropped (needs a "
              "coverage run); inventories of other sites not fetched (no network).",
        timeout=1500,
        rebuild_page="docs/getting-started.md",
    ),
    Site(
        name="python-package-guide",
        repo="pyOpenSci/python-package-guide",
        commit="7bb9682c03958a0fa85e1b09ba6d99cf4d6b85ea",
        tool="sphinx",
        theme="pydata-sphinx-theme 0.20.0",
        docs_dir=".",
        config=".",
        requirements=("-e", "{checkout}",),
        features="pydata-sphinx-theme, sphinx-design grids and cards (with :link:), MyST "
                 "(myst-nb, colon fences, attrs), inline tabs, bibtex, opengraph social "
                 "cards, sitemap, favicons, a plotly translation graph, custom RSS feed",
        overrides={**_NO_NETWORK_SPHINX,
                   "bibtex_bibfiles": ["../../../python-package-guide/bibliography.bib"]},
        markers="md",
        notes="intersphinx emptied (no network); bibtex_bibfiles relative to the wrapper "
              "conf dir (<checkouts>/.builds/python-package-guide/conf-<variant>), as "
              "sphinxcontrib-bibtex reads it relative to confdir. English only "
              "(SPHINX_LANG unset), as the nox docs session's first build.",
        timeout=1500,
        rebuild_page="tutorials/intro.md",
    ),
    Site(
        name="mkdocs-static-i18n",
        repo="ultrabug/mkdocs-static-i18n",
        commit="a82145850eedc3ff52e80cbead236d4eea16568f",
        tool="mkdocs",
        theme="material",
        docs_dir="docs",
        config="mkdocs.yml",
        requirements=("-e", "{checkout}", "mkdocs-material==9.7.6"),
        features="mkdocs-static-i18n (suffix structure, en default + fr build with "
                 "fallback to en, reconfigured Material and search, nav translations), "
                 "Material home template (custom_dir), tabs, admonitions",
        notes="The plugin from the checkout (its own docs).",
        rebuild_page="docs/index.md",
    ),
    Site(
        name="pymdown-extensions-zensical",
        repo="facelessuser/pymdown-extensions",
        commit="6d0097b85a52468e7cd8eaceaa192ff3348c41e0",
        tool="zensical",
        theme="zensical (material)",
        docs_dir="docs/src/markdown",
        config="zensical.yml",
        requirements=("-e", "{checkout}", "zensical==0.0.73"),
        features="a Zensical build (no third-party plugins) through `agentprose build "
                 "--source`: snippets, superfences custom fences, blocks, tabbed, "
                 "arithmatex, Material-compatible theme and navigation",
        notes="The same docs as pymdown-extensions, after their move to Zensical; "
              "pymdown_lexers (a git requirement) not installed. The checkout is named "
              "pymdown-extensions-zensical (a second clone of the repository).",
    ),
    Site(
        name="peps",
        repo="python/peps",
        commit="ba4deeb7969588d937da609008d05bb83a47b1ab",
        tool="sphinx",
        theme="pep_theme (the site's own)",
        docs_dir="peps",
        config="peps",
        requirements=("pygments>=2.21", "sphinx>=8.2", "docutils<0.22",
                      "sphinx-notfound-page>=1.0.2"),
        features="custom HTML builders (pep_sphinx_extensions' FileBuilder/DirectoryBuilder "
                 "registered over html and dirhtml; the dirhtml one subclasses "
                 "StandaloneHTMLBuilder), custom translator (PEPTranslator), PEP parser with "
                 "RFC 2822 headers and its own transforms, generated PEP 0 and topic indexes, "
                 "own theme, notfound page, RSS feed, extlinks, about 700 pages",
        overrides={**_NO_NETWORK_SPHINX,
                   "include_patterns": ["contents.rst", "pep-????.rst", "pep-????/*.rst",
                                        "api/*.rst", "docs/*.rst", "numerical.rst",
                                        "topic/*.rst", "zz-hidden-markers.rst"]},
        builder="dirhtml",
        markers="rst",
        notes="dirhtml, as `make dirhtml` deploys it (CI and Read the Docs): the name is "
              "Sphinx's, the builder is pep_sphinx_extensions' DirectoryBuilder (a "
              "StandaloneHTMLBuilder with dirhtml's URIs); the Makefile's move of "
              "404/index.html to 404.html and the pagefind search index are not done. "
              "intersphinx emptied (no network; nitpicky stays on, so the references to "
              "other sites warn in both builds); include_patterns repeats the conf's and "
              "adds the marker page. The build writes the generated pep-0000.rst, "
              "numerical.rst and topic/*.rst into peps/ (ignored by git). Resolved here: "
              "Sphinx 9.0.4 (the last for Python 3.11), docutils 0.21.2, Pygments 2.21.0.",
        timeout=2400,
        rebuild_page="peps/pep-0008.rst",
    ),
    Site(
        name="attrs",
        repo="python-attrs/attrs",
        commit="c1dc5dcba16ed827aa6dcad896b41a3afedb4e32",
        tool="sphinx",
        theme="furo 2025.12.19",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}", "furo==2025.12.19", "myst-parser==5.1.0",
                      "sphinx==9.0.4", "sphinx-notfound-page==1.1.0",
                      "sphinxcontrib-towncrier==0.5.0a0", "towncrier==25.8.0"),
        features="furo, MyST pages (colon fences, deflist, smartquotes, {include} of the "
                 "README), autodoc API with napoleon, default_role any, doctest blocks, "
                 "towncrier draft changelog (sphinxcontrib-towncrier), notfound page, "
                 "raw HTML sponsor logos",
        overrides=_NO_NETWORK_SPHINX,
        markers="md",
        notes="The docs dependency group at the versions uv.lock pins for Python 3.11; "
              "intersphinx emptied (no network). The docs-sponsors step (cog rewriting "
              "README.md and docs/index.md) is not run: the checkout's committed output is "
              "built. attrs installed editable from the checkout (hatch-vcs: the version "
              "comes from the clone's tags).",
        rebuild_page="docs/overview.md",
    ),
    Site(
        name="mkdocs-macros-plugin",
        repo="fralau/mkdocs-macros-plugin",
        commit="f4f5bb01e28f50e4f0ba697362b1973ae6d4b25d",
        tool="mkdocs",
        theme="material 9.7.6",
        docs_dir="webdoc/docs",
        config="webdoc/mkdocs.yml",
        requirements=("-e", "{checkout}", "mkdocs-include-markdown-plugin",
                      "mkdocs-material==9.7.6", "mkdocs-mermaid2-plugin"),
        features="Material (slate palette, tabs, sections), include-markdown with custom "
                 "tags ([% %]) including the repository's CHANGELOG.md, pages full of "
                 "literal Jinja2 ({{ }}, {% %}) in code and text, superfences custom "
                 "mermaid fences, admonitions, footnotes; docs in a subfolder (webdoc/)",
        drop_plugins=("mermaid2",),
        notes="The plugin's own docs (webdoc/, as Read the Docs builds them). They do not "
              "enable the macros plugin (on purpose: their Jinja2 examples must stay "
              "literal). mermaid2 dropped: at on_config it requests the Mermaid library's "
              "URL on unpkg.com (1.2.3 warns and goes on when offline, but the request "
              "is made; no network here); the package stays installed for the superfences "
              "custom fence (mermaid2.fence_mermaid_custom), so the diagrams stay "
              "<pre class=\"mermaid\"> blocks without the script.",
        rebuild_page="webdoc/docs/index.md",
    ),
    Site(
        name="pip-tools",
        repo="jazzband/pip-tools",
        commit="c58d5d945c0f20e9713e10f5fea2491a5c984f39",
        tool="sphinx",
        theme="furo 2025.12.19",
        docs_dir="docs",
        config="docs",
        requirements=("-e", "{checkout}", "click-extra[sphinx]==7.5.3", "furo==2025.12.19",
                      "myst-parser==5.0.0", "setuptools-scm==9.2.2", "sphinx==9.0.4",
                      "sphinxcontrib-apidoc==0.6.0", "sphinxcontrib-programoutput==0.18",
                      "sphinxcontrib-towncrier==0.5.0a0", "towncrier==25.8.0",
                      "sphinx-issues==5.0.1", "sphinx-design==0.7.0"),
        features="furo, MyST pages (colon fences), GitHub-style admonitions (click-extra), "
                 "sphinxcontrib-apidoc API pages generated at build time, program-output "
                 "(pip-compile --help, pip-sync --help run at build time), towncrier draft "
                 "changelog, sphinx-issues links, sphinx-design, dirhtml",
        overrides=_NO_NETWORK_SPHINX,
        builder="dirhtml",
        markers="md",
        notes="dirhtml, as on Read the Docs; docs/requirements.txt's pins, except Sphinx "
              "9.0.4 for 9.1.0 (which needs Python 3.12; this machine has 3.11) and its "
              "transitive pins left to pip; intersphinx emptied (no network; nitpicky stays "
              "on, so references to other sites warn in both builds). apidoc writes "
              "docs/pkg/*.rst (ignored by the checkout's docs/pkg/.gitignore).",
        rebuild_page="docs/index.md",
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
