"""`agentprose build` on a plain static site, as a user runs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import html

from agentprose_core.cli import main
from agentprose_core.render.bodyhint import HINT_MARKER, without_hint

from .outputs import check_site

EXAMPLE = Path(__file__).parent.parent / "examples" / "plain-site"
BASE = "https://coast.example/"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    target = tmp_path / "site"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("README.md"))
    return target


def _snapshot(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*"))
            if p.is_file()}


def test_build_writes_valid_outputs(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(site)
    assert main(["build", str(site), "--base-url", BASE]) == 0
    out = capsys.readouterr().out
    assert out.startswith("agentprose: 5 pages, wrote 9 files (")  # tide-pools/llms.txt
    outputs = check_site(site, BASE, expect_pages=5)
    front, body = outputs.views["tide-pools.md"]
    assert front == {
        "title": "How tide pools survive low tide",
        "canonical": "https://coast.example/tide-pools/",
        "modified": "2026-03-14T10:30:00Z",
        "published": "2025-06-02T08:00:00Z",
        "author": "Ana Ruiz",
        "lang": "en",
        "prev": "https://coast.example/rock-pools.html",
        "next": "https://coast.example/tide-pools/species/",
    }
    assert "[anemones](https://coast.example/tide-pools/species.md#anemones)" in body
    for chrome in ("Dark mode", "On this page", "© 2026", "analytics", "Internal editor note"):
        assert all(chrome not in b for _, b in outputs.views.values()), chrome
    assert "404.md" not in _snapshot(site)
    after = _snapshot(site)
    for name, data in before.items():  # HTML changed only by our tags in <head>
        if name.endswith(".html") and name != "404.html":
            assert data != after[name]
            assert after[name].replace(data, b"") == b"" or _same_without_links(data, after[name])
        else:
            assert after[name] == data, name


def _same_without_links(old: bytes, new: bytes) -> bool:
    """``new`` is ``old`` with one block of our tags inserted just before ``</head>`` and
    the hint for agents at the top of the body."""
    assert new.count(HINT_MARKER.encode()) == 1
    new = without_hint(new)
    at = old.index(b"</head>")
    inserted = new[at : len(new) - (len(old) - at)]
    ours = (b"<link rel=", b'<script type="application/ld+json">', b'<meta property="',
            b"<!-- agentprose: head -->", b"<!-- /agentprose: head -->")
    return (new[:at] == old[:at] and new.endswith(old[at:])
            and all(line.startswith(ours) for line in inserted.strip().split(b"\n"))
            and html.fromstring(new).find("body") is not None)


def test_second_run_gives_the_same_bytes(site: Path) -> None:
    assert main(["build", str(site), "--base-url", BASE, "--quiet"]) == 0
    first = _snapshot(site)
    assert main(["build", str(site), "--base-url", BASE, "--quiet"]) == 0
    second = _snapshot(site)
    # Every byte: the second run reads the pages as the site's build wrote them (not
    # the JSON-LD the first run added, which changed the site's description), and the
    # pages keep their times (without git, they date the views).
    assert second == first


def test_a_run_with_another_base_url_leaves_none_of_the_first(site: Path) -> None:
    from agentprose_core.render.decorate import without_injected

    original = _snapshot(site)
    assert main(["build", str(site), "--base-url", BASE, "--quiet"]) == 0
    assert main(["build", str(site), "--base-url", "https://moved.example/docs/",
                 "--quiet"]) == 0
    for name, data in _snapshot(site).items():
        if name.endswith(".html"):  # the site's own bytes, and one block of ours
            assert without_injected(data) == original[name], name
            ours = data.partition(b"<!-- agentprose: head -->")[2].partition(b"<!-- /")[0]
            assert b"coast.example/" not in ours, name
            assert (b"moved.example" in ours) == (name != "404.html"), name  # no view
    assert "coast.example" not in (site / "llms.txt").read_text(encoding="utf-8")


def test_dry_run_writes_nothing(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(site)
    assert main(["build", str(site), "--base-url", BASE, "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "would write tide-pools.md" in out
    assert "would write agentprose.json" in out
    assert _snapshot(site) == before


def test_excluded_pages_get_no_view_and_no_discovery_link(site: Path) -> None:
    assert main(["build", str(site), "--base-url", BASE, "--exclude", "about/*"]) == 0
    outputs = check_site(site, BASE, expect_pages=4)
    assert "about.md" not in outputs.views
    assert b"text/markdown" not in (site / "about" / "index.html").read_bytes()


def test_sub_path_site(site: Path) -> None:
    base = "https://example.org/guides/coast/"
    assert main(["build", str(site), "--base-url", base.rstrip("/")]) == 0
    outputs = check_site(site, base, expect_pages=5)
    assert "index.md" in outputs.views


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["build", "/nonexistent/site", "--base-url", BASE], "No such directory"),
        (["build", "{site}", "--base-url", "coast.example"], "must be absolute"),
        (["build", "{empty}", "--base-url", BASE], "No HTML pages"),
        (["build", "{site}", "--base-url", BASE, "--content-selector", "main[["],
         "content_selector"),
    ],
)
def test_bad_input_is_a_clear_error(
    site: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / "empty").mkdir()
    args = [a.format(site=site, empty=tmp_path / "empty") for a in args]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("agentprose: error: ")
    assert message in err
    assert "Traceback" not in err


def test_console_script_runs(site: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "agentprose_core.cli", "build", str(site), "--base-url", BASE],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "5 pages" in done.stdout


def test_find_pages_stays_inside_the_site(tmp_path: Path) -> None:
    from agentprose_core.extract.builtsite import find_pages

    site, outside = tmp_path / "site", tmp_path / "outside"
    for name in ("index.html", "a/index.html", "a/b/c.html", "a/notes.htm", "d.html/e.html",
                 "drafts/x.html", ".hidden/h.html"):
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text("x")
    (outside / "folder").mkdir(parents=True)
    (outside / "folder" / "f.html").write_text("x")
    (outside / "o.html").write_text("x")
    (site / "alias.html").symlink_to(site / "a" / "b" / "c.html")  # inside: kept
    (site / "leak.html").symlink_to(outside / "o.html")  # outside: skipped
    (site / "linked").symlink_to(outside / "folder")  # a symlinked folder: not entered
    (site / "broken.html").symlink_to(site / "gone.html")
    assert find_pages(site, ["drafts/*"]) == [
        "index.html", ".hidden/h.html", "a/index.html", "a/b/c.html", "alias.html",
        "d.html/e.html",
    ]


def test_source_of_maps_mkdocs_layouts(tmp_path: Path) -> None:
    from agentprose_core.extract.builtsite import source_of

    for name in ("index.md", "a/b.md", "c/index.md", "d/README.md", "e.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    assert source_of("index.html", tmp_path) == tmp_path / "index.md"
    assert source_of("a/b/index.html", tmp_path) == tmp_path / "a/b.md"
    assert source_of("c/index.html", tmp_path) == tmp_path / "c/index.md"
    assert source_of("d/index.html", tmp_path) == tmp_path / "d/README.md"
    assert source_of("e.html", tmp_path) == tmp_path / "e.md"
    assert source_of("missing/index.html", tmp_path) is None


def test_dates_from_the_sources_git_history(tmp_path: Path) -> None:
    from .sites import commit_all, write_tree

    root = tmp_path / "proj"
    write_tree(root, {
        "mkdocs.yml": "site_name: S\nsite_url: https://s.example/\nnav: [index.md, page.md]\n",
        "docs/index.md": "# Home\n\nHello.\n",
        "docs/page.md": "# Page\n\nText.\n",
    })
    commit_all(root, "one", "2024-01-02T03:04:05+00:00")
    (root / "docs/page.md").write_text("# Page\n\nNew text.\n")
    commit_all(root, "two", "2025-03-04T05:06:07+00:00")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    site = root / "site"
    assert main(["build", str(site), "--base-url", "https://s.example/", "--source",
                 str(root / "docs")]) == 0
    outputs = check_site(site, "https://s.example/")
    assert outputs.views["index.md"][0]["modified"] == "2024-01-02T03:04:05Z"
    assert outputs.views["page.md"][0]["modified"] == "2025-03-04T05:06:07Z"


def test_caps_on_index_and_llms_full(site: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    result = build_site(site, base_url=BASE, settings=Settings(index_max_bytes=2000,
                                                               llms_full_max_bytes=900))
    codes = {d.code for d in result.diagnostics}
    assert {"index-cut", "llms-full-cut"} <= codes
    outputs = check_site(site, BASE, expect_pages=5, full_complete=False)
    assert all("markdown" not in post for post in outputs.index["posts"])
    full = (site / "llms-full.txt").read_text(encoding="utf-8")
    assert len(full.encode()) <= 900 + 200
    assert full.rstrip().endswith("llms.txt and agentprose.json list them all.")


def test_zensical_site_nav_order_and_dates(tmp_path: Path) -> None:
    """A site Zensical built (it ignores MkDocs plugins): `agentprose build` reads the
    rendered navigation for order and sections, and dates from the sources with --source."""
    root = zensical_site(tmp_path / "proj")
    site = root / "site"
    base = "https://docs.example.org/proj/"
    assert main(["build", str(site), "--base-url", base, "--source", str(root / "docs")]) == 0
    outputs = check_site(site, base)
    posts = outputs.index["posts"]
    assert [p["url"] for p in posts[:4]] == [base, base + "code/", base + "admonitions/",
                                            base + "reference/tables/"]
    assert posts[3]["section"] == ["Reference"]
    assert posts[1]["prev"] == base
    assert posts[1]["next"] == base + "admonitions/"
    assert all(p["modified"] == "2024-05-06T07:08:09Z" for p in posts)


def zensical_site(root: Path) -> Path:
    """The fixtures' MkDocs sources in ``root``, committed, built by Zensical into
    ``root / "site"``."""
    from .sites import commit_all

    shutil.copytree(Path(__file__).parent / "fixtures" / "sources" / "mkdocs", root)
    commit_all(root, "docs", "2024-05-06T07:08:09+00:00")
    done = subprocess.run([_zensical(), "build"], cwd=root, capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return root


def _zensical() -> str:
    import shutil as _shutil

    found = _shutil.which("zensical", path=str(Path(sys.executable).parent))
    if found is None:  # the test extra installs it; only a hand-made venv may lack it
        if os.environ.get("CI") == "true":
            pytest.fail("zensical is not installed, but the test extra should install it")
        pytest.skip("zensical is not installed")
    return found


def test_source_gives_what_the_mkdocs_plugin_gives(tmp_path: Path) -> None:
    """The same sources, built by MkDocs with the plugin and by Zensical then
    ``agentprose build --source``: the same front matter and code languages (the
    theme drops them from the HTML), and a page left out by its front matter."""
    from .sites import commit_all, write_tree

    root = tmp_path / "proj"
    shutil.copytree(Path(__file__).parent / "fixtures" / "sources" / "mkdocs", root)
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    for old, new in (("hooks:\n  - hooks/dump.py\n", ""),  # a hook of the fixtures' own
                     ("pygments_lang_class: true", "pygments_lang_class: false"),
                     ("      - reference/tables.md\n",
                      "      - reference/tables.md\n  - Notes: notes.md\n")):
        assert old in config
        config = config.replace(old, new)
    config += "plugins:\n  - search\n  - agentprose\n"
    base = "https://docs.example.org/proj/"
    write_tree(root, {
        "mkdocs.yml": config,
        "docs/notes.md": "---\ntitle: Field notes\ndate: 2025-06-02\nauthors: [Ana Ruiz]\n"
                         "modified: 2025-07-01\n---\n\n# Notes\n\nSee [the draft](draft.md).\n"
                         "\n```toml\n[tide]\nlevel = 1\n```\n",
        "docs/draft.md": "---\nagentprose: false\n---\n\n# Draft\n\nNot yet.\n",
    })
    commit_all(root, "docs", "2024-05-06T07:08:09+00:00")
    plugin = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", "by-mkdocs"],
                            cwd=root, capture_output=True, text=True, check=False)
    assert plugin.returncode == 0, plugin.stderr
    zensical = subprocess.run([_zensical(), "build"], cwd=root, capture_output=True, text=True,
                              check=False)
    assert zensical.returncode == 0, zensical.stderr
    assert main(["build", str(root / "site"), "--base-url", base, "--source",
                 str(root / "docs"), "--quiet"]) == 0
    by_plugin = check_site(root / "by-mkdocs", base)
    by_cli = check_site(root / "site", base)
    assert "draft.md" not in by_cli.views
    assert "draft.md" not in by_plugin.views
    assert sorted(by_cli.views) == sorted(by_plugin.views)
    fields = ("title", "modified", "published", "author")
    for name, (front, body) in by_plugin.views.items():
        cli_front, cli_body = by_cli.views[name]
        assert {k: front.get(k) for k in fields} == {k: cli_front.get(k) for k in fields}, name
        fences = [line for line in body.splitlines() if line.startswith("```") and line != "```"]
        cli_fences = [line for line in cli_body.splitlines()
                      if line.startswith("```") and line != "```"]
        assert cli_fences == fences, name
    notes = by_cli.views["notes.md"]
    assert notes[0]["title"] == "Field notes"
    assert notes[0]["author"] == "Ana Ruiz"
    assert "```toml" in notes[1]
    assert "See the draft." in notes[1]


def test_config_command_prints_the_generated_block(capsys: pytest.CaptureFixture[str]) -> None:
    from agentprose_core.hosting.servers import caddy_config, nginx_config

    assert main(["config", "nginx", "--root", "/srv/site", "--base-path", "/docs/"]) == 0
    assert capsys.readouterr().out == nginx_config("/srv/site", base_path="/docs/")
    assert main(["config", "caddy", "--root", "/srv/site"]) == 0
    assert capsys.readouterr().out == caddy_config("/srv/site")


def test_config_command_finds_the_llms_txt_files(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from agentprose_core.hosting.servers import caddy_config, nginx_config

    for folder in ("", "guide/", "guide/api/", ".cache/"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        (tmp_path / folder / "llms.txt").write_text("# x\n", encoding="utf-8")
    root = str(tmp_path)
    assert main(["config", "nginx", "--root", root, "--detect-agents"]) == 0
    assert capsys.readouterr().out == nginx_config(
        root, llms_scopes=("", "guide/", "guide/api/"), index=False, detect_agents=True)
    (tmp_path / "agentprose.json").write_text("{}", encoding="utf-8")
    assert main(["config", "caddy", "--root", root]) == 0
    out = capsys.readouterr().out
    assert out == caddy_config(root, llms_scopes=("", "guide/", "guide/api/"))
    assert "/guide/api/llms.txt" in out
    assert ".cache" not in out


@pytest.mark.parametrize(("host", "name"), [("netlify", "_headers"), ("cloudflare", "_headers"),
                                            ("apache", ".htaccess")])
def test_host_setting_writes_the_hosts_file(site: Path, host: str, name: str) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.hosting.servers import host_files
    from agentprose_core.settings import Settings
    from agentprose_core.viewsize import view_size

    result = build_site(site, base_url=BASE, settings=Settings(host=host))
    assert name in result.files
    views = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.md"))
    tokens = {view: view_size((site / view).read_text(encoding="utf-8")).tokens
              for view in views}
    written = (site / name).read_text()
    # The build passes the folders it wrote an llms.txt into (the root and the section's),
    # and each view's estimated tokens.
    assert written == host_files(host, views=views, llms_scopes=("", "tide-pools/"),
                                 tokens=tokens)[name]
    assert "/tide-pools/llms.txt" in written


def test_unicode_spaces_and_foreign_canonical(site: Path) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    page = (site / "rock-pools.html").read_text(encoding="utf-8")
    page = page.replace("<head>", '<head>\n<link rel="canonical" href="https://evil.example/x">')
    (site / "café notes.html").write_text(page.replace("Rock pools", "Café notes"),
                                          encoding="utf-8")
    result = build_site(site, base_url=BASE, settings=Settings())
    outputs = check_site(site, BASE, expect_pages=6)
    assert "café notes.md" in outputs.views
    front = outputs.views["café notes.md"][0]
    assert front["canonical"] == BASE + "caf%C3%A9%20notes.html"
    assert any(d.code == "foreign-canonical" for d in result.diagnostics)
    assert "evil.example" not in (site / "agentprose.json").read_text(encoding="utf-8")


def test_a_page_and_a_folder_of_one_name_each_get_a_view(site: Path) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    page = (site / "rock-pools.html").read_text(encoding="utf-8")
    (site / "changes").mkdir()
    (site / "changes.html").write_text(page.replace("Rock pools", "Changes page"),
                                       encoding="utf-8")
    (site / "changes" / "index.html").write_text(page.replace("Rock pools", "Changes folder"),
                                                 encoding="utf-8")
    result = build_site(site, base_url=BASE, settings=Settings())
    outputs = check_site(site, BASE, expect_pages=7)
    assert "Changes page" in outputs.views["changes.md"][0]["title"]
    assert "Changes folder" in outputs.views["changes/index.md"][0]["title"]
    (note,) = [d for d in result.diagnostics if d.code == "view-collision"]
    assert "changes/ and " in note.message
    assert "changes/index.md instead" in note.message


def test_index_cap_keeps_the_bodies_up_to_its_size(site: Path, tmp_path: Path) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    whole = tmp_path / "whole"
    shutil.copytree(site, whole)
    build_site(whole, base_url=BASE, settings=Settings())
    size = (whole / "agentprose.json").stat().st_size
    for limit, kept in ((size, True), (size - 1, False)):
        copy = tmp_path / str(limit)
        shutil.copytree(site, copy)
        result = build_site(copy, base_url=BASE, settings=Settings(index_max_bytes=limit))
        assert ("index-cut" not in {d.code for d in result.diagnostics}) is kept
        index = (copy / "agentprose.json").read_bytes()
        assert (index == (whole / "agentprose.json").read_bytes()) is kept


def _many_pages(root: Path, count: int = 50) -> Path:
    site = root / "site"
    for number in range(count):
        page = site / f"p{number}" / "index.html"
        page.parent.mkdir(parents=True)
        page.write_text(f"<html><head><title>P{number}</title></head><body><main>"
                        f"<h1>P{number}</h1><p>Text {number}.</p></main></body></html>")
    return site


@pytest.mark.parametrize("workers", [False, True], ids=["in-process", "workers"])
def test_progress_is_told_of_each_page_as_it_is_read_then_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: bool,
) -> None:
    from agentprose_core.build.postbuild import build_site
    from agentprose_core.settings import Settings

    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # workers even on one CPU
    site = _many_pages(tmp_path)
    calls: list[tuple[str, int, int]] = []
    views_then: list[int] = []

    def progress(stage: str, done: int, total: int) -> None:
        calls.append((stage, done, total))
        views_then.append(sum(1 for _ in site.glob("p*.md")))

    build_site(site, base_url=BASE, settings=Settings(workers=workers), progress=progress)
    assert calls == [("read", n, 50) for n in range(1, 51)] + [
        ("written", n, 50) for n in range(1, 51)]
    assert views_then[:50] == [0] * 50  # told while reading, before any view is written
    written = views_then[50:]
    assert all(views >= done for views, (_, done, _) in zip(written, calls[50:], strict=True))
    if not workers:
        assert written == list(range(1, 51))  # told as each view is written


def test_progress_bar_only_on_a_terminal_for_a_large_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    site = _many_pages(tmp_path)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr("agentprose_core.cli._DRAW_EVERY", 0)  # draw at every page
    assert main(["build", str(site), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    for drawn in ("1/50 pages read", "\r[###############...............] 25/50 pages read",
                  "50/50 pages read\n", "\r[.", "1/50 pages written", "50/50 pages written\n"):
        assert drawn in err, drawn
    assert main(["build", str(site), "--base-url", BASE, "--exclude", "p4*"]) == 0
    assert "\r[" not in capsys.readouterr().err  # 39 pages left: no bar
    assert main(["build", str(site), "--base-url", BASE, "--quiet"]) == 0
    assert "\r[" not in capsys.readouterr().err


def test_the_bar_draws_at_most_every_tenth_of_a_second_and_at_the_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from agentprose_core.cli import _Bar

    times = iter([0.0, 0.01, 0.05, 0.1, 0.15, 0.21, 0.22])
    bar = _Bar(clock=lambda: next(times))
    for done in range(1, 8):
        bar("read", done, 7)
    err = capsys.readouterr().err
    assert re.findall(r"(\d+)/7 pages read", err) == ["1", "4", "6", "7"]
    assert err.endswith("7/7 pages read\n")
    assert err.count("\n") == 1


def _bare_page(title: str, prev: str | None, next_: str | None) -> str:
    links = "".join(f'<link rel="{rel}" href="{href}">'
                    for rel, href in (("prev", prev), ("next", next_)) if href)
    return (f"<!DOCTYPE html><html><head><title>Shore</title>{links}</head><body>"
            '<div class="header"><a href="index.html">Shore</a> <a href="b.html">B</a></div>'
            f'<div class="page"><h1>{title}</h1><p>About {title.lower()}.</p></div></body></html>')


def test_a_theme_without_a_content_container_warns_once_and_links_set_the_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 39: no <main>/<article> (a custom Sphinx theme); reading order from the
    # pages' own <link rel="prev|next">, not the alphabet; reST sources date the pages;
    # a theme template copied into the site is not a page.
    from .sites import commit_all, write_tree

    root = tmp_path / "proj"
    write_tree(root, {
        "docs/index.rst": "Shore\n=====\n", "docs/b.rst": "B\n=\n", "docs/a.txt": "A\n=\n",
        "site/index.html": _bare_page("Shore", None, "b.html"),
        "site/b.html": _bare_page("Breakers", "index.html", "a.html"),
        "site/a.html": _bare_page("Anemones", "b.html", None),
        "site/theme/main.html": '{% extends "base.html" %}\n{% block content %}{% endblock %}\n',
    })
    commit_all(root, "one", "2024-01-02T03:04:05+00:00")
    (root / "docs/a.txt").write_text("A\n=\n\nMore.\n")
    commit_all(root, "two", "2025-03-04T05:06:07+00:00")
    assert main(["build", str(root / "site"), "--base-url", BASE, "--source",
                 str(root / "docs")]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, warnings
    assert "3 of 3 pages have no known content container" in warnings[0]
    assert "[content-fallback]" in warnings[0]
    outputs = check_site(root / "site", BASE, expect_pages=3)
    assert [post["title"] for post in outputs.index["posts"]] == ["Shore", "Breakers",
                                                                  "Anemones"]
    assert outputs.views["b.md"][0]["prev"] == BASE
    assert outputs.views["b.md"][0]["next"] == BASE + "a.html"
    assert outputs.views["a.md"][0]["modified"] == "2025-03-04T05:06:07Z"
    assert outputs.views["b.md"][0]["modified"] == "2024-01-02T03:04:05Z"
    assert not (root / "site/theme/main.md").exists()


def test_another_tools_llms_txt_is_replaced_with_a_warning(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 39: Zensical's llms.txt module ran before agentprose build
    (site / "llms.txt").write_text("# Coast\n\n- [Home](https://coast.example/index.md)\n")
    assert main(["build", str(site), "--base-url", BASE]) == 0
    err = capsys.readouterr().err
    assert "[llms-txt-conflict]" in err
    assert "already has llms.txt" in err
    check_site(site, BASE)
    assert main(["build", str(site), "--base-url", BASE]) == 0  # our own, the second time
    assert "llms-txt-conflict" not in capsys.readouterr().err
