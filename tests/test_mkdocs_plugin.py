"""`plugins: [agentprose]` in real `mkdocs build` runs on small sites in tmp_path."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml

from agentprose_core.check.checker import check_site_dir
from agentprose_core.records.dates import is_shallow
from agentprose_core.settings import options

from .outputs import check_site, split_view
from .sites import commit_all, snapshot, write_tree

if TYPE_CHECKING:
    from collections.abc import Callable

PAGES = {
    "docs/index.md": "# Coast guide\n\nWelcome. Read [tide pools](guide/tide-pools.md#life).\n",
    "docs/guide/tide-pools.md": (
        "---\nauthors: [Ana Ruiz, Bo Li]\ndate: 2025-06-02\ndescription: Pools at low tide.\n"
        "tags: [ecology]\n---\n\n# Tide pools\n\n## Life\n\nCrabs. See [rocks](rocks.md) and "
        "[the secret page](../secret.md).\n\n```python\nprint('tide')\n```\n\n"
        "!!! note \"Keep the lid on\"\n    Crabs escape.\n"
    ),
    "docs/guide/rocks.md": "# Rock pools\n\nCarved in rock. Back to [home](../index.md).\n",
    "docs/secret.md": "---\nagentprose: false\n---\n\n# Secret\n\nNot for agents.\n",
    "docs/drafts/idea.md": "# Idea\n\nExcluded by glob.\n",
    "docs/extra.md": "# Extra\n\nNot in the nav.\n",
    "docs/draft.md": "---\ndraft: true\n---\n\n# Draft\n\nNot published to agents.\n",
}
NAV = [
    {"Home": "index.md"},
    {"Guide": [{"Tide pools": "guide/tide-pools.md"}, "guide/rocks.md"]},
    {"Secret": "secret.md"},
    {"Drafts": ["drafts/idea.md"]},
]


def make_site(root: Path, **config: object) -> Path:
    settings: dict[str, object] = {
        "site_name": "Coast",
        "site_url": "https://coast.example/docs/",
        "site_description": "Field notes on the shore.",
        "nav": NAV,
        "markdown_extensions": ["admonition"],
        "plugins": [{"agentprose": {"exclude": ["drafts/*"]}}],
    }
    settings.update(config)
    write_tree(root, {**PAGES, "mkdocs.yml": yaml.safe_dump(settings, sort_keys=False)})
    return root


def mkdocs_build(root: Path, *extra: str, quiet: bool = True) -> subprocess.CompletedProcess[str]:
    # -q hides warnings from --strict's count too: a strict build must not be quiet.
    quiet = quiet and "--strict" not in extra
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *(["-q"] if quiet else []), *extra], cwd=root,
        capture_output=True, text=True, check=False,
    )


@pytest.fixture
def git_site(tmp_path: Path) -> Path:
    root = make_site(tmp_path / "proj")
    commit_all(root, "first", "2024-01-02T03:04:05+00:00")
    (root / "docs/guide/rocks.md").write_text("# Rock pools\n\nCarved in solid rock.\n")
    commit_all(root, "second", "2025-03-04T05:06:07+00:00")
    return root


def test_build_in_git_repo_strict(git_site: Path) -> None:
    done = mkdocs_build(git_site, "--strict")
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr
    site = git_site / "site"
    outputs = check_site(site, "https://coast.example/docs/", expect_pages=4)
    assert sorted(outputs.views) == ["extra.md", "guide/rocks.md", "guide/tide-pools.md",
                                     "index.md"]
    front, body = outputs.views["guide/tide-pools.md"]
    assert front == {
        "title": "Tide pools",
        "canonical": "https://coast.example/docs/guide/tide-pools/",
        "modified": "2024-01-02T03:04:05Z",
        "published": "2025-06-02T00:00:00Z",
        "author": ["Ana Ruiz", "Bo Li"],
        "lang": "en",
        "prev": "https://coast.example/docs/",
        "next": "https://coast.example/docs/guide/rocks/",
    }
    assert outputs.views["guide/rocks.md"][0]["modified"] == "2025-03-04T05:06:07Z"
    assert "[rocks](https://coast.example/docs/guide/rocks.md)" in body
    # The excluded page gets no view, and no link: its link text stays, as text.
    assert "and the secret page." in body
    assert "/secret" not in (site / "llms-full.txt").read_text(encoding="utf-8")
    assert "```python\nprint('tide')\n```" in body
    assert "> **Note: Keep the lid on**" in body
    assert not (site / "secret.md").exists()
    assert not (site / "drafts/idea.md").exists()
    assert not (site / "draft.md").exists()
    for output in ("agentprose.json", "llms.txt", "llms-full.txt"):
        text = (site / output).read_text(encoding="utf-8")
        assert "Not for agents" not in text
        assert "Not published to agents" not in text
    assert b"text/markdown" not in (site / "secret/index.html").read_bytes()
    posts = outputs.index["posts"]
    assert [p["title"] for p in posts] == ["Coast guide", "Tide pools", "Rock pools", "Extra"]
    assert posts[1]["section"] == ["Guide"]
    assert posts[1]["summary"] == "Pools at low tide."
    assert posts[1]["tags"] == ["ecology"]
    assert list(outputs.llms["sections"]) == ["Docs", "Guide", "Optional"]
    assert [link.title for link in outputs.llms["sections"]["Optional"]] == ["Extra"]


def test_pages_without_a_view_are_named_with_why(git_site: Path) -> None:
    # issue 39: every page the build writes gets a view or a logged reason
    done = mkdocs_build(git_site, quiet=False)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stderr.splitlines() if "[no-view]" in line)
    assert line.startswith("INFO")
    assert "3 page(s) get no agent view" in line
    for named in ("secret.md (agentprose: false)", "drafts/idea.md (exclude)",
                  "draft.md (draft: true)"):
        assert named in line, line


def test_pages_that_include_files_date_from_the_newest(tmp_path: Path) -> None:
    # pymdownx.snippets from outside docs/ (base_path), mkdocs-include-markdown's syntax
    root = make_site(tmp_path / "proj", markdown_extensions=[
        "admonition", {"pymdownx.snippets": {"base_path": ["snippets", "."]}}])
    write_tree(root, {
        "snippets/safety.md": "Watch the tide tables.\n",
        "CHANGES.md": "## 1.0\n\nFirst.\n",
        "docs/guide/rocks.md": '# Rock pools\n\n--8<-- "safety.md"\n\n'
                               '--8<--\nCHANGES.md\n--8<--\n',
    })
    commit_all(root, "first", "2024-01-02T03:04:05+00:00")
    (root / "snippets/safety.md").write_text("Watch the tide tables twice.\n")
    commit_all(root, "snippet", "2025-03-04T05:06:07+00:00")
    (root / "CHANGES.md").write_text("## 1.1\n\nSecond.\n")
    commit_all(root, "changes", "2025-06-07T08:09:10+00:00")
    done = mkdocs_build(root, "--strict")
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/")
    front, body = outputs.views["guide/rocks.md"]
    assert "twice" in body
    assert "Second." in body
    assert front["modified"] == "2025-06-07T08:09:10Z"
    assert outputs.views["index.md"][0]["modified"] == "2024-01-02T03:04:05Z"


BLOG = {
    "mkdocs.yml": yaml.safe_dump({
        "site_name": "Shore", "site_url": "https://shore.example/",
        "theme": {"name": "material"},
        "nav": [{"Home": "index.md"}, {"Blog": ["blog/index.md"]}],
        "plugins": [{"blog": {"post_url_format": "{slug}"}}, "agentprose"],
    }, sort_keys=False),
    "docs/index.md": "# Shore\n\nField notes.\n",
    "docs/blog/index.md": "# Blog\n",
    "docs/blog/.authors.yml": "authors:\n  ana:\n    name: Ana Ruiz\n    description: Writer\n"
                              "    avatar: https://shore.example/ana.png\n",
    "docs/blog/posts/tides.md": "---\ndate: 2024-03-01\nauthors: [ana]\ncategories: [Ecology]\n"
                                "---\n\n# Spring tides\n\nThe moon pulls harder.\n\n"
                                "<!-- more -->\n\nMore about tides.\n",
    "docs/blog/posts/crabs.md": "---\ndate: 2025-07-02\nauthors: [ana]\ncategories: [Ecology]\n"
                                "---\n\n# Hermit crabs\n\nShells are borrowed.\n\n"
                                "<!-- more -->\n\nMore about crabs.\n",
}


def test_a_material_blog(tmp_path: Path) -> None:
    root = tmp_path / "blog"
    write_tree(root, BLOG)
    commit_all(root, "first", "2024-03-01T10:00:00+00:00")
    (root / "docs/blog/posts/crabs.md").write_text(BLOG["docs/blog/posts/crabs.md"] + "Edited.\n")
    commit_all(root, "crabs", "2025-07-03T10:00:00+00:00")
    done = mkdocs_build(root, "--strict")
    assert done.returncode == 0, done.stderr
    site = root / "site"
    outputs = check_site(site, "https://shore.example/")
    front, _ = outputs.views["blog/hermit-crabs.md"]
    assert front["author"] == "Ana Ruiz"  # the name, not the .authors.yml key
    assert front["published"] == "2025-07-02T00:00:00Z"
    assert front["modified"] == "2025-07-03T10:00:00Z"
    # Generated pages: dated by the newest post they show, listing their posts.
    for generated in ("blog/archive/2025.md", "blog/category/ecology.md", "blog.md"):
        front, body = outputs.views[generated]
        assert front["modified"] == "2025-07-03T10:00:00Z", generated
        assert "(https://shore.example/blog/hermit-crabs.md)" in body, generated
        assert "Shells are borrowed." in body, generated
    assert outputs.views["blog/archive/2024.md"][0]["modified"] == "2024-03-01T10:00:00Z"
    assert "Spring tides" in outputs.views["blog/archive/2024.md"][1]
    # The blog's section in llms.txt: the index, then its posts newest first.
    blog = [link.title for link in outputs.llms["sections"]["Blog"]]
    assert blog[:3] == ["Blog", "Hermit crabs", "Spring tides"]
    posts = {p["title"]: p for p in outputs.index["posts"]}
    assert posts["Hermit crabs"]["section"] == ["Blog"]
    assert posts["Hermit crabs"]["authors"] == ["Ana Ruiz"]
    page = (site / "blog/hermit-crabs/index.html").read_text(encoding="utf-8")
    assert '"name": "Ana Ruiz"' in page or '"name":"Ana Ruiz"' in page
    again = tmp_path / "again"
    shutil.copytree(root, again, ignore=shutil.ignore_patterns("site", ".cache"))
    assert mkdocs_build(again, "--strict").returncode == 0
    assert snapshot(again / "site") == snapshot(site)  # no build clock in any output


# Runs MkDocs' build in this process and prints which of the modules named after the
# script it loaded.
_BUILD_AND_LIST_MODULES = """
import sys
from mkdocs.__main__ import cli
try:
    cli(["build", "-q"])
