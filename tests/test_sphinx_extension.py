"""`extensions = ["sphinx_agentprose"]` in real Sphinx builds (sphinx.testing)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import sphinx
from sphinx.errors import ConfigError

from agentprose_core.settings import options
from sphinx_agentprose.config import PREFIX, settings_of

from .outputs import check_site
from .sites import commit_all, snapshot, write_tree

ROOTS = Path(__file__).parent / "roots"
SHOWS_TYPES = sphinx.version_info >= (8,)  # "[agentprose.no-git]" after a warning
BASE = "https://coast.example/docs/"
App = Callable[..., Any]


def copy_root(name: str, target: Path) -> Path:
    shutil.copytree(ROOTS / f"test-{name}", target)
    return target


def build(make_app: App, srcdir: Path, builder: str = "html", **kwargs: Any) -> Path:
    app = make_app(builder, srcdir=srcdir, **kwargs)
    app.build()
    warnings = app._warning.getvalue()
    assert "agentprose" not in warnings or "no-git" in warnings, warnings
    return Path(app.outdir)


@pytest.fixture
def basic(tmp_path: Path) -> Path:
    return copy_root("basic", tmp_path / "src")


def test_an_html_build_writes_a_view_of_every_page_with_its_metadata(
        make_app: App, basic: Path) -> None:
    out = build(make_app, basic)
    outputs = check_site(out, BASE, expect_pages=5)
    assert sorted(outputs.views) == ["extra.md", "glossary.md", "guide/rocks.md",
                                     "guide/tide-pools.md", "index.md"]
    front, body = outputs.views["guide/tide-pools.md"]
    assert front["title"] == "Tide pools"
    assert front["canonical"] == BASE + "guide/tide-pools.html"
    assert front["author"] == "Ana Ruiz"
    assert front["published"] == "2025-06-02T00:00:00Z"
    assert front["lang"] == "pt-BR"
    assert front["prev"] == BASE + "index.html"
    assert front["next"] == BASE + "guide/rocks.html"
    assert "[Rock pools](https://coast.example/docs/guide/rocks.md)" in body
    # The type stays English for machines; the title is the page's own (Portuguese).
    assert "> **Note: Nota**" in body
    assert "Crabs escape from open buckets." in body
    assert "```python\nprint(\"tide\")\n```" in body
    assert "Watch the tide tables." in body  # from the included file
    posts = {p["title"]: p for p in outputs.index["posts"]}
    assert posts["Tide pools"]["section"] == ["Guide"]
    assert posts["Glossary"]["section"] == ["Reference"]
    assert list(outputs.llms["sections"]) == ["Docs", "Guide", "Reference", "Optional"]
    assert not (out / "secret.md").exists()
    assert not (out / "internal/notes.md").exists()
    for page in ("genindex.html", "search.html", "secret.html"):
        assert "text/markdown" not in (out / page).read_text(encoding="utf-8"), page


def test_a_page_left_out_leaves_no_trace(make_app: App, basic: Path) -> None:
    # secret.rst has ":agentprose: false"; the index's toctree lists it, a page links it
    with (basic / "guide" / "rocks.rst").open("a", encoding="utf-8") as rocks:
        rocks.write("\nNot :doc:`the hidden one <../secret>`.\n")
    out = build(make_app, basic)
    outputs = check_site(out, BASE, expect_pages=5)
    assert "Secret" not in outputs.views["index.md"][1]
    assert "- [Glossary](" in outputs.views["index.md"][1]
    assert "Not the hidden one." in outputs.views["guide/rocks.md"][1]
    for name in ("agentprose.json", "llms.txt", "llms-full.txt"):
        text = (out / name).read_text(encoding="utf-8")
        assert "Secret" not in text, name
        assert "secret.html" not in text, name


def test_a_dirhtml_build_names_each_page_by_its_folder(make_app: App, basic: Path) -> None:
    out = build(make_app, basic, "dirhtml")
    outputs = check_site(out, BASE, expect_pages=5)
    front, body = outputs.views["guide/tide-pools.md"]
    assert front["canonical"] == BASE + "guide/tide-pools/"
    assert front["next"] == BASE + "guide/rocks/"
    assert "[Rock pools](https://coast.example/docs/guide/rocks.md)" in body


def test_parallel_build_gives_the_same_bytes(make_app: App, tmp_path: Path) -> None:
    serial = build(make_app, copy_root("basic", tmp_path / "serial"))
    parallel = build(make_app, copy_root("basic", tmp_path / "parallel"), parallel=2)
    assert snapshot(serial) == snapshot(parallel) != {}


def test_two_builds_give_the_same_bytes(make_app: App, basic: Path) -> None:
    first = snapshot(build(make_app, basic, freshenv=True))
    assert snapshot(build(make_app, basic, freshenv=True)) == first


def test_incremental_edit_and_delete(make_app: App, basic: Path) -> None:
    out = build(make_app, basic)
    (basic / "guide" / "rocks.rst").write_text("Rock pools\n==========\n\nNow with barnacles.\n")
    out = build(make_app, basic)
    outputs = check_site(out, BASE, expect_pages=5)
    assert "barnacles" in outputs.views["guide/rocks.md"][1]
    assert "Crabs escape" in outputs.views["guide/tide-pools.md"][1]  # kept from its record
    (basic / "extra.rst").unlink()
    out = build(make_app, basic)
    outputs = check_site(out, BASE, expect_pages=4)
    assert not (out / "extra.md").exists()
    assert "Extra" not in (out / "llms.txt").read_text(encoding="utf-8")


def test_a_one_page_rebuild_writes_the_site_files_a_build_from_scratch_writes(
    make_app: App, tmp_path: Path,
) -> None:
    # The pages the rebuild left as they were give their parts of agentprose.json,
    # llms-full.txt and the link check as the last build made them (kept beside their
    # records); the edited page's new heading, link and size change all three. (Its
    # title stays: Sphinx itself would not write again the pages that show it.)
    from .test_cache import _without_times

    src = copy_root("basic", tmp_path / "site")
    for number in range(12):  # one page in sixteen edited: the records' memo is kept
        (src / f"more{number}.rst").write_text(
            f":orphan:\n\nMore {number}\n=======\n\nSee :ref:`barnacles`.\n")
    rocks = "Rock pools\n==========\n\n.. _barnacles:\n\nBarnacles\n---------\n\nCarved.\n"
    (src / "guide" / "rocks.rst").write_text(rocks)
    build(make_app, src)
    memo = src / "_build" / "doctrees" / "agentprose" / "records.pickle"
    written = memo.stat().st_mtime_ns
    (src / "guide" / "rocks.rst").write_text(
        rocks.replace("Carved.", "They hold on. Back to :doc:`tide-pools`.\n\n"
                      "Ledges\n------\n\nFlat rock."))
    rebuilt = build(make_app, src)
    assert memo.stat().st_mtime_ns == written  # the kept parts were what it took
    fresh = build(make_app, shutil.copytree(src, tmp_path / "fresh",
                                            ignore=shutil.ignore_patterns("_build")))
    assert _without_times(snapshot(rebuilt)) == _without_times(snapshot(fresh))
    assert "## Ledges\n" in (rebuilt / "llms-full.txt").read_text(encoding="utf-8")


def test_documents_without_a_view_are_named_with_why(make_app: App, basic: Path) -> None:
    app = make_app("html", srcdir=basic)
    app.build()
    line = next(line for line in app._status.getvalue().splitlines() if "no agent view" in line)
    assert "secret.rst (agentprose: false)" in line
    assert "internal/notes.rst (exclude)" in line


def test_git_dates_include_included_files(make_app: App, basic: Path) -> None:
    commit_all(basic, "first", "2024-01-02T03:04:05+00:00")
    (basic / "snippets" / "safety.rst").write_text("Watch the tide tables twice.\n")
    commit_all(basic, "second", "2025-03-04T05:06:07+00:00")
    out = build(make_app, basic)
    outputs = check_site(out, BASE)
    assert outputs.views["guide/tide-pools.md"][0]["modified"] == "2025-03-04T05:06:07Z"
    assert outputs.views["guide/rocks.md"][0]["modified"] == "2024-01-02T03:04:05Z"


def test_configuration_and_media_do_not_date_a_page(make_app: App, tmp_path: Path) -> None:
    # issue 39: Sphinx records docutils.conf as a dependency of every document, and each
    # image: neither is text of the view. A literal include is.
    srcdir = copy_root("dated-media", tmp_path / "src")
    commit_all(srcdir, "first", "2024-01-02T03:04:05+00:00")
    for name, text in (("docutils.conf", "[restructuredtext parser]\ntab_width: 8\n"),
                       ("shore.png", "another png"), ("tides.csv", "a,b\n1,2\n"),
                       ("tide.py", "print('tides')\n")):
        (srcdir / name).write_text(text)
    commit_all(srcdir, "later", "2025-03-04T05:06:07+00:00")
    out = build(make_app, srcdir)
    outputs = check_site(out, BASE)
    assert outputs.views["index.md"][0]["modified"] == "2024-01-02T03:04:05Z"
    assert outputs.views["pools.md"][0]["modified"] == "2024-01-02T03:04:05Z"
    assert outputs.views["code.md"][0]["modified"] == "2025-03-04T05:06:07Z"


def test_generated_api_sources_date_from_their_modules(make_app: App, tmp_path: Path) -> None:
    # issue 39: autosummary (like sphinx-autoapi, autodoc2) writes untracked sources at
    # build time; their pages take the modules' commit, not the files' fresh mtime.
    repo = tmp_path / "repo"
    write_tree(repo, {**{k: v for k, v in SRC_LAYOUT.items() if k != "docs/conf.py"},
                      "docs/conf.py": SRC_LAYOUT["docs/conf.py"].replace(
                          "'sphinx.ext.autodoc'", "'sphinx.ext.autodoc', "
                          "'sphinx.ext.autosummary'") + "autosummary_generate = True\n",
                      "docs/api.rst": "API\n===\n\n.. autosummary::\n   :toctree: generated\n\n"
                                      "   tidepool.drain\n"})
    commit_all(repo, "first", "2024-01-02T03:04:05+00:00")
    module = repo / "src/tidepool.py"
    module.write_text(module.read_text().replace("Empty it.", "Empty it slowly."))
    commit_all(repo, "module", "2025-02-03T04:05:06+00:00")
    sys.modules.pop("tidepool", None)  # another test's module of that name
    try:
        app = make_app("html", srcdir=repo / "docs")
        app.build()
    finally:
        sys.modules.pop("tidepool", None)
    warnings = app._warning.getvalue()
    assert "no-git" not in warnings, warnings
    outputs = check_site(Path(app.outdir), BASE)
    generated = outputs.views["generated/tidepool.drain.md"]
    assert "Empty it slowly." in generated[1]
    assert generated[0]["modified"] == "2025-02-03T04:05:06Z"
    # the autosummary table shows the docstring's first line: the code dates it too
    api = outputs.views["api.md"]
    assert "Empty it slowly." in api[1]
    assert api[0]["modified"] == "2025-02-03T04:05:06Z"


SRC_LAYOUT = {
    "docs/conf.py": (
        "import sys\nfrom pathlib import Path\n"
        "sys.path.insert(0, str(Path(__file__).parent.parent / 'src'))\n"
        "project = 'Pool'\nextensions = ['sphinx.ext.autodoc', 'sphinx_agentprose']\n"
        "html_baseurl = 'https://coast.example/docs/'\n"
    ),
    "docs/index.rst": "Pool\n====\n\n.. toctree::\n\n   api\n   changes\n",
    "docs/api.rst": "API\n===\n\n.. automodule:: tidepool\n   :members:\n",
    "docs/changes.rst": ".. include:: ../CHANGES.rst\n",
    "src/tidepool.py": '"""Tide pools."""\n\n\ndef drain() -> None:\n    """Empty it."""\n',
    "CHANGES.rst": "Changes\n=======\n\n1.0\n---\n\nFirst.\n",
}


def test_pages_built_from_files_outside_the_docs_folder_date_from_git(
        make_app: App, tmp_path: Path) -> None:
    # Flask's shape: autodoc of src/, ``include::`` of ../CHANGES.rst. In CI the
    # checkout time was every such page's date, and -W failed on the no-git warning.
    repo = tmp_path / "repo"
    write_tree(repo, SRC_LAYOUT)
    commit_all(repo, "first", "2024-01-02T03:04:05+00:00")
    (repo / "src" / "tidepool.py").write_text('"""Tide pools, drained."""\n')
    commit_all(repo, "module", "2025-02-03T04:05:06+00:00")
    (repo / "CHANGES.rst").write_text("Changes\n=======\n\n1.1\n---\n\nSecond.\n")
    commit_all(repo, "changes", "2025-06-07T08:09:10+00:00")
    app = make_app("html", srcdir=repo / "docs")
    app.build()
    assert "agentprose" not in app._warning.getvalue()  # so -W passes
    outputs = check_site(Path(app.outdir), BASE)
    assert outputs.views["api.md"][0]["modified"] == "2025-02-03T04:05:06Z"
    assert outputs.views["changes.md"][0]["modified"] == "2025-06-07T08:09:10Z"
    assert outputs.views["index.md"][0]["modified"] == "2024-01-02T03:04:05Z"


@pytest.mark.parametrize("parallel", [0, 2])
def test_a_first_build_reads_the_git_history_before_the_first_page(
        make_app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel: int) -> None:
    # Serial: the one pass starts in a thread at env-updated, the autodoc module's
    # folder in it, and runs while Sphinx pickles the environment. With -j the writers
    # are forked processes, which have no thread: the pass runs when a date is asked.
    import threading

    from agentprose_core.records import dates as dates_module

    repo = tmp_path / "repo"
    write_tree(repo, SRC_LAYOUT)
    commit_all(repo, "first", "2024-01-02T03:04:05+00:00")
    (repo / "src" / "tidepool.py").write_text('"""Tide pools, drained."""\n')
    commit_all(repo, "module", "2025-02-03T04:05:06+00:00")
    read_in = []
    real = dates_module._history
    monkeypatch.setattr(dates_module, "_history", lambda directory, also=(): (
        read_in.append((threading.current_thread().name, also)), real(directory, also))[1])
    sys.modules.pop("tidepool", None)  # autodoc imports this repository's copy
    try:
        out = build(make_app, repo / "docs", parallel=parallel)
    finally:
        sys.modules.pop("tidepool", None)
    background = [also for name, also in read_in if name == "agentprose-git-history"]
    assert background == ([("CHANGES.rst", "src")] if parallel == 0 else [])
    outputs = check_site(out, BASE)
    assert outputs.views["api.md"][0]["modified"] == "2025-02-03T04:05:06Z"
    assert outputs.views["index.md"][0]["modified"] == "2024-01-02T03:04:05Z"


@pytest.mark.parametrize("parallel", [0, 2])
def test_a_theme_that_drops_the_metatags_still_gets_the_head_tags(
        make_app: App, tmp_path: Path, parallel: int) -> None:
    # The Pallets themes (Flask, Click, Jinja) set ``metatags`` anew in their layout.
    src = copy_root("basic", tmp_path / "src")
    write_tree(src, {
        "_themes/pallets-like/theme.conf": "[theme]\ninherit = basic\n",
        "_themes/pallets-like/layout.html": (
            '{% extends "basic/layout.html" %}\n{% set metatags %}<meta name="viewport" '
            'content="width=device-width">{% endset %}\n'),
    })
    out = build(make_app, src, parallel=parallel, confoverrides={
        "html_theme": "pallets-like", "html_theme_path": ["_themes"]})
    check_site(out, BASE, expect_pages=5)
    page = (out / "guide" / "tide-pools.html").read_text(encoding="utf-8")
    assert page.count('rel="agentprose-index"') == 1
    assert page.count('type="text/markdown"') == 1
    assert "application/ld+json" in page
    assert '<meta name="viewport"' in page
    assert 'rel="agentprose-index"' not in (out / "search.html").read_text(encoding="utf-8")
    again = build(make_app, src, parallel=parallel, confoverrides={
        "html_theme": "pallets-like", "html_theme_path": ["_themes"]})  # incremental
    page = (again / "guide" / "tide-pools.html").read_text(encoding="utf-8")
    assert page.count('rel="agentprose-index"') == 1


def test_a_page_and_a_folder_of_one_name_each_get_a_view(make_app: App, basic: Path) -> None:
    write_tree(basic, {"guide.rst": "Guide page\n==========\n\nSee :doc:`guide/index`.\n",
                       "guide/index.rst": "Guide\n=====\n\nSee :doc:`/guide`.\n"})
    with (basic / "index.rst").open("a", encoding="utf-8") as index:
        index.write("\n.. toctree::\n\n   guide\n   guide/index\n")
    app = make_app("html", srcdir=basic)
    app.build()
    # guide.html -> guide.md, guide/index.html -> guide/index.md: nothing to share.
    assert "would share the agent view" not in app._warning.getvalue()
    outputs = check_site(Path(app.outdir), BASE)
    assert outputs.views["guide.md"][0]["title"] == "Guide page"
    assert outputs.views["guide/index.md"][0]["title"] == "Guide"
    assert f"({BASE}guide/index.md)" in outputs.views["guide.md"][1]
    assert f"({BASE}guide.md)" in outputs.views["guide/index.md"][1]


def test_an_incremental_build_after_a_commit_dates_the_pages_anew(
        make_app: App, basic: Path) -> None:
    # The page is edited and built before it is committed: git still says the old
    # date. The commit changes no file, so Sphinx alone would write nothing again.
    commit_all(basic, "first", "2024-01-02T03:04:05+00:00")
    (basic / "guide" / "rocks.rst").write_text("Rock pools\n==========\n\nBarnacles.\n")
    out = build(make_app, basic)
    assert check_site(out, BASE).views["guide/rocks.md"][0]["modified"] == \
        "2024-01-02T03:04:05Z"
    commit_all(basic, "barnacles", "2025-03-04T05:06:07+00:00")
    out = build(make_app, basic)
    outputs = check_site(out, BASE)
    assert outputs.views["guide/rocks.md"][0]["modified"] == "2025-03-04T05:06:07Z"
    post = next(p for p in outputs.index["posts"] if p["title"] == "Rock pools")
    assert post["modified"] == "2025-03-04T05:06:07Z"
    assert '"dateModified":"2025-03-04T05:06:07Z"' in \
        (out / "guide" / "rocks.html").read_text(encoding="utf-8").replace(" ", "")
    assert outputs.views["guide/tide-pools.md"][0]["modified"] == "2024-01-02T03:04:05Z"


def test_a_deleted_page_leaves_no_link_to_its_view(make_app: App, basic: Path) -> None:
    with (basic / "guide" / "rocks.rst").open("a", encoding="utf-8") as rocks:
        rocks.write("\nSee :doc:`../extra`.\n")
    out = build(make_app, basic)
    assert f"({BASE}extra.md)" in check_site(out, BASE).views["guide/rocks.md"][1]
    (basic / "extra.rst").unlink()
    out = build(make_app, basic)
    outputs = check_site(out, BASE)
    assert "extra.md" not in outputs.views["guide/rocks.md"][1]
    assert not (out / "extra.md").exists()


def test_sub_path_and_override(make_app: App, basic: Path) -> None:
    base = "https://example.org/a/b/"
    out = build(make_app, basic, "dirhtml", confoverrides={
        "agentprose_base_url": base, "agentprose_view_layout": "directory"})
    outputs = check_site(out, base)
    assert "guide/tide-pools/index.md" in outputs.views
    assert outputs.views["index.md"][0]["canonical"] == base


def test_autodoc_and_myst(make_app: App, tmp_path: Path) -> None:
    out = build(make_app, copy_root("autodoc-myst", tmp_path / "src"))
    outputs = check_site(out, "https://api.example/", expect_pages=3)
    api = outputs.views["api.md"][1]
    assert "`shorelib.survey(pool: str, depth: float = 1.5) -> int`" in api
    assert "Count the creatures in a pool." in api
    assert "How deep to look." in api
    front, notes = outputs.views["notes.md"]
    assert front["author"] == "Bo Li"
    assert front["published"] == "2024-05-06T00:00:00Z"
    assert "Written in **MyST**" in notes
    assert "```yaml\ntide: low\n```" in notes
    post = next(p for p in outputs.index["posts"] if p["title"] == "Field notes")
    assert post["tags"] == ["field", "notes"]


def _mistake(make_app: App, srcdir: Path, **kwargs: Any) -> str:
    """A build with a mistake in conf.py: one line that says what to change, no
    traceback, and no agent output at all (nothing written half-configured)."""
    app = make_app("html", srcdir=srcdir, **kwargs)
    app.build()
    warnings = app._warning.getvalue()
    assert "Traceback" not in warnings
    assert not list(Path(app.outdir).rglob("*.md"))
    assert not (Path(app.outdir) / "agentprose.json").exists()
    assert "text/markdown" not in (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    assert app.statuscode == 1  # issue 40: the build fails, sphinx-build exits 1
    return str(warnings)


def test_a_config_mistake_makes_sphinx_build_exit_non_zero(basic: Path, tmp_path: Path) -> None:
    # issue 40: `agentprose_section_llms_txt = None` printed an error, wrote nothing, exit 0
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(basic), str(tmp_path / "out"),
         "-D", "agentprose_converter=pandoc"], capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    assert done.stderr.count("'converter' must be one of") == 1
    assert "Traceback" not in done.stderr
    assert "report this error" not in done.stderr


def test_missing_base_url_is_a_config_error(make_app: App, tmp_path: Path) -> None:
    warnings = _mistake(make_app, copy_root("nobaseurl", tmp_path / "src"))
    assert "ERROR" in warnings
    assert "set html_baseurl" in warnings
    assert warnings.count("set html_baseurl") == 1


def test_other_builders_are_left_alone(make_app: App, tmp_path: Path) -> None:
    out = build(make_app, copy_root("nobaseurl", tmp_path / "src"), "text")
    assert not list(out.glob("*.md"))
    assert not (out / "agentprose.json").exists()


@pytest.mark.parametrize(("name", "value", "message"), [
    ("converter", "pandoc", "'converter' must be one of"),
    ("exclude", [1], "'exclude' must be a list of strings"),
    ("sections", {"A": "b"}, "'sections' must map section titles"),
])
def test_bad_config_value_is_a_config_error(
    make_app: App, basic: Path, name: str, value: object, message: str
) -> None:
    warnings = _mistake(make_app, basic, confoverrides={PREFIX + name: value})
    assert "ERROR" in warnings
    assert message in warnings
    assert "[agentprose.config]" in warnings or not SHOWS_TYPES
    assert warnings.count(message) == 1
    with pytest.raises(ConfigError, match=message):  # the helper that says so
        settings_of(make_app("html", srcdir=basic, confoverrides={PREFIX + name: value}).config)


def test_a_misspelled_option_is_named_with_the_right_one(make_app: App, basic: Path) -> None:
    with (basic / "conf.py").open("a", encoding="utf-8") as conf:
        conf.write("agentprose_exlcude = ['guide/*']\nagentprose_zzz = 1\n")
    app = make_app("html", srcdir=basic)
    warnings = app._warning.getvalue()
    meant = "did you mean 'agentprose_exclude'?"
    assert f"'agentprose_exlcude', which is no agentprose option: {meant}" in warnings
    assert "'agentprose_zzz', which is no agentprose option: the options are: " in warnings


def test_config_values_are_the_core_options(make_app: App, basic: Path) -> None:
    app = make_app("html", srcdir=basic)
    for option in options():
        if PREFIX + option.name not in app.config._raw_config:  # not set by conf.py
            assert getattr(app.config, PREFIX + option.name) == option.written_default
        if sphinx.version_info >= (7, 4):  # Sphinx keeps a description since 7.4
            assert app.config.values[PREFIX + option.name].description == option.help


def test_clean_site_in_git_builds_under_nitpicky_warnings_as_errors(
    make_app: App, basic: Path
) -> None:
    commit_all(basic, "all", "2024-01-02T03:04:05+00:00")
    app = make_app("html", srcdir=basic, confoverrides={"nitpicky": True})
    app.build()
    assert app._warning.getvalue() == ""  # what -W turns into errors: nothing


def test_warnings_are_typed_and_can_be_suppressed(make_app: App, basic: Path) -> None:
    app = make_app("html", srcdir=basic)
    app.build()
    warnings = app._warning.getvalue()
    # Sphinx 8 shows each warning's type and subtype; suppress_warnings works on all.
    assert "[agentprose.no-git]" in warnings if SHOWS_TYPES else "git" in warnings
    quiet = make_app("html", srcdir=basic, freshenv=True,
                     confoverrides={"suppress_warnings": ["agentprose.no-git"]})
    quiet.build()
    assert "agentprose" not in quiet._warning.getvalue()


def test_example_project_with_furo(make_app: App, tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "sphinx-site", source)
    out = build(make_app, source)
    outputs = check_site(out, "https://shore.example/notes/", expect_pages=7)
    assert (out / "field-guide" / "llms.txt").is_file()  # the Field guide section's own
    signature = ("`tidelib.tide_height(amplitude: float, hours: float, "
                 "period: float = 12.42) -> float`")
    assert signature in outputs.views["api.md"][1]
    body = outputs.views["tides.md"][1]
    assert "| Tide   | Range |" in body
    assert "> **Warning**" in body
    assert "$$" not in body
    assert r"\[" in body
    assert outputs.views["journal.md"][0]["published"] == "2026-03-14T00:00:00Z"


def test_read_the_docs_canonical_url(
    make_app: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("READTHEDOCS_CANONICAL_URL", "https://nourl.readthedocs.io/en/latest/")
    out = build(make_app, copy_root("nobaseurl", tmp_path / "src"))
    outputs = check_site(out, "https://nourl.readthedocs.io/en/latest/", expect_pages=1)
    assert "(https://nourl.readthedocs.io/en/latest/index.md)" in (out / "llms.txt").read_text()
    assert outputs.views["index.md"][0]["title"] == "No URL"


def test_preprocess_hook(make_app: App, basic: Path, tmp_path: Path) -> None:
    hook = tmp_path / "agent_hooks.py"
    hook.write_text("def mark(element, url):\n"
                    "    element.insert(0, element.makeelement('p', {}))\n"
                    "    element[0].text = 'Seen at ' + url\n")
    out = build(make_app, basic, confoverrides={"agentprose_preprocess": f"{hook}:mark"})
    body = check_site(out, BASE).views["guide/rocks.md"][1]
    assert body.startswith(f"Seen at {BASE}guide/rocks.html\n")


def test_sphinx_autobuild_serves_views_as_markdown(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    source = tmp_path / "src"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "sphinx-site", source)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # sphinx-autobuild builds in a subprocess: the type comes from its server's own
    # mimetypes (Python's table and the system's mime.types), not from our extension.
    server = subprocess.Popen(
        [sys.executable, "-m", "sphinx_autobuild", str(source), str(tmp_path / "out"),
         "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                url = f"http://127.0.0.1:{port}/tides.md"
                with urllib.request.urlopen(url, timeout=2) as response:
                    assert response.headers["Content-Type"] == "text/markdown; charset=utf-8"
                    assert response.read().startswith(b"---\ntitle: \"Tides\"")
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
    finally:
        server.terminate()
        server.wait(timeout=20)


_BUILD_AND_TELL = """
import sys
from sphinx.cmd.build import build_main
code = build_main(["-b", "html", "-d", sys.argv[2], *sys.argv[4:], sys.argv[1], sys.argv[3]])
print(code, "lxml" in sys.modules or "agentprose_core.output.publish" in sys.modules)
"""


MORE_PAGES = 4  # what the tests below add to the basic project: this many pages and four


def _site_with_more_pages(root: Path, count: int) -> Path:
    """The basic project in ``root/src`` with ``count`` more pages linking one guide."""
    src = copy_root("basic", root / "src")
    for number in range(count):
        (src / f"more{number}.rst").write_text(
            f":orphan:\n\nMore {number}\n=======\n\nSee :doc:`guide/rocks`.\n")
    return src


def _build_and_tell(src: Path, root: Path, workers: str, *options: str) -> tuple[str, bool]:
    """A build in a process of its own: whether Sphinx's process loaded the converter
    (lxml) or the site files' renderers ("True"/"False"), and whether the worker wrote
    the site files (``-v`` says so)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _BUILD_AND_TELL, str(src), str(root / "d"), str(root / "out"),
         "-D", f"agentprose_workers={workers}", *options],
        capture_output=True, text=True, check=False)
    told = done.stdout.splitlines()[-1].split()
    assert told[0] == "0", done.stderr
    return told[1], "site files written by the worker process" in done.stdout


