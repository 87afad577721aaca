"""agentprose beside mkdocs-static-i18n (issue 42): one MkDocs build writes the site in
each language, the default at the root and the others under their folder; each gets
its own complete agent outputs, every view names its translations, and a page missing
in a language is the default language's text, labelled so."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
import yaml

from agentprose_core.check.checker import check_site_dir

from .harness import check_invariants, docs_recipe, make_repo, run, same_bytes_again

if TYPE_CHECKING:
    from pathlib import Path

BASE = "https://shore.example/docs/"
ENGLISH = {
    "index": "# Shore\n\nA guide to the shore. Read about [tide pools](guide/pools.md).\n",
    "guide/pools": "# Tide pools\n\nPools keep water between the rocks.\n",
    "guide/rocks": "# Rock pools\n\nCarved in rock. Only in English.\n",
}
FRENCH = {
    "index": "# Rivage\n\nUn guide du rivage. Lire les [bassins](guide/pools.md).\n",
    "guide/pools": "# Bassins\n\nLes bassins gardent l'eau entre les rochers.\n",
}


def _sources(layout: str) -> dict[str, str]:
    if layout == "suffix":
        return {**{f"docs/{name}.md": text for name, text in ENGLISH.items()},
                **{f"docs/{name}.fr.md": text for name, text in FRENCH.items()}}
    return {**{f"docs/en/{name}.md": text for name, text in ENGLISH.items()},
            **{f"docs/fr/{name}.md": text for name, text in FRENCH.items()}}


def _config(layout: str) -> str:
    i18n = {"docs_structure": layout, "languages": [
        {"locale": "en", "default": True, "name": "English", "build": True},
        {"locale": "fr", "name": "Français", "build": True},
    ]}
    return yaml.dump({"site_name": "Shore", "site_url": BASE,
                      "plugins": [{"i18n": i18n}, "agentprose"]}, sort_keys=False)


@pytest.mark.parametrize("layout", ["suffix", "folder"])
def test_each_language_gets_its_own_agent_outputs(layout: str, tmp_path: Path) -> None:
    root = tmp_path / "site-src"
    make_repo(root, {**_sources(layout), "mkdocs.yml": _config(layout)}, {})
    built = run(["mkdocs", "build", "--strict"], root)
    assert built.returncode == 0, built.log
    assert built.agentprose_lines() == [], built.log
    site = root / "site"

    english = check_invariants(site, BASE, expect_pages=3)
    french = check_invariants(site / "fr", BASE + "fr/", expect_pages=3)
    # each in the order MkDocs reads that language's pages in (its prev/next)
    assert sorted(p["title"] for p in english.index["posts"]) == \
        ["Rock pools", "Shore", "Tide pools"]
    assert sorted(p["title"] for p in french.index["posts"]) == ["Bassins", "Rivage", "Rock pools"]

    # each language's view names the other's page, which we wrote
    front, _ = english.views["guide/pools.md"]
    assert front["lang"] == "en"
    assert front["translations"] == [{"lang": "fr", "url": BASE + "fr/guide/pools/"}]
    assert (site / "fr" / "guide" / "pools" / "index.html").is_file()
    front, _ = french.views["guide/pools.md"]
    assert front["lang"] == "fr"
    assert front["translations"] == [{"lang": "en", "url": BASE + "guide/pools/"}]
    assert f"[llms.txt]({BASE}fr/llms.txt)" in (site / "fr/guide/pools.md").read_text()
    # the page French lacks is English text, in the French site: labelled English
    front, _ = french.views["guide/rocks.md"]
    assert front["lang"] == "en"
    assert "translations" not in front
    assert "translations" not in english.views["guide/rocks.md"][0]
    home = french.views["index.md"][0]  # the language's root page: its own index.md
    assert home["canonical"] == BASE + "fr/"

    # the index carries the translations too, and each llms.txt links the other's
    post = next(p for p in json.loads((site / "agentprose.json").read_text())["posts"]
                if p["title"] == "Tide pools")
    assert post["translations"] == [{"lang": "fr", "url": BASE + "fr/guide/pools/"}]
    assert f"[Français (fr)]({BASE}fr/llms.txt)" in (site / "llms.txt").read_text()
    assert f"[English (en)]({BASE}llms.txt)" in (site / "fr" / "llms.txt").read_text()

    report = check_site_dir(site, base_url=BASE)
    assert report.ok, report.to_text()
    assert report.pages_checked == 6
    same_bytes_again(site, lambda: run(["mkdocs", "build", "--strict"], root))


def test_the_recipe_of_the_docs_builds(tmp_path: Path) -> None:
    config = {"site_name": "Shore", "site_url": BASE,
              **docs_recipe("versions-and-translations.md", "- i18n:")}
    root = tmp_path / "site-src"
    make_repo(root, {**_sources("suffix"), "mkdocs.yml": yaml.dump(config)}, {})
    built = run(["mkdocs", "build", "--strict"], root)
    assert built.returncode == 0, built.log
    report = check_site_dir(root / "site", base_url=BASE)
    assert report.ok, report.to_text()
    assert (root / "site" / "fr" / "llms.txt").is_file()