except SystemExit as done:
    if done.code:
        raise
print(sorted(m for m in sys.argv[1:] if m in sys.modules))
"""
CONVERTER = ("lxml", "html_to_markdown", "markdownify")


# Runs MkDocs' build in this process; when the plugin gives memory back, counts the
# records still alive (each holds a page's Markdown: they must be gone by then).
_BUILD_AND_COUNT_RECORDS = """
import gc
from mkdocs.__main__ import cli
import mkdocs_agentprose.plugin as plugin
alive = []
plugin.release_freed_memory = lambda: alive.append(
    sum(type(o).__name__ == "PageRecord" for o in gc.get_objects()))
try:
    cli(["build", "-q"])
except SystemExit as done:
    if done.code:
        raise
print(alive)
"""


# Runs MkDocs' build in this process (arguments after the script's name) and prints
# the name of the thread each git history pass ran in.
_BUILD_AND_NAME_GIT_THREADS = """
import sys
import threading
from mkdocs.__main__ import cli
from agentprose_core.records import dates
read_in = []
real = dates._history
def history(directory, also=()):
    read_in.append(threading.current_thread().name)
    return real(directory, also)
dates._history = history
try:
    cli(["build", "-q", *sys.argv[1:]])
except SystemExit as done:
    if done.code:
        raise