def test_an_incremental_build_works_in_a_worker_and_sphinx_never_loads_lxml(
    tmp_path: Path,
) -> None:
    from agentprose_core.parallel.policy import worker_count

    from .test_cache import _without_times

    outputs = {}
    for workers in ("1", "0"):
        src = _site_with_more_pages(tmp_path / workers, MORE_PAGES + 4)
        runs, by_worker = [], []
        for _ in range(2):
            loaded, by = _build_and_tell(src, tmp_path / workers, workers,
                                         *(["-j", "2", "-v"] if workers == "1" else ["-q"]))
            runs.append(loaded)
            by_worker.append(by)
            (src / "guide" / "rocks.rst").write_text("Rock pools\n==========\n\nBarnacles.\n")
            for number in range(MORE_PAGES + 1):
                page = src / f"more{number}.rst"
                page.write_text(page.read_text() + "\nMore text.\n")
        if workers == "1" and worker_count(MORE_PAGES + 1, enabled=True) > 0:
            assert runs == ["True", "False"]  # the cold build converts in-process
            assert by_worker == [False, True]  # and writes the site files itself
        outputs[workers] = snapshot(tmp_path / workers / "out")
        assert b"Barnacles." in outputs[workers]["guide/rocks.md"]
    assert _without_times(outputs["1"]) == _without_times(outputs["0"])


