"""agentprose beside the MkDocs plugins real sites combine it with (``make
test-ecosystem``: the plugins are pinned in .ci/ecosystem.txt)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from .harness import Build, check_invariants, make_repo, run, same_bytes_again

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ..outputs import SiteOutputs

BASE = "https://shore.example/docs/"
PAGES = {
    "docs/index.md": "# Shore\n\nA guide to the shore at low tide. Read about "
                     "[tide pools](guide/pools.md#life).\n",
    "docs/guide/pools.md": (
        "# Tide pools\n\nPools at low tide keep water between the rocks.\n\n## Life\n\n"
        "Crabs and anemones.\n\n```python\nprint('tide')\n```\n\n"
        '!!! note "Keep the lid on"\n    Crabs escape.\n'),
    "docs/guide/rocks.md": "# Rock pools\n\nCarved in rock. Back to [pools](pools.md).\n",
}
LATER = {"docs/guide/rocks.md": "# Rock pools\n\nCarved in solid rock. Back to "
                                "[pools](pools.md).\n"}
PNG = ("\x89PNG\r\n\x1a\n")  # only a name for the image plugins: never decoded


@dataclass
class Case:
    """A neighbour: the plugins before agentprose, the files it needs, what else."""

    plugins: list[Any]
    files: dict[str, str] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    after: list[Any] = field(default_factory=list)  # plugins that go after agentprose
    pages: int | None = 3
    warns: str = ""  # an agentprose warning the case expects (and so no strict build)
    check: Callable[[Path, SiteOutputs], None] | None = None
    yaml_tail: str = ""  # configuration YAML cannot dump (a !!python/name tag)


def _no_redirect_views(site: Path, outputs: SiteOutputs) -> None:
    assert not (site / "old.md").exists()
    assert 'type="text/markdown"' not in (site / "old/index.html").read_text()


def _macro_text(site: Path, outputs: SiteOutputs) -> None:
    assert "Shore has 3 pools." in outputs.views["index.md"][1]


def _generated_page(site: Path, outputs: SiteOutputs) -> None:
    assert "A page a script wrote." in outputs.views["made.md"][1]


def _included(site: Path, outputs: SiteOutputs) -> None:
    front, body = outputs.views["guide/rocks.md"]
    assert "Watch the tide tables twice." in body
    assert front["modified"] == "2025-03-04T05:06:07Z"


def _table(site: Path, outputs: SiteOutputs) -> None:
    assert "| pool | depth |" in outputs.views["index.md"][1]


def _mermaid(site: Path, outputs: SiteOutputs) -> None:
    body = outputs.views["index.md"][1]
    assert "graph LR" in body
    assert "```python\ndef ebb():" in body  # the snippet after the custom fence keeps it


def _callout(site: Path, outputs: SiteOutputs) -> None:
    assert "> **Note" in outputs.views["index.md"][1]


def _api(site: Path, outputs: SiteOutputs) -> None:
    body = next(body for path, (_, body) in outputs.views.items() if "shorelib" in path)
    assert "Count the crabs." in body


MATERIAL = {"theme": {"name": "material"}}
SNIPPET_FILES = {"snippets/safety.md": "Watch the tide tables.\n"}
SNIPPET_LATER = {"snippets/safety.md": "Watch the tide tables twice.\n"}
SHORELIB = {"src/shorelib/__init__.py": '"""Shore tools."""\n\n\ndef count(pool: str) -> int:\n'
                                        '    """Count the crabs.\n\n    Args:\n'
                                        '        pool: The pool.\n    """\n    return 0\n'}

def _blog_dated(site: Path, outputs: SiteOutputs) -> None:
    post = outputs.index["posts"]
    dates = {p["url"]: (p.get("published"), p["modified"]) for p in post}  # type: ignore[index]
    assert (f"{BASE}blog/2024/03/01/spring-tides/" in dates), sorted(dates)
    assert dates[f"{BASE}blog/2024/03/01/spring-tides/"][0] == "2024-03-01T00:00:00Z"


def _click_command(site: Path, outputs: SiteOutputs) -> None:
    assert "--pool" in outputs.views["guide/rocks.md"][1]