print(read_in)
"""


def test_a_build_reads_the_git_history_while_mkdocs_renders(git_site: Path) -> None:
    # on_nav starts the pass in a thread: the pages are dated in on_env without waiting
    # for git. A dirty build dates only the pages it renders, when it asks.
    for extra, expected in (((), "['agentprose-git-history']"), (("--dirty",), "['MainThread']")):
        for kept in git_site.glob(".cache/**/git-history-*.json"):  # so that git runs
            kept.unlink()
        (git_site / "docs/guide/rocks.md").touch()
        done = subprocess.run([sys.executable, "-c", _BUILD_AND_NAME_GIT_THREADS, *extra],
                              cwd=git_site, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().splitlines()[-1] == expected
    outputs = check_site(git_site / "site", "https://coast.example/docs/", expect_pages=4)
    assert outputs.views["guide/tide-pools.md"][0]["modified"] == "2024-01-02T03:04:05Z"
    assert outputs.views["guide/rocks.md"][0]["modified"] == "2025-03-04T05:06:07Z"


def test_records_are_freed_before_memory_goes_back(tmp_path: Path) -> None:
    # What agentprose frees at on_post_build is only handed back to the system (before
    # the search plugin builds its index, the build's peak) if nothing holds it still.
    root = make_site(tmp_path / "site")
    write_tree(root, {f"docs/more/p{number}.md": f"# Page {number}\n\nText.\n"
                      for number in range(6)})
    commit_all(root, "first", "2024-03-01T10:00:00+00:00")
    done = subprocess.run([sys.executable, "-c", _BUILD_AND_COUNT_RECORDS], cwd=root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    # Once after on_env (the workers' answers as read; the records are in use), then
    # after on_post_build, when no record is left.
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    assert len(counts) == 2
    assert counts[0] > 0
    assert counts[-1] == 0


def test_with_workers_mkdocs_process_never_loads_the_converter(tmp_path: Path) -> None:
    # A blog (its listing pages are converted from the written pages), more pages than
    # a build converts without workers, and a page that links one left out later (a
    # draft): every conversion runs in the workers, and MkDocs' process stays as small
    # as a bare build's.
    root = tmp_path / "blog"
    files = dict(BLOG)
    for number in range(20):
        files[f"docs/notes/n{number}.md"] = f"# Note {number}\n\nSee [the draft](../draft.md).\n"
    files["docs/draft.md"] = "---\nagentprose: false\n---\n\n# Draft\n"
    write_tree(root, files)
    commit_all(root, "first", "2024-03-01T10:00:00+00:00")
    (root / "docs/blog/posts/crabs.md").write_text(BLOG["docs/blog/posts/crabs.md"] + "Edited.\n")
    commit_all(root, "crabs", "2025-07-03T10:00:00+00:00")
    done = subprocess.run([sys.executable, "-c", _BUILD_AND_LIST_MODULES, *CONVERTER], cwd=root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    site = root / "site"
    outputs = check_site(site, "https://shore.example/")
    for generated in ("blog/archive/2025.md", "blog/category/ecology.md", "blog.md"):
        front, body = outputs.views[generated]
        assert front["modified"] == "2025-07-03T10:00:00Z", generated
        assert "(https://shore.example/blog/hermit-crabs.md)" in body, generated
    # The listing's page, written before its view was made, says the listing's date.
    page = (site / "blog/index.html").read_text(encoding="utf-8")
    assert 'content="2025-07-03T10:00:00Z"' in page
    assert page.count('rel="agentprose-index"') == 1
    assert "draft.md" not in outputs.views["notes/n3.md"][1]
    without = tmp_path / "without"
    shutil.copytree(root, without, ignore=shutil.ignore_patterns("site", ".cache"))
    config = yaml.safe_load((without / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"][-1] = {"agentprose": {"workers": False}}
    (without / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    assert mkdocs_build(without).returncode == 0
    assert snapshot(without / "site") == snapshot(site)  # the same bytes either way


def test_with_workers_a_worker_writes_the_views_and_site_files(git_site: Path) -> None:
    # issue 45: after on_env MkDocs writes its pages on one CPU while the worker idles:
    # the worker writes the views and the site files meanwhile, the same bytes.
    done = subprocess.run([sys.executable, "-c", _BUILD_AND_LIST_MODULES,
                           "agentprose_core.output.publish"], cwd=git_site,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
    site = snapshot(git_site / "site")
    check_site(git_site / "site", "https://coast.example/docs/", expect_pages=4)
    config = yaml.safe_load((git_site / "mkdocs.yml").read_text(encoding="utf-8"))
    config["plugins"] = [{"agentprose": {"exclude": ["drafts/*"], "workers": False}}]
    (git_site / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    assert mkdocs_build(git_site).returncode == 0
    assert snapshot(git_site / "site") == site


def test_a_file_mkdocs_copies_where_ours_go_is_replaced_by_ours(git_site: Path) -> None:
    # MkDocs copies the docs' other files while the worker writes ours: ours must still
    # be what the site ends with, as when they were written after every other file. The
    # hook holds MkDocs after on_env until the worker wrote ours: the copy comes last.
    write_tree(git_site, {"docs/llms.txt": "# Someone else's\n", "hooks.py": (
        "import pathlib, time\nfrom mkdocs.plugins import event_priority\n\n"
        "@event_priority(-300)\ndef on_env(env, config, files):\n"
        "    written = pathlib.Path(config.site_dir) / 'agentprose.json'\n"
        "    deadline = time.monotonic() + 60\n"
        "    while not written.is_file() and time.monotonic() < deadline:\n"
        "        time.sleep(0.01)\n")})
    config = yaml.safe_load((git_site / "mkdocs.yml").read_text(encoding="utf-8"))
    config["hooks"] = ["hooks.py"]
    (git_site / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    done = mkdocs_build(git_site)
    assert done.returncode == 0, done.stderr
    assert (git_site / "site/llms.txt").read_text(encoding="utf-8").startswith("# Coast\n")


def test_a_redirect_stub_gets_nothing(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", theme={"name": "mkdocs", "custom_dir": "overrides"},
                     nav=[*NAV, {"Old": "old.md"}])
    write_tree(root, {
        "overrides/redirect.html": '<!doctype html><html><head><meta http-equiv="refresh" '
                                   'content="0; url={{ page.meta.location }}"></head></html>',
        "docs/old.md": "---\ntemplate: redirect.html\nlocation: ../guide/rocks/\n---\n",
        "docs/moved.md": '<meta http-equiv="refresh" content="0; url=../guide/rocks/">\n',
    })
    commit_all(root, "first", "2024-01-02T03:04:05+00:00")
    done = mkdocs_build(root, "--strict")
    assert done.returncode == 0, done.stderr
    site = root / "site"
    outputs = check_site(site, "https://coast.example/docs/")
    assert "old.md" not in outputs.views
    assert not (site / "old.md").exists()
    assert "moved.md" not in outputs.views  # a meta-refresh stub written in Markdown
    for output in ("agentprose.json", "llms.txt", "llms-full.txt"):
        assert "/old" not in (site / output).read_text(encoding="utf-8"), output
    assert b"text/markdown" not in (site / "old/index.html").read_bytes()


def test_two_builds_give_the_same_bytes(git_site: Path) -> None:
    assert mkdocs_build(git_site).returncode == 0
    first = snapshot(git_site / "site")
    assert mkdocs_build(git_site).returncode == 0
    assert snapshot(git_site / "site") == first
    assert len(first) == 8  # guide/llms.txt: the Guide section's own


def test_flat_urls_and_material(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", use_directory_urls=False,
                     theme={"name": "material", "language": "pt-BR"},
                     markdown_extensions=["admonition", "pymdownx.details",
                                          {"pymdownx.superfences": {}},
                                          {"pymdownx.tabbed": {"alternate_style": True}}])
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/", expect_pages=4)
    front, body = outputs.views["guide/tide-pools.md"]
    assert front["canonical"] == "https://coast.example/docs/guide/tide-pools.html"
    assert front["lang"] == "pt-BR"
    assert "[rocks](https://coast.example/docs/guide/rocks.md)" in body
    assert "Permanent link" not in body
    assert "¶" not in body


def test_root_site_url(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", site_url="https://coast.example")
    assert mkdocs_build(root).returncode == 0
    outputs = check_site(root / "site", "https://coast.example/", expect_pages=4)
    assert outputs.views["index.md"][0]["canonical"] == "https://coast.example/"


def test_disabled_writes_nothing(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": {"enabled": False}}])
    assert mkdocs_build(root).returncode == 0
    assert snapshot(root / "site", (".md",)) == {}
    assert not (root / "site" / "agentprose.json").exists()


def test_missing_site_url_is_a_configuration_error(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", site_url=None)
    done = mkdocs_build(root)
    assert done.returncode != 0
    assert "agentprose needs 'site_url' in mkdocs.yml" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("options_", "message"),
    [
        ({"converter": "pandoc"}, "option 'converter': Expected one of: ('html-to-markdown'"),
        ({"exclude": "drafts/*"}, "option 'exclude': Expected a list of items"),
        ({"enabled": "maybe"}, "option 'enabled': Expected type: <class 'bool'>"),
        ({"view_layout": 3}, "option 'view_layout': Expected one of"),
        ({"bogus": True}, "option 'bogus': Unrecognised configuration name: bogus"),
    ],
)
def test_bad_option_is_a_clear_configuration_error(
    tmp_path: Path, options_: dict[str, object], message: str
) -> None:
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": options_}])
    done = mkdocs_build(root, "--strict", quiet=False)
    assert done.returncode != 0
    assert f"Plugin 'agentprose' {message}" in done.stderr
    assert "Traceback" not in done.stderr


def test_sections_setting_overrides_the_nav(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": {
        "sections": {"Start here": ["index.md", "extra.md"], "Pools": ["guide/*.md"]},
    }}])
    assert mkdocs_build(root).returncode == 0
    outputs = check_site(root / "site", "https://coast.example/docs/")
    sections = outputs.llms["sections"]
    assert list(sections) == ["Start here", "Pools", "Optional"]
    assert [link.title for link in sections["Start here"]] == ["Coast guide", "Extra"]
    assert [link.title for link in sections["Pools"]] == ["Tide pools", "Rock pools"]
    assert [link.title for link in sections["Optional"]] == ["Idea"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.headers["Content-Type"], response.read().decode("utf-8")


def _wait_for(url: str, predicate: Callable[[str], bool], seconds: float = 30) -> tuple[str, str]:
    deadline = time.monotonic() + seconds
    last: object = None
    while True:
        try:
            found = last = _get(url)
            if predicate(found[1]):
                return found
        except OSError as error:
            last = error
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not come up as expected: {last!r}")
        time.sleep(0.2)


def test_mkdocs_serve_serves_and_refreshes_views(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", site_url=None)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    output = ""
    try:
        base = f"http://127.0.0.1:{port}/"
        kind, text = _wait_for(base + "guide/rocks.md", lambda t: "Carved in rock" in t)
        assert kind == "text/markdown; charset=utf-8"
        assert f'canonical: "{base}guide/rocks/"' in text
        _, index = _wait_for(base + "llms.txt", lambda t: "Rock pools" in t)
        assert f"({base}guide/rocks.md)" in index
        (root / "docs/guide/rocks.md").write_text("# Rock pools\n\nNow with barnacles.\n")
        _wait_for(base + "guide/rocks.md", lambda t: "barnacles" in t)
        _wait_for(base + "agentprose.json", lambda t: "barnacles" in t)
    except AssertionError as error:
        server.terminate()
        raise AssertionError(f"{error}\n{server.communicate(timeout=10)[0]}") from None
    finally:
        if server.poll() is None:
            server.terminate()
            output = server.communicate(timeout=10)[0]
    assert "Traceback" not in output
    assert output.count("Building documentation") <= 3, output  # no rebuild loop


def test_readthedocs_theme(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", theme="readthedocs")
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/", expect_pages=4)
    body = outputs.views["guide/tide-pools.md"][1]
    assert body.startswith("# Tide pools\n\n## Life\n")
    assert "Edit on" not in body
    assert "Next" not in body


def test_mkdocstrings_api_page(tmp_path: Path) -> None:
    root = make_site(
        tmp_path / "proj", theme="material",
        plugins=[{"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}}, "agentprose"],
        nav=[{"Home": "index.md"}, {"API": "api.md"}],
    )
    write_tree(root, {
        "docs/api.md": "# API\n\n::: coastlib\n",
        "src/coastlib.py": (
            '"""Tools for the shore."""\n\n\n'
            "def survey(pool: str, depth: float = 1.5) -> int:\n"
            '    """Count the creatures in a pool.\n\n    Args:\n        pool: The pool name.\n'
            "        depth: How deep to look.\n\n"
            '    Returns:\n        How many were found.\n    """\n'
            "    return 0\n"
        ),
    })
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/")
    body = outputs.views["api.md"][1]
    assert "survey" in body
    assert "Count the creatures in a pool." in body
    assert "depth" in body
    assert "How deep to look." in body
    assert "How many were found." in body


