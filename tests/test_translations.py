"""A site built once per language (issue 42): Sphinx with a Read the Docs translation,
and MkDocs with one ``mkdocs.yml`` per language. Each language's outputs list its own
pages, name the same page in the others, link the others' ``llms.txt``, and carry our
fixed sentences in the language of the page."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from agentprose_core.check.checker import check_site_dir
from agentprose_core.phrases import PHRASE_NAMES, PHRASEBOOK
from agentprose_core.reading.llmstxt import language_llms_files, parse_llms_txt

from .ecosystem.harness import docs_recipe
from .outputs import check_site
from .test_mkdocs_plugin import make_site, mkdocs_build
from .test_sphinx_extension import copy_root

RTD = "https://coast.readthedocs.io/"


def _sphinx_on_read_the_docs(src: Path, out: Path, lang: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "READTHEDOCS": "True", "READTHEDOCS_LANGUAGE": lang,
           "READTHEDOCS_CANONICAL_URL": f"{RTD}{lang}/latest/",
           "READTHEDOCS_VERSION": "latest", "READTHEDOCS_VERSION_NAME": "latest"}
    return subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-D",
                           f"language={lang}", str(src), str(out)],
                          capture_output=True, text=True, env=env, check=False)


def _file_of(tree: Path, url: str, prefix: str) -> Path:
    assert url.startswith(prefix), url
    return tree / urlsplit(url).path.removeprefix(urlsplit(prefix).path)


def test_sphinx_translations_on_read_the_docs_each_language_a_site(tmp_path: Path) -> None:
    src = copy_root("basic", tmp_path / "src")
    conf = (src / "conf.py").read_text(encoding="utf-8")
    conf = re.sub(r"^(html_baseurl|language) = .*\n", "", conf, flags=re.MULTILINE)
    (src / "conf.py").write_text(conf + 'agentprose_languages = ["en", "fr"]\n', "utf-8")
    # a page left out of the agent outputs leaves its toctree entry out of the view, which
    # the check warns of: not what this test is about
    index = (src / "index.rst").read_text(encoding="utf-8")
    (src / "index.rst").write_text(index.replace("   secret\n", ""), encoding="utf-8")
    tree = tmp_path / "tree"
    for lang in ("en", "fr"):
        done = _sphinx_on_read_the_docs(src, tree / lang / "latest", lang)
        assert done.returncode == 0, done.stderr
        assert "agentprose" not in done.stderr or "no-git" in done.stderr, done.stderr
    english = check_site(tree / "en/latest", f"{RTD}en/latest/", expect_pages=5)
    french = check_site(tree / "fr/latest", f"{RTD}fr/latest/", expect_pages=5)
    front, _ = french.views["guide/tide-pools.md"]
    assert front["lang"] == "fr"
    assert front["version"] == "latest"
    assert front["translations"] == [{"lang": "en",
                                      "url": f"{RTD}en/latest/guide/tide-pools.html"}]
    assert english.views["guide/tide-pools.md"][0]["translations"] == [
        {"lang": "fr", "url": f"{RTD}fr/latest/guide/tide-pools.html"}]
    # every translation is a page we wrote, with a view
    for outputs, site in ((english, "en"), (french, "fr")):
        for front, _ in outputs.views.values():
            for other in front["translations"]:
                page = _file_of(tree, other["url"], RTD)
                assert page.is_file(), other
                assert page.with_suffix(".md").is_file(), other
        assert all(front["lang"] == site for front, _ in outputs.views.values())
    # the fixed sentences in the page's language, the view's and the page's
    words = PHRASEBOOK["fr"]
    view = (tree / "fr/latest/guide/tide-pools.md").read_text(encoding="utf-8")
    assert f"\n> {words.site_index} [llms.txt]({RTD}fr/latest/llms.txt)" in view
    assert "Site index" not in view
    page = (tree / "fr/latest/guide/tide-pools.html").read_text(encoding="utf-8")
    assert "Pour les agents IA&#160;: <a " in page
    assert "For AI agents" not in page
    # each llms.txt in its language, linking the other language's
    llms = (tree / "fr/latest/llms.txt").read_text(encoding="utf-8")
    assert words.llms_intro.format(name="Coast") in llms
    assert f"{words.llms_languages} [English (en)]({RTD}en/latest/llms.txt)." in llms
    assert language_llms_files(parse_llms_txt(llms).info) == [f"{RTD}en/latest/llms.txt"]
    english_llms = (tree / "en/latest/llms.txt").read_text(encoding="utf-8")
    assert f"The site in other languages: [Français (fr)]({RTD}fr/latest/llms.txt)." \
        in english_llms
    # the whole tree checks clean, each language as a site
    report = check_site_dir(tree)
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()
    assert any("checked one by one" in note for note in report.notes)


def test_sphinx_languages_without_this_build_s_language_say_what_to_change(
        tmp_path: Path) -> None:
    src = copy_root("basic", tmp_path / "src")
    with (src / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write('agentprose_languages = ["en", "de"]\n')  # the build is pt-BR
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(src),
                           str(tmp_path / "out")], capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "agentprose option 'languages' names en, de, but this build is in pt-BR" \
        in done.stderr
    assert "Traceback" not in done.stderr


def test_mkdocs_one_build_per_language_with_their_urls(tmp_path: Path) -> None:
    recipe = docs_recipe("versions-and-translations.md", "en: https://docs.example.com/en/")["plugins"]
    urls: dict[str, str] = recipe[0]["agentprose"]["languages"]  # type: ignore[index]
    tree = tmp_path / "public"
    for lang, url in urls.items():
        root = make_site(tmp_path / lang, site_url=url, theme={"name": "mkdocs",
                                                                "language": lang},
                         site_dir=str(tree / lang),
                         plugins=[{"agentprose": {"exclude": ["drafts/*"],
                                                  "languages": urls,
                                                  "quiet": ["no-git"]}}])
        done = mkdocs_build(root, "--strict")
        assert done.returncode == 0, done.stderr
    french = check_site(tree / "fr", urls["fr"], expect_pages=4)
    front, _ = french.views["guide/tide-pools.md"]
    assert (front["lang"], front["translations"]) == (
        "fr", [{"lang": "en", "url": urls["en"] + "guide/tide-pools/"}])
    assert (tree / "en/guide/tide-pools/index.html").is_file()
    index = json.loads((tree / "fr/agentprose.json").read_text(encoding="utf-8"))
    assert all(post["url"].startswith(urls["fr"]) for post in index["posts"])
    assert {post["translations"][0]["lang"] for post in index["posts"]} == {"en"}
    assert f"[English (en)]({urls['en']}llms.txt)" in \
        (tree / "fr/llms.txt").read_text(encoding="utf-8")
    report = check_site_dir(tree)
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()


def test_mkdocs_languages_naming_another_language_is_a_configuration_error(
        tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", theme={"name": "mkdocs", "language": "fr"},
                     plugins=[{"agentprose": {"languages": ["en", "de"]}}])
    done = mkdocs_build(root, quiet=False)
    assert done.returncode != 0
    assert "names en, de, but this build is in fr" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_finnish_site_is_told_its_sentences_are_english_until_it_gives_them(
        tmp_path: Path) -> None:
    root = make_site(tmp_path / "fi", theme={"name": "mkdocs", "language": "fi"})
    done = mkdocs_build(root, quiet=False)
    assert done.returncode == 0, done.stderr
    assert "agentprose has no phrases in 'fi'" in done.stderr
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"] = docs_recipe("versions-and-translations.md", "phrases:")["plugins"]
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    done = mkdocs_build(root, quiet=False)
    assert done.returncode == 0, done.stderr
    view = (root / "site/guide/tide-pools.md").read_text(encoding="utf-8")
    assert "\n> Sivuston hakemisto: [llms.txt](" in view
    page = (root / "site/guide/tide-pools/index.html").read_text(encoding="utf-8")
    assert "Tekoälyagenteille:".encode("ascii", "xmlcharrefreplace").decode() in page
    assert "Jokainen alla oleva linkki vie sivuston Coast sivulle Markdownina." in \
        (root / "site/llms.txt").read_text(encoding="utf-8")
    report = check_site_dir(root / "site")
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()


def test_the_docs_name_every_phrase() -> None:
    text = (Path(__file__).parents[1] / "docs/versions-and-translations.md").read_text("utf-8")
    for name in PHRASE_NAMES:
        assert re.search(rf"^\| `{name}` \|", text, re.MULTILINE), name
    assert 'agentprose_languages = ["en", "fr"]' in text  # the Sphinx test's conf.py


@pytest.mark.parametrize("one_baseurl", [False, True])
def test_sphinx_default_language_at_the_root_and_the_others_below(
        tmp_path: Path, one_baseurl: bool) -> None:
    """The layout of a self-hosted site (docs.python.org's, pyOpenSci's): the default
    language's build at the root, the others' in folders; the root's files are the
    default language's, and its llms.txt links the others'. Many conf.py give every
    language one html_baseurl: the views are still the language's, the canonical the
    pages carry stays theirs."""
    src = copy_root("basic", tmp_path / "src")
    conf = (src / "conf.py").read_text(encoding="utf-8")
    conf = re.sub(r"^(html_baseurl|language) = .*\n", "", conf, flags=re.MULTILINE)
    urls = {"en": "https://coast.example/", "fr": "https://coast.example/fr/"}
    (src / "conf.py").write_text(conf + f"agentprose_languages = {urls!r}\n", "utf-8")
    index = (src / "index.rst").read_text(encoding="utf-8")
    (src / "index.rst").write_text(index.replace("   secret\n", ""), encoding="utf-8")
    tree = tmp_path / "public"
    for lang, out in (("en", tree), ("fr", tree / "fr")):
        baseurl = urls["en"] if one_baseurl else urls[lang]
        done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-D",
                               f"language={lang}", "-D", f"html_baseurl={baseurl}",
                               str(src), str(out)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
    root = check_site(tree, urls["en"], expect_pages=5)
    assert root.views["guide/tide-pools.md"][0]["translations"] == [
        {"lang": "fr", "url": urls["fr"] + "guide/tide-pools.html"}]
    llms = parse_llms_txt((tree / "llms.txt").read_text(encoding="utf-8"))
    assert language_llms_files(llms.info) == [urls["fr"] + "llms.txt"]
    assert all(link.url.startswith(urls["en"]) and not link.url.startswith(urls["fr"])
               for link in llms.links)
    french = check_site(tree / "fr", urls["fr"], expect_pages=5,
                        canonical_base=urls["en"] if one_baseurl else None)
    page = (tree / "fr/guide/tide-pools.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{french.views["guide/tide-pools.md"][0]["canonical"]}"' \
        in page
    assert french.views["guide/tide-pools.md"][0]["translations"] == [
        {"lang": "en", "url": urls["en"] + "guide/tide-pools.html"}]
    report = check_site_dir(tree)
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()