def test_a_one_page_rebuild_converts_and_writes_the_site_files_in_the_worker(
    tmp_path: Path,
) -> None:
    # The rebuild after an edit: its worker converts the page and writes the site files
    # while Sphinx finishes (they would otherwise wait at the end, a cost that grows
    # with the site), Sphinx's process loads neither lxml nor the site files'
    # renderers, and the outputs are those of a build without workers.
    from agentprose_core.parallel.policy import worker_count

    from .test_cache import _without_times

    outputs = {}
    for workers in ("1", "0"):
        src = _site_with_more_pages(tmp_path / workers, MORE_PAGES + 4)
        told = []
        for _ in range(3):
            told.append(_build_and_tell(src, tmp_path / workers, workers, "-v"))
            page = src / "more0.rst"
            page.write_text(page.read_text() + "\nOne more line.\n")
        if workers == "1" and worker_count(1, enabled=True) > 0:
            assert told == [("False", True)] * 3
        outputs[workers] = snapshot(tmp_path / workers / "out")
    assert _without_times(outputs["1"]) == _without_times(outputs["0"])


def test_site_files_named_in_html_extra_path_are_written_last_by_sphinx_s_process(
    tmp_path: Path,
) -> None:
    # Sphinx copies html_extra_path after html-collect-pages: a worker writing llms.txt
    # then could lose to the copy; ours must win, as in every other build.
    import subprocess
    import sys

    src = copy_root("basic", tmp_path / "src")
    for number in range(MORE_PAGES + 4):
        (src / f"more{number}.rst").write_text(f":orphan:\n\nMore {number}\n=======\n\nText.\n")
    (src / "extra").mkdir()
    (src / "extra" / "llms.txt").write_text("A hand-written file.\n")
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", _BUILD_AND_TELL, str(src), str(tmp_path / "d"),
             str(tmp_path / "out"), "-D", "html_extra_path=extra", "-v"],
            capture_output=True, text=True, check=False)
        assert done.stdout.splitlines()[-1].split()[0] == "0", done.stderr
        assert "site files written by the worker process" not in done.stdout
        (src / "guide" / "rocks.rst").write_text("Rock pools\n==========\n\nBarnacles.\n")
    assert (tmp_path / "out" / "llms.txt").read_text().startswith("# ")


