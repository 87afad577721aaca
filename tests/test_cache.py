"""The conversion cache: hits give exactly what a fresh conversion gives."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

from agentprose_core.convert.fences import fences_of
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.parallel.cache import ConversionCache, cache_key, convert_cached, site_digest
from agentprose_core.settings import Settings

from .sites import snapshot
from .test_mkdocs_plugin import make_site, mkdocs_build

FRAGMENT = ('<h2 id="a">A</h2><p>See <a href="../b/">b</a>.</p>'
            '<pre><code class="language-py">x\n</code></pre>')
PAGE = "https://x.org/a/"
SITE_MAP = {"https://x.org/b/": "https://x.org/b.md"}


def test_hit_equals_fresh_conversion(tmp_path: Path) -> None:
    cache = ConversionCache(tmp_path)
    fresh = convert_fragment(FRAGMENT, page_url=PAGE, site_map=SITE_MAP, settings=Settings())
    first = convert_cached(FRAGMENT, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                           cache=cache)
    key = cache_key(FRAGMENT, page_url=PAGE, site=site_digest(SITE_MAP), settings=Settings())
    assert cache.get(key) == fresh == first
    second = convert_cached(FRAGMENT, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                            cache=cache)
    assert second == fresh


def test_key_changes_with_every_input() -> None:
    base: dict[str, Any] = {"page_url": PAGE, "site": site_digest(SITE_MAP),
                            "settings": Settings()}
    keys = {
        cache_key(FRAGMENT, **base),
        cache_key(FRAGMENT + " ", **base),
        cache_key(FRAGMENT, **{**base, "page_url": PAGE + "x"}),
        cache_key(FRAGMENT, **{**base, "site": site_digest({})}),
        cache_key(FRAGMENT, **{**base, "settings": Settings(converter="markdownify")}),
        cache_key(FRAGMENT, **{**base, "source_markdown": "```toml\nx\n```\n"}),
    }
    assert len(keys) == 6


def test_source_languages_reach_cached_and_uncached_conversions(tmp_path: Path) -> None:
    # The theme left the language out of the HTML; the page's source still has it.
    fragment = "<pre><code>name = 1\n</code></pre>"
    source = "Intro\n\n```toml\nname = 1\n```\n"
    fresh = convert_fragment(fragment, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                             source_fences=fences_of(source))
    assert "```toml" in fresh.markdown
    cache = ConversionCache(tmp_path)
    for _ in range(2):  # a miss, then a hit
        assert convert_cached(fragment, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                              source_markdown=source, cache=cache) == fresh
    assert convert_cached(fragment, page_url=PAGE, site_map=SITE_MAP, settings=Settings(),
                          source_markdown=source, cache=None) == fresh


def test_unused_entries_are_pruned(tmp_path: Path) -> None:
    old = ConversionCache(tmp_path)
    old.put("ab" + "0" * 62, convert_fragment("<p>x</p>", page_url=PAGE, site_map={},
                                               settings=Settings()))
    stale = tmp_path / "ab" / ("ab" + "0" * 62 + ".json")
    os.utime(stale, (1, 1))
    assert ConversionCache(tmp_path).prune() == 1
    assert not stale.exists()


def test_mkdocs_cached_build_equals_uncached(tmp_path: Path) -> None:
    cached = make_site(tmp_path / "cached")
    assert mkdocs_build(cached).returncode == 0
    assert list((cached / ".cache" / "agentprose").glob("*/*.json"))
    shutil.rmtree(cached / "site")
    assert mkdocs_build(cached).returncode == 0  # every page from the cache
    plain = make_site(tmp_path / "plain", plugins=[{"agentprose": {
        "exclude": ["drafts/*"], "cache": False}}])
    assert mkdocs_build(plain).returncode == 0
    assert not (plain / ".cache").exists()
    assert _without_times(snapshot(cached / "site")) == _without_times(snapshot(plain / "site"))


def _without_times(files: dict[str, bytes]) -> dict[str, bytes]:
    """The outputs with times blanked: the two sites' files were written at other times."""
    return {name: re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"T", data)
            for name, data in files.items()}


def test_sphinx_cached_build_equals_uncached(make_app: Any, tmp_path: Path) -> None:
    root = Path(__file__).parent / "roots" / "test-basic"
    shutil.copytree(root, tmp_path / "a")
    shutil.copytree(root, tmp_path / "b")
    first = make_app("html", srcdir=tmp_path / "a")
    first.build()
    assert list((Path(first.doctreedir) / "agentprose-cache").glob("*/*.json"))
    again = make_app("html", srcdir=tmp_path / "a", freshenv=True)
    again.build()
    plain = make_app("html", srcdir=tmp_path / "b", confoverrides={"agentprose_cache": False})
    plain.build()
    assert _without_times(snapshot(Path(again.outdir))) == _without_times(
        snapshot(Path(plain.outdir)))


def test_a_sphinx_incremental_build_keeps_the_entries_of_pages_it_left(
    make_app: Any, tmp_path: Path
) -> None:
    shutil.copytree(Path(__file__).parent / "roots" / "test-basic", tmp_path / "a")
    first = make_app("html", srcdir=tmp_path / "a")
    first.build()
    entries = Path(first.doctreedir) / "agentprose-cache"
    full = set(entries.glob("*/*.json"))
    _age(full)
    with (tmp_path / "a" / "extra.rst").open("a", encoding="utf-8") as source:
        source.write("\nOne more paragraph.\n")
    make_app("html", srcdir=tmp_path / "a").build()  # writes extra.html (and its parents)
    after_edit = set(entries.glob("*/*.json"))
    assert full < after_edit  # the new text's entry, and every entry still in use
    _age(after_edit)
    make_app("html", srcdir=tmp_path / "a").build(force_all=True)
    assert len(set(entries.glob("*/*.json"))) == len(full)  # the old text's entry is gone


def _age(entries: set[Path]) -> None:
    """Make the entries last used an hour ago, as far as a new build can tell."""
    for entry in entries:
        os.utime(entry, (entry.stat().st_mtime - 3600,) * 2)