def test_api_pages_date_from_their_code_and_keep_parameter_anchors(tmp_path: Path) -> None:
    # issue 39: `::: pkg` dates the page by pkg/__init__.py (in the handler's paths);
    # parameter_headings puts a heading in each parameter's table cell.
    root = make_site(
        tmp_path / "proj", theme="material",
        plugins=[{"mkdocstrings": {"handlers": {"python": {"paths": ["src"], "options": {
            "parameter_headings": True, "show_root_heading": True}}}}}, "agentprose"],
        nav=[{"Home": "index.md"}, {"API": "api.md"}],
    )
    write_tree(root, {
        "docs/api.md": "# API\n\n::: coastlib\n",
        "src/coastlib/__init__.py": (
            '"""Tools for the shore."""\n\n\n'
            "def survey(pool: str, depth: float = 1.5) -> int:\n"
            '    """Count the creatures in a pool.\n\n    Args:\n        pool: The pool name.\n'
            "        depth: How deep to look.\n    \"\"\"\n    return 0\n"
        ),
    })
    commit_all(root, "first", "2024-01-02T03:04:05+00:00")
    init = root / "src/coastlib/__init__.py"
    init.write_text(init.read_text().replace("How deep", "How far down"))
    commit_all(root, "code", "2025-05-06T07:08:09+00:00")
    done = mkdocs_build(root, "--strict")
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/")
    front, body = outputs.views["api.md"]
    assert front["modified"] == "2025-05-06T07:08:09Z"
    assert outputs.views["index.md"][0]["modified"] == "2024-01-02T03:04:05Z"
    assert "How far down to look." in body
    assert '<a id="coastlib.survey(depth)"></a>' in body
    for output in ("agentprose.json", "llms-full.txt", "api.md"):
        assert "AgPr" not in (root / "site" / output).read_text(encoding="utf-8")