def test_the_worker_s_site_files_module_loads_without_sphinx() -> None:
    import subprocess
    import sys

    code = "import sys, agentprose_core.build.sitefiles; print('sphinx' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False"]  # importing Sphinx costs the worker 0.1 s


@pytest.mark.parametrize(("builder", "page"), [("html", "spacey%20name.html"),
                                               ("dirhtml", "spacey%20name/")])
def test_a_document_name_with_a_space_is_quoted_once(
    make_app: App, tmp_path: Path, builder: str, page: str
) -> None:
    # issue 39: Sphinx's html builder quotes target URIs itself; dirhtml does not
    srcdir = copy_root("spacey-name", tmp_path / "src")
    out = build(make_app, srcdir, builder)
    outputs = check_site(out, BASE)
    urls = [post["url"] for post in outputs.index["posts"]]
    assert BASE + page in urls
    assert all("%25" not in url for url in urls)
    assert "spacey name.md" in outputs.views
    html = (out / ("spacey name.html" if builder == "html" else "spacey name/index.html"))
    assert "%2520" not in html.read_text(encoding="utf-8")


def test_a_sites_own_html_builder_gets_the_outputs(make_app: App, tmp_path: Path) -> None:
    # issue 39: a builder that subclasses StandaloneHTMLBuilder under another name
    srcdir = copy_root("custom-builder", tmp_path / "src")
    out = build(make_app, srcdir, "myhtml")
    outputs = check_site(out, BASE, expect_pages=2)
    assert outputs.views["pools.md"][1] == "# Pools\n\nText.\n"


