"""agentprose beside the Sphinx extensions and themes real sites combine it with
(``make test-ecosystem``: they are pinned in .ci/ecosystem.txt)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest

from .harness import Build, check_invariants, make_repo, run, same_bytes_again

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ..outputs import SiteOutputs

BASE = "https://shore.example/docs/"
PAGES = {
    "index.rst": "Shore\n=====\n\nA guide to the shore at low tide. Read about "
                 ":ref:`life in the pools <life>`.\n\n.. toctree::\n   :caption: Guide\n\n"
                 "   guide/pools\n   guide/rocks\n",
    "guide/pools.rst": (
        "Tide pools\n==========\n\nPools at low tide keep water between the rocks.\n\n"
        ".. _life:\n\nLife\n----\n\nCrabs and anemones.\n\n.. code-block:: python\n\n"
        "   print('tide')\n\n.. note:: Crabs escape.\n"),
    "guide/rocks.rst": "Rock pools\n==========\n\nCarved in rock. Back to :doc:`pools`.\n",
}
LATER = {"guide/rocks.rst": "Rock pools\n==========\n\nCarved in solid rock. Back to "
                            ":doc:`pools`.\n"}
SHORELIB = {
    "src/shorelib/__init__.py": (
        '"""Shore tools."""\n\nimport argparse\n\n\n'
        "def count(pool: str, depth: float = 1.5) -> int:\n"
        '    """Count the crabs.\n\n    :param pool: The pool.\n    :param depth: How deep.\n'
        '    """\n    return 0\n\n\n'
        "def parser() -> argparse.ArgumentParser:\n"
        '    """The command line."""\n    made = argparse.ArgumentParser(prog="shore")\n'
        '    made.add_argument("--pool", help="the pool to count")\n    return made\n'),
}
SHORELIB_LATER = {"src/shorelib/__init__.py": SHORELIB["src/shorelib/__init__.py"].replace(
    "Count the crabs.", "Count the crabs and the shrimps.")}
SYS_PATH = "import os, sys\nsys.path.insert(0, os.path.abspath('src'))\n"


@dataclass
class Case:
    """A neighbour: its extensions (before agentprose), conf.py lines, files, checks."""

    extensions: list[str] = field(default_factory=list)
    conf: str = ""
    files: dict[str, str] = field(default_factory=dict)
    later: dict[str, str] = field(default_factory=dict)
    pages: int | None = 3
    check: Callable[[Path, SiteOutputs], None] | None = None
    builder: str = "html"


def _api_dated(site: Path, outputs: SiteOutputs) -> None:
    dated = {path: front["modified"] for path, (front, body) in outputs.views.items()
             if "crabs and the shrimps" in body}
    assert dated, dated
    assert set(dated.values()) == {"2025-03-04T05:06:07Z"}, dated


def _card_links(site: Path, outputs: SiteOutputs) -> None:
    body = outputs.views["index.md"][1]
    assert f"[Rocks]({BASE}guide/rocks.md)" in body
    assert "**Python**" in body
    assert "**Shell**" in body


def _no_view_for(*names: str) -> Callable[[Path, SiteOutputs], None]:
    def check(site: Path, outputs: SiteOutputs) -> None:
        for name in names:
            assert not (site / name).exists(), name
    return check


def _notebook(site: Path, outputs: SiteOutputs) -> None:
    body = outputs.views["tides.md"][1]
    assert "```python\nlevel = 3\nprint(level)\n```" in body
    assert "[1]:" not in body


def _blog(site: Path, outputs: SiteOutputs) -> None:
    index = outputs.index["posts"]
    post = next(p for p in index if p["url"].endswith("posts/spring.html"))
    assert post["published"] == "2022-01-01T00:00:00Z", post
    # ablog's generated listings: views dated by the newest post they list
    listings = {p["url"].removeprefix(BASE): p for p in index if "/blog" in p["url"]}
    assert set(listings) >= {"blog.html", "blog/tag/tides.html", "blog/archive.html",
                             "blog/2022.html"}, sorted(listings)
    for listing in listings.values():
        assert listing["modified"] == post["modified"], listing
        assert f"({post['markdown_url']})" in listing["markdown"], listing
        assert "summary" not in listing, listing  # the first post's is not the listing's
    front, body = outputs.views["blog/tag/tides.md"]
    assert front["modified"] == post["modified"]
    assert "Spring tides" in body
    page = (site / "blog/tag/tides.html").read_text("utf-8")
    assert f'href="{BASE}blog/tag/tides.md"' in page
    assert "data-agentprose-hint" in page