def test_another_plugins_dates_are_not_trusted(tmp_path: Path) -> None:
    # issue 39: mkdocs-git-revision-date-localized puts its own times in page.meta (the
    # build time where it finds no history); a hook sets them as the plugin does.
    root = make_site(tmp_path / "proj", hooks=["hooks.py"])
    write_tree(root, {"hooks.py": (
        "def on_page_markdown(markdown, page, **kwargs):\n"
        "    page.meta['git_revision_date_localized_raw_iso_datetime'] = '2031-01-01 00:00:00'\n"
        "    page.meta['git_creation_date_localized_raw_iso_datetime'] = '2031-01-01 00:00:00'\n"
        "    return markdown\n")})
    commit_all(root, "first", "2024-01-02T03:04:05+00:00")
    done = mkdocs_build(root, "--strict")
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/")
    for front, _ in outputs.views.values():
        assert front["modified"] == "2024-01-02T03:04:05Z"
        assert front.get("published") in (None, "2025-06-02T00:00:00Z")


def test_material_shows_a_title_the_page_lacks_and_so_does_the_view(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", theme="material",
                     nav=[{"Home": "index.md"}, {"Low water": "notes.md"}])
    # More pages than a site converts in-process: the background workers get the title.
    fillers = {f"docs/more/p{n}.md": f"# Page {n}\n\nText.\n" for n in range(20)}
    write_tree(root, {"docs/notes.md": "---\ntitle: Low water notes\n---\n\nJust text.\n",
                      **fillers})
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr
    body = check_site(root / "site", "https://coast.example/docs/").views["notes.md"][1]
    page = (root / "site/notes/index.html").read_text(encoding="utf-8")
    assert "<h1>Low water</h1>" in page  # the nav title, as Material shows it
    assert body == "# Low water\n\nJust text.\n"