@pytest.mark.parametrize(("builder", "says"), [("epub", "e-book"), ("singlehtml", "one page"),
                                               ("text", "no web pages")])
def test_a_builder_without_outputs_says_why(make_app: App, basic: Path, builder: str,
                                            says: str) -> None:
    app = make_app(builder, srcdir=basic)
    app.build()
    assert f"agentprose: the '{builder}' builder" in app._status.getvalue()
    assert says in app._status.getvalue()
    assert not (Path(app.outdir) / "agentprose.json").exists()


def test_deleting_one_of_a_sections_two_pages_drops_its_llms_txt(
    make_app: App, basic: Path
) -> None:
    # issue 39: incremental build after guide/ lost one of its two pages: no stale
    # guide/llms.txt, and the page left links the root llms.txt, as a clean build does.
    out = build(make_app, basic)
    assert (out / "guide/llms.txt").is_file()
    (basic / "guide/rocks.rst").unlink()
    index = basic / "index.rst"
    index.write_text(index.read_text().replace("   guide/rocks\n", ""))
    out = build(make_app, basic)
    check_site(out, BASE)
    assert not (out / "guide/llms.txt").exists()
    page = (out / "guide/tide-pools.html").read_text(encoding="utf-8")
    assert f'<link rel="describedby" href="{BASE}llms.txt">' in page
    assert "guide/llms.txt" not in page