CASES: dict[str, Case] = {
    "alabaster": Case(),
    "rtd-theme": Case(conf='html_theme = "sphinx_rtd_theme"\n'),
    "pydata-theme": Case(conf='html_theme = "pydata_sphinx_theme"\n'),
    "book-theme": Case(conf='html_theme = "sphinx_book_theme"\n'),
    "furo": Case(conf='html_theme = "furo"\n'),
    "autodoc-typehints": Case(
        ["sphinx.ext.autodoc", "sphinx_autodoc_typehints"], conf=SYS_PATH,
        files={**SHORELIB, "api.rst": "API\n===\n\n.. automodule:: shorelib\n   :members:\n"},
        later=SHORELIB_LATER, pages=4, check=_api_dated),
    "napoleon-viewcode": Case(
        ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.viewcode"], conf=SYS_PATH,
        files={**SHORELIB, "api.rst": "API\n===\n\n.. automodule:: shorelib\n   :members:\n"},
        later=SHORELIB_LATER, pages=4, check=_api_dated),
    "numpydoc": Case(
        ["sphinx.ext.autodoc", "numpydoc"], conf=SYS_PATH + "numpydoc_show_class_members = False\n",
        files={**SHORELIB, "api.rst": "API\n===\n\n.. automodule:: shorelib\n   :members:\n"},
        later=SHORELIB_LATER, pages=4, check=_api_dated),
    "autoapi": Case(["autoapi.extension"], conf="autoapi_dirs = ['src']\n"
                    "autoapi_add_toctree_entry = True\n", files=SHORELIB, later=SHORELIB_LATER,
                    pages=None, check=_api_dated),
    "autodoc2": Case(["autodoc2"], conf="autodoc2_packages = ['src/shorelib']\n",
                     files={**SHORELIB, "index.rst": PAGES["index.rst"]
                            + "   apidocs/index\n"}, later=SHORELIB_LATER, pages=None),
    "automodapi": Case(["sphinx_automodapi.automodapi"], conf=SYS_PATH,
                       files={**SHORELIB, "api.rst": "API\n===\n\n.. automodapi:: shorelib\n"},
                       later=SHORELIB_LATER, pages=None),
    "argparse": Case(["sphinxarg.ext"], conf=SYS_PATH, files={
        **SHORELIB, "cli.rst": "CLI\n===\n\n.. argparse::\n   :module: shorelib\n"
        "   :func: parser\n   :prog: shore\n"}, pages=4),
    "copybutton": Case(["sphinx_copybutton"]),
    "design": Case(["sphinx_design"], files={"index.rst": PAGES["index.rst"] + (
        "\n.. grid:: 2\n\n   .. grid-item-card:: Rocks\n      :link: guide/rocks\n"
        "      :link-type: doc\n\n      Carved in rock.\n\n"
        "   .. grid-item-card:: Pools\n      :link: life\n      :link-type: ref\n\n"
        "      Life at low tide.\n\n.. tab-set::\n\n   .. tab-item:: Python\n\n"
        "      pip install shore\n\n   .. tab-item:: Shell\n\n      shore count\n")},
        check=_card_links),
    "sphinx-tabs": Case(["sphinx_tabs.tabs"], files={"index.rst": PAGES["index.rst"] + (
        "\n.. tabs::\n\n   .. tab:: Python\n\n      pip install shore\n\n"
        "   .. tab:: Shell\n\n      shore count\n")}),
    "inline-tabs": Case(["sphinx_inline_tabs"], conf='html_theme = "furo"\n', files={
        "index.rst": PAGES["index.rst"] + "\n.. tab:: Python\n\n   pip install shore\n\n"
        ".. tab:: Shell\n\n   shore count\n"}),
    "togglebutton": Case(["sphinx_togglebutton"], files={"index.rst": PAGES["index.rst"]
                         + "\n.. toggle::\n\n   Hidden until clicked.\n"}),
    "httpdomain": Case(["sphinxcontrib.httpdomain"], files={"guide/rocks.rst": (
        LATER["guide/rocks.rst"] + "\n.. http:get:: /pools/(int:pool_id)\n\n"
        "   The pool.\n\n   :statuscode 200: found\n")}),
    "mermaid": Case(["sphinxcontrib.mermaid"], files={"index.rst": PAGES["index.rst"]
                    + "\n.. mermaid::\n\n   graph LR\n     A --> B\n"}),
    "prompt": Case(["sphinx-prompt"], files={"index.rst": PAGES["index.rst"]
                   + "\n.. prompt:: bash $\n\n   pip install shore\n"}),
    "programoutput": Case(["sphinxcontrib.programoutput"], files={
        "index.rst": PAGES["index.rst"] + '\n.. program-output:: python -c "print(42)"\n'}),
    "emoji": Case(["sphinxemoji.sphinxemoji"], files={"index.rst": PAGES["index.rst"]
                  + "\nLow tide |:ocean:|.\n"}),
    "video": Case(["sphinxcontrib.video"], files={"shore.mp4": "not a video", "index.rst":
                  PAGES["index.rst"] + "\n.. video:: shore.mp4\n"}),
    "youtube": Case(["sphinxcontrib.youtube"], files={"index.rst": PAGES["index.rst"]
                    + "\n.. youtube:: LXb3EKWsInQ\n"}),
    "bibtex": Case(["sphinxcontrib.bibtex"], conf="bibtex_bibfiles = ['refs.bib']\n", files={
        "refs.bib": "@book{ruiz2020,\n  title={Tides},\n  author={Ruiz, Ana},\n"
                    "  year={2020},\n  publisher={Shore}\n}\n",
        "guide/rocks.rst": LATER["guide/rocks.rst"] + "\nAs :cite:p:`ruiz2020` says.\n\n"
                           ".. bibliography::\n"}),
    "issues": Case(["sphinx_issues"], conf="issues_github_path = 'shore/shore'\n", files={
        "index.rst": PAGES["index.rst"] + "\nFixed in :issue:`42`.\n"}),
    "toolbox": Case(["sphinx_toolbox.collapse"], files={"index.rst": PAGES["index.rst"]
                    + "\n.. collapse:: Details\n\n   Hidden until opened.\n"}),
    "favicon-opengraph-sitemap": Case(
        ["sphinx_favicon", "sphinxext.opengraph", "sphinx_sitemap"],
        conf="html_baseurl = 'https://shore.example/docs/'\nogp_site_url = html_baseurl\n"),
    "last-updated-by-git": Case(["sphinx_last_updated_by_git"]),
    "notfound-page": Case(["notfound.extension"], check=_no_view_for("404.md")),
    "reredirects": Case(["sphinx_reredirects"], conf="redirects = {'old': 'guide/pools.html'}\n",
                        check=_no_view_for("old.md")),
    "myst-parser": Case(["myst_parser"], files={"guide/rocks.md": "# Rock pools\n\n"
                        "Carved in rock. Back to [pools](pools.rst).\n\n```{note}\nMind "
                        "the tide.\n```\n", "guide/rocks.rst": None}),  # type: ignore[dict-item]
    "nbsphinx": Case(["nbsphinx"], conf="nbsphinx_execute = 'never'\n", files={
        "index.rst": PAGES["index.rst"] + "   tides\n",
        "tides.ipynb": json.dumps({"cells": [
            {"cell_type": "raw", "metadata": {"raw_mimetype": "text/restructuredtext"},
             "source": ["Tides\n", "=====\n"]},
            {"cell_type": "code", "execution_count": 1, "metadata": {},
             "source": ["level = 3\n", "print(level)"],
             "outputs": [{"name": "stdout", "output_type": "stream", "text": ["3\n"]}]}],
            "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                        "language": "python"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5})}, pages=4, check=_notebook),
    "ablog": Case(["ablog"], conf="blog_path = 'blog'\nblog_baseurl = html_baseurl\n", files={
        "index.rst": PAGES["index.rst"] + "   posts/spring\n",
        "posts/spring.rst": ".. post:: Jan 01, 2022\n   :tags: tides\n\nSpring tides\n"
                            "============\n\nThe moon pulls harder.\n"}, pages=None, check=_blog),
    "external-toc": Case(["sphinx_external_toc"], conf="external_toc_path = '_toc.yml'\n",
                         files={"_toc.yml": "root: index\nsubtrees:\n- entries:\n"
                                "  - file: guide/pools\n  - file: guide/rocks\n",
                                "index.rst": "Shore\n=====\n\nA guide to the shore at low "
                                "tide. Read about :ref:`life in the pools <life>`.\n"}),
}


def _todo_shown(site: Path, outputs: SiteOutputs) -> None:
    assert "Count the shrimps too." in outputs.views["guide/rocks.md"][1]


CASES.update({  # Sphinx's own extensions, as sites combine them
    "todo-extlinks-ifconfig": Case(
        ["sphinx.ext.todo", "sphinx.ext.extlinks", "sphinx.ext.ifconfig"],
        conf="todo_include_todos = True\nextlinks = {'issue': ('https://shore.example/"
             "issues/%s', 'issue %s')}\n", files={
            "guide/rocks.rst": LATER["guide/rocks.rst"] + "\n.. todo:: Count the shrimps "
            "too.\n\nSee :issue:`7`.\n\n.. ifconfig:: project == 'Shore'\n\n   Shown when set.\n"},
        check=_todo_shown),
    "githubpages-duration": Case(["sphinx.ext.githubpages", "sphinx.ext.duration"]),
    "doctest-mathjax": Case(["sphinx.ext.doctest", "sphinx.ext.mathjax"], files={
        "guide/rocks.rst": LATER["guide/rocks.rst"] + "\n.. doctest::\n\n   >>> 1 + 1\n"
        "   2\n\n.. math::\n\n   h = 2t\n\nInline :math:`a^2`.\n"}),
    "autosectionlabel": Case(["sphinx.ext.autosectionlabel"], conf=(
        "autosectionlabel_prefix_document = True\n"), files={
        "guide/rocks.rst": LATER["guide/rocks.rst"] + "\nSee :ref:`guide/pools:life`.\n"}),
    "intersphinx-offline": Case(["sphinx.ext.intersphinx"], conf="intersphinx_mapping = {}\n"),
    "graphviz-free-inheritance": Case(  # no dot here: the directive's source is kept
        ["sphinx.ext.autodoc", "sphinx.ext.autosummary"], conf=SYS_PATH +
        "autosummary_generate = True\n", files={**SHORELIB, "api.rst": (
            "API\n===\n\n.. autosummary::\n   :toctree: generated\n\n   shorelib.count\n"
            "   shorelib.parser\n")}, later=SHORELIB_LATER, pages=None, check=_api_dated),
    "dirhtml": Case(builder="dirhtml"),
})


def _conf(case: Case, with_agentprose: bool) -> str:
    extensions = [*case.extensions, *(["sphinx_agentprose"] if with_agentprose else [])]
    return (f"project = 'Shore'\nextensions = {extensions!r}\n"
            f"html_baseurl = '{BASE}'\nexclude_patterns = ['_build', 'out', 'bare', 'src']\n"
            + case.conf)


@pytest.mark.parametrize("name", sorted(CASES))
def test_beside(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    root = tmp_path / "site-src"
    files = {path: text for path, text in {**PAGES, **case.files}.items() if text is not None}
    later = case.later or {k: v for k, v in LATER.items() if k not in case.files}
    make_repo(root, {**files, "conf.py": _conf(case, False)}, later)
    bare = run(["sphinx", "-b", case.builder, "-W", "--keep-going", "-q", ".", "bare"], root)
    (root / "conf.py").write_text(_conf(case, True), encoding="utf-8")
    strict = ["-W", "--keep-going"] if bare.returncode == 0 else []

    def build() -> Build:
        return run(["sphinx", "-b", case.builder, *strict, ".", "out"], root)

    ours = build()
    assert ours.returncode == 0, ours.log
    assert ours.agentprose_lines() == [], ours.log
    site = root / "out"
    outputs = check_invariants(site, BASE, expect_pages=case.pages)
    if case.check is not None:
        case.check(site, outputs)
    same_bytes_again(site, build)