@pytest.mark.parametrize("style", ["table", "list", "spacy"])
def test_mkdocstrings_cross_references_are_links_in_the_views(tmp_path: Path, style: str) -> None:
    """autorefs resolves <autoref> late (on_env): the views hold what readers see, in
    every docstring section style, as Markdown (no HTML table, no unknown tag)."""
    root = make_site(
        tmp_path / "proj", theme="material",
        plugins=[{"mkdocstrings": {"handlers": {"python": {"paths": ["src"], "options": {
            "show_root_heading": True, "backlinks": "tree",
            "docstring_section_style": style}}}}}, "agentprose"],
        nav=[{"Home": "index.md"}, {"Pools": "api/pools.md"}, {"Shore": "api/shore.md"}],
    )
    write_tree(root, {
        "docs/index.md": "# Home\n\nSee [the survey][shore.survey] and [Pool][pools.Pool].\n",
        "docs/api/pools.md": "# Pools\n\n::: pools\n",
        "docs/api/shore.md": "# Shore\n\n::: shore\n",
        "src/pools.py": (
            '"""Pools."""\n\n\nclass Pool:\n'
            '    """A pool, as [shore.survey][] counts it."""\n\n'
            '    def depth(self) -> float:\n        """How deep it is."""\n        return 1.0\n'
        ),
        "src/shore.py": (
            '"""The shore."""\n\nfrom pools import Pool\n\n\n'
            "def survey(pool: Pool, depth: float = 1.5) -> int:\n"
            '    """Count the creatures in a [Pool][pools.Pool].\n\n    Args:\n'
            "        pool: The [pool][pools.Pool] to look at.\n"
            "        depth: How deep to look.\n\n"
            '    Returns:\n        How many were found.\n    """\n'
            "    return 0\n"
        ),
    })
    commit_all(root, "first", "2025-01-02T03:04:05+00:00")
    done = mkdocs_build(root, "--strict")
    assert done.returncode == 0, done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/")
    views = {name: body for name, (_, body) in outputs.views.items()}
    assert all("<autoref" not in body and "<backlinks" not in body and "<table" not in body
               for body in views.values())
    pools = "https://coast.example/docs/api/pools.md#pools.Pool"
    survey = "https://coast.example/docs/api/shore.md#shore.survey"
    assert f"[the survey]({survey})" in views["index.md"]
    assert f"[Pool]({pools})" in views["index.md"]
    assert f"]({survey})" in views["api/pools.md"]
    assert f"[Pool]({pools})" in views["api/shore.md"]  # also inside the parameters table