def test_our_outputs_never_become_sources(tmp_path: Path) -> None:
    # issue 40: a MyST project building into a folder inside its sources, not excluded,
    # read the views back as documents ("document isn't included in any toctree" x5)
    import subprocess
    import sys

    from .sites import write_tree

    src = tmp_path / "docs"
    write_tree(src, {
        "conf.py": "project = 'Shore'\nextensions = ['myst_parser', 'sphinx_agentprose']\n"
                   "html_baseurl = 'https://shore.example/'\nagentprose_quiet = ['no-git']\n",
        "index.md": "# Shore\n\nTide pools.\n\n```{toctree}\npools\n```\n",
        "pools.md": "# Pools\n\nWater between rocks.\n",
    })
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-W", str(src), str(src / "site"),
               "-d", str(src / "site" / ".doctrees")]
    for _ in range(2):  # the second build finds the first one's views in the sources
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
    assert "toctree" not in done.stderr
    assert not (src / "site" / "site").exists()
    index = (src / "site" / "agentprose.json").read_text(encoding="utf-8")
    assert index.count('"markdown_url"') == 2


def test_a_build_ends_with_a_summary_line(make_app: App, basic: Path) -> None:
    # issue 40: MkDocs says "N agent views, M files written"; Sphinx said nothing
    app = make_app("html", srcdir=basic)
    app.build()
    status = app._status.getvalue()
    assert "agentprose: 5 agent views, " in status, status
    assert " files written" in status, status