BLOG_POST = ("---\ndate: 2024-03-01\n---\n\n# Spring tides\n\nThe moon pulls harder.\n\n"
             "<!-- more -->\n\nMore about tides.\n")
CLICK_APP = {"shorecli.py": "import click\n\n\n@click.command()\n"
                                "@click.option('--pool', help='The pool to count.')\n"
                                "def main(pool):\n    \"\"\"Count the crabs.\"\"\"\n"}

CASES: dict[str, Case] = {
    "search": Case(["search"]),
    "material": Case(["search"], config=MATERIAL),
    "material-tags": Case(["search", "tags"], config=MATERIAL,
                          files={"docs/guide/pools.md": "---\ntags: [ecology]\n---\n\n"
                                 + PAGES["docs/guide/pools.md"]}),
    "macros": Case(["search", "macros"], config={"extra": {"pools": 3}},
                   files={"docs/index.md": PAGES["docs/index.md"]
                          + "\n{{ config.site_name }} has {{ pools }} pools.\n"},
                   check=_macro_text),
    "git-revision-date-localized": Case(
        ["search", {"git-revision-date-localized": {"fallback_to_build_date": True,
                                                    "enable_creation_date": True,
                                                    "type": "iso_datetime"}}], config=MATERIAL),
    "git-authors": Case(["search", "git-authors"]),
    "redirects": Case(["search", {"redirects": {"redirect_maps": {"old.md": "guide/pools.md"}}}],
                      check=_no_redirect_views),
    "literate-nav": Case(["search", "literate-nav"], config={"nav": None}, pages=None,
                         files={"docs/SUMMARY.md": "- [Home](index.md)\n- Guide\n"
                                "    - [Pools](guide/pools.md)\n    - [Rocks](guide/rocks.md)\n"}),
    "awesome-pages": Case(["search", "awesome-pages"], config={"nav": None},
                          files={"docs/guide/.pages": "title: Guide\nnav:\n  - rocks.md\n"
                                 "  - pools.md\n"}),
    "awesome-nav": Case(["search", "awesome-nav"], config={"nav": None},
                        files={"docs/.nav.yml": "nav:\n  - index.md\n  - Guide: guide\n"}),
    "section-index": Case(["search", "section-index"], config={"nav": [
        {"Home": "index.md"}, {"Guide": ["guide/index.md", "guide/pools.md", "guide/rocks.md"]}]},
        files={"docs/guide/index.md": "# Guide\n\nAll about pools and rocks.\n"}, pages=4),
    "gen-files": Case(["search", {"gen-files": {"scripts": ["gen.py"]}}], pages=4,
                      files={"gen.py": "import mkdocs_gen_files\n\nwith mkdocs_gen_files.open("
                             "'made.md', 'w') as f:\n    f.write('# Made\\n\\nA page a script "
                             "wrote.\\n')\n"}, config={"nav": None}, check=_generated_page),
    "include-markdown": Case(["search", "include-markdown"], files={
        **SNIPPET_FILES, "docs/guide/rocks.md": "# Rock pools\n\nCarved in rock.\n\n"
        '{% include-markdown "../../snippets/safety.md" %}\n'}, check=_included),
    "snippets": Case(["search"], config={"markdown_extensions": [
        "admonition", {"pymdownx.snippets": {"base_path": ["snippets"]}}]}, files={
        **SNIPPET_FILES, "docs/guide/rocks.md": '# Rock pools\n\n--8<-- "safety.md"\n'},
        check=_included),
    "mermaid2-superfences": Case(["search", "mermaid2"], config={
        **MATERIAL, "markdown_extensions": None}, yaml_tail=(
            "markdown_extensions:\n- admonition\n- pymdownx.snippets:\n    base_path: "
            "[snippets]\n- pymdownx.superfences:\n    custom_fences:\n    - name: mermaid\n"
            "      class: mermaid\n      format: !!python/name:pymdownx.superfences."
            "fence_code_format\n"),
        files={"snippets/ebb.py": "def ebb():\n    pass\n", "docs/index.md":
               PAGES["docs/index.md"] + "\n```mermaid\ngraph LR\n  A --> B\n```\n\n"
               '```python\n--8<-- "ebb.py"\n```\n'}, check=_mermaid),
    "glightbox": Case(["search", "glightbox"], files={"docs/shore.png": PNG, "docs/index.md":
                      PAGES["docs/index.md"] + "\n![The shore](shore.png)\n"}),
    "minify": Case(["search"], after=[{"minify": {"minify_html": True}}]),
    "table-reader": Case(["search", "table-reader"], files={
        "docs/pools.csv": "pool,depth\nA,1\nB,2\n", "docs/index.md": PAGES["docs/index.md"]
        + "\n{{ read_csv('docs/pools.csv') }}\n"}, check=_table),
    "markdownextradata": Case(["search", "markdownextradata"], config={"extra": {"pools": 3}},
                              files={"docs/index.md": PAGES["docs/index.md"]
                                     + "\nShore has {{ pools }} pools.\n"}, check=_macro_text),
    "exclude": Case(["search", {"exclude": {"glob": ["drafts/*"]}}], files={
        "docs/drafts/idea.md": "# Idea\n\nNot published.\n"}),
    "exclude-search": Case(["search", {"exclude-search": {"exclude": ["guide/rocks.md"]}}],
                           config=MATERIAL),
    "open-in-new-tab": Case(["search", "open-in-new-tab"]),
    "video": Case(["search", "mkdocs-video"], files={"docs/index.md": PAGES["docs/index.md"]
                  + "\n![type:video](https://www.youtube.com/embed/LXb3EKWsInQ)\n"}),
    "callouts": Case(["search", "callouts"], files={"docs/index.md": PAGES["docs/index.md"]
                     + "\n> [!NOTE] Low tide\n> Check the tables.\n"}, check=_callout),
    "autolinks": Case(["search", "autolinks"], files={"docs/guide/rocks.md":
                      "# Rock pools\n\nCarved in rock. Back to [pools](pools.md).\n"}),
    "rss": Case(["search", {"rss": {"match_path": "guide/.*"}}]),
    "print-site": Case(["search"], after=["print-site"], config=MATERIAL, pages=None),
    "mkdocstrings-api-autonav": Case(
        ["search", {"api-autonav": {"modules": ["src/shorelib"]}},
         {"mkdocstrings": {"handlers": {"python": {"paths": ["src"], "options": {
             "parameter_headings": True}}}}}], config={**MATERIAL, "nav": None},
        files=SHORELIB, pages=None, check=_api),
    "llmstxt": Case(["search", {"llmstxt": {"sections": {"Guide": ["guide/*.md"]}}}],
                    warns="llms-txt-conflict"),
    "swagger-ui-tag": Case(["search", "swagger-ui-tag"], files={
        "docs/openapi.json": '{"openapi": "3.0.0", "info": {"title": "Shore", "version": "1"},'
                             ' "paths": {}}',
        "docs/index.md": PAGES["docs/index.md"] + '\n<swagger-ui src="openapi.json"/>\n'}),
}
CASES.update({
    "material-blog": Case(["search", {"blog": {"post_url_format": "{date}/{slug}"}}],
                          config={**MATERIAL, "nav": [
                              {"Home": "index.md"}, {"Guide": ["guide/pools.md",
                                                               "guide/rocks.md"]},
                              {"Blog": ["blog/index.md"]}]},
                          files={"docs/blog/index.md": "# Blog\n",
                                 "docs/blog/posts/spring.md": BLOG_POST},
                          pages=None, check=_blog_dated),
    "material-meta-group-offline": Case(
        ["search", "meta", "offline", {"group": {"enabled": True, "plugins": ["search"]}}],
        config=MATERIAL, files={"docs/guide/.meta.yml": "tags: [shore]\n"}),
    "markdown-extensions": Case(["search"], config={**MATERIAL, "markdown_extensions": [
        "admonition", "footnotes", "attr_list", "md_in_html", "def_list", "abbr",
        {"toc": {"permalink": True}}, "pymdownx.details", {"pymdownx.tabbed": {
            "alternate_style": True}}, "pymdownx.superfences", {"pymdownx.arithmatex": {
                "generic": True}}, "pymdownx.tasklist", "pymdownx.keys", "pymdownx.mark"]},
        files={"docs/guide/rocks.md": (
            "# Rock pools\n\nCarved in rock[^1]. Back to [pools](pools.md).\n\n"
            '=== "Python"\n\n    ```python\n    ebb()\n    ```\n\n'
            '=== "Shell"\n\n    ```bash\n    ebb\n    ```\n\n'
            '??? tip "Low water"\n    Mind the rocks.\n\n$$\nh = 2t\n$$\n\n'
            "- [x] dry\n- [ ] wet\n\nPress ++ctrl+c++. ==Marked==.\n\n"
            "Tide\n:   The rise and fall of the sea.\n\n[^1]: Granite.\n")}),
    "click": Case(["search"], config={"markdown_extensions": ["admonition", "mkdocs-click"]},
                  files={**CLICK_APP, "docs/guide/rocks.md": (
                      "# Rock pools\n\n::: mkdocs-click\n    :module: shorecli\n"
                      "    :command: main\n")}, check=_click_command),
    "monorepo": Case(["search", "monorepo"], config={"nav": [
        {"Home": "index.md"}, {"Guide": ["guide/pools.md", "guide/rocks.md"]},
        {"Tools": "!include ./tools/mkdocs.yml"}]},
        files={"tools/mkdocs.yml": "site_name: tools\nnav:\n  - Shell: shell.md\n",
               "tools/docs/shell.md": "# Shell tools\n\nA shell for the shore.\n"},
        pages=4),
    "coverage": Case(["search", {"coverage": {"html_report_dir": "htmlcov"}}], config={"nav": [
        {"Home": "index.md"}, {"Guide": ["guide/pools.md", "guide/rocks.md"]},
        {"Coverage": "coverage.md"}]},
        files={"htmlcov/index.html": "<html><body><h1>Coverage</h1><p>90%</p></body></html>",
               "docs/coverage.md": "# Coverage\n\n<!-- mkdocs-coverage -->\n"}, pages=4),
})