def test_project_docs_build_with_the_plugin(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parent.parent
    # Strict, as the docs are published; in a shallow clone our one warning says so.
    shallow = is_shallow(repo)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", *([] if shallow else ["--strict"]),
         "-f", str(repo / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True, text=True, check=False, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    assert all("[shallow-clone]" in line for line in warnings), warnings
    assert shallow or not warnings
    outputs = check_site(tmp_path / "site", "https://agentprose.dev/")
    schema = json.loads((tmp_path / "site/schema/agentprose-1.schema.json").read_text())
    assert schema["$id"] == "https://agentprose.dev/schema/agentprose-1.schema.json"
    report = check_site_dir(tmp_path / "site")
    assert report.ok, report.to_text()
    assert not report.problems, report.to_text()
    table = outputs.views["configuration.md"][1]
    for option in options():
        assert re.search(rf"^\| `{option.name}` +\|", table, re.MULTILINE), option.name


def test_preprocess_hook_file_next_to_mkdocs_yml(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": {
        "preprocess": "agent_hooks.py:drop_notes"}}])
    write_tree(root, {"agent_hooks.py": (
        "def drop_notes(element, url):\n"
        "    for note in element.findall(\".//div[@class='admonition note']\"):\n"
        "        note.getparent().remove(note)\n")})
    done = mkdocs_build(root)
    assert done.returncode == 0, done.stderr
    body = check_site(root / "site", "https://coast.example/docs/").views["guide/tide-pools.md"][1]
    assert "Keep the lid on" not in body
    assert "Crabs. See" in body


def test_bad_preprocess_is_a_configuration_error(tmp_path: Path) -> None:
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": {"preprocess": "nope.py:x"}}])
    done = mkdocs_build(root, quiet=False)
    assert done.returncode != 0
    assert "agentprose option 'preprocess'" in done.stderr
    assert "no such file" in done.stderr
    assert "Traceback" not in done.stderr


def test_properdocs_and_mkdocs_give_the_same_outputs(git_site: Path, tmp_path: Path) -> None:
    assert mkdocs_build(git_site).returncode == 0
    with_mkdocs = snapshot(git_site / "site")
    shutil.rmtree(git_site / "site")
    done = subprocess.run(
        [sys.executable, "-m", "properdocs", "build", "-q", "-f", "mkdocs.yml"],
        cwd=git_site, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    with_properdocs = snapshot(git_site / "site")
    index = with_properdocs.pop("agentprose.json").replace(b"(properdocs)", b"(mkdocs)")
    assert index == with_mkdocs.pop("agentprose.json")
    assert with_properdocs == with_mkdocs


def test_two_pages_that_would_share_a_view_each_get_one(tmp_path: Path) -> None:
    # guide.html -> guide.md and guide/index.html -> guide/index.md: each keeps its name.
    root = make_site(tmp_path / "proj", use_directory_urls=False)
    write_tree(root, {"docs/guide.md": "# Guide page\n\nSee [the guide](guide/index.md).\n",
                      "docs/guide/index.md": "# Guide\n\nSee [the page](../guide.md).\n"})
    commit_all(root, "first", "2024-01-02T03:04:05+00:00")
    done = mkdocs_build(root, "--strict", quiet=False)
    assert done.returncode == 0, done.stderr
    assert "[view-collision]" not in done.stderr
    assert "Traceback" not in done.stderr
    outputs = check_site(root / "site", "https://coast.example/docs/")
    page, index = outputs.views["guide.md"], outputs.views["guide/index.md"]
    assert page[0]["title"] == "Guide page"
    assert index[0]["title"] == "Guide"
    assert "(https://coast.example/docs/guide/index.md)" in page[1]
    assert "(https://coast.example/docs/guide.md)" in index[1]


def test_example_material_site(tmp_path: Path) -> None:
    source = Path(__file__).parent.parent / "examples" / "material-site"
    shutil.copytree(source, tmp_path / "site-src")
    commit_all(tmp_path / "site-src", "example", "2026-04-02T10:00:00+00:00")
    done = mkdocs_build(tmp_path / "site-src", "--strict")
    assert done.returncode == 0, done.stderr
    outputs = check_site(tmp_path / "site-src" / "site", "https://rockpools.example/guide/",
                         expect_pages=3)
    crabs = outputs.views["guide/crabs.md"][1]
    assert "**Shore crab**" in crabs
    assert "```python" in crabs
    assert outputs.views["index.md"][1].count("> **Warning: Mind the tide**") == 1


def test_failure_in_another_plugin_leaves_no_half_written_output(git_site: Path) -> None:
    assert mkdocs_build(git_site).returncode == 0
    (git_site / "boom.py").write_text(
        "def on_post_page(output, page, config):\n"
        "    if page.file.src_uri == 'guide/rocks.md':\n"
        "        raise RuntimeError('another plugin failed')\n")
    config = yaml.safe_load((git_site / "mkdocs.yml").read_text())
    config["hooks"] = ["boom.py"]
    (git_site / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    assert mkdocs_build(git_site).returncode != 0
    site = git_site / "site"
    assert not list(site.rglob(".*.tmp"))
    for path in site.rglob("*.md"):  # whatever is there is whole
        split_view(path.read_text(encoding="utf-8"))
    index = site / "agentprose.json"
    assert not index.exists() or json.loads(index.read_text(encoding="utf-8"))["posts"]


def test_the_cache_folder_never_shows_in_git_status(git_site: Path) -> None:
    # issue 40: .cache/agentprose (megabytes) appeared in `git status` of every project
    assert mkdocs_build(git_site).returncode == 0
    assert (git_site / ".cache/agentprose").is_dir()
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=git_site, capture_output=True, text=True, check=True).stdout
    assert ".cache" not in status, status
    assert "site/" in status  # the check can see untracked files at all


def test_a_misspelled_option_is_named_with_the_right_one(tmp_path: Path) -> None:
    # issue 40: Sphinx said "did you mean", MkDocs did not
    root = make_site(tmp_path / "proj", plugins=[{"agentprose": {"sectoin_llms_txt": False}}])
    done = mkdocs_build(root, quiet=False)
    assert done.returncode == 1  # the core refuses an option it does not know
    assert "Traceback" not in done.stderr
    assert "'sectoin_llms_txt' is no agentprose option: did you mean 'section_llms_txt'?" \
        in done.stderr, done.stderr