NAV = [{"Home": "index.md"}, {"Guide": ["guide/pools.md", "guide/rocks.md"]}]


def _config(case: Case, with_agentprose: bool) -> str:
    settings: dict[str, Any] = {"site_name": "Shore", "site_url": BASE, "nav": NAV,
                                "markdown_extensions": ["admonition"]}
    settings.update(case.config)
    settings = {key: value for key, value in settings.items() if value is not None}
    settings["plugins"] = [*case.plugins, *(["agentprose"] if with_agentprose else []),
                           *case.after]
    return yaml.dump(settings, sort_keys=False) + case.yaml_tail


@pytest.mark.parametrize("name", sorted(CASES))
def test_beside(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    root = tmp_path / "site-src"
    # The second commit changes rocks.md, or the snippet it includes where it has one,
    # or nothing the case wrote itself.
    later = {k: v for k, v in SNIPPET_LATER.items() if k in case.files} or {
        k: v for k, v in LATER.items() if k not in case.files}
    make_repo(root, {**PAGES, **case.files, "mkdocs.yml": _config(case, False)}, later)
    bare = run(["mkdocs", "build", "--strict"], root)
    (root / "mkdocs.yml").write_text(_config(case, True), encoding="utf-8")
    strict = bare.returncode == 0 and not case.warns

    def build() -> Build:
        return run(["mkdocs", "build", *(["--strict"] if strict else [])], root)

    ours = build()
    assert ours.returncode == 0, ours.log
    noted = ours.agentprose_lines()
    if case.warns:
        assert any(case.warns in line for line in noted), ours.log
        noted = [line for line in noted if case.warns not in line]
    assert noted == [], ours.log
    site = root / "site"
    if case.warns:
        return  # the other plugin's files and ours, mixed: what the warning says
    outputs = check_invariants(site, BASE, expect_pages=case.pages)
    if case.check is not None:
        case.check(site, outputs)
    same_bytes_again(site, build)
