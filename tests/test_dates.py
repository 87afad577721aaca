"""Times in the agent view's form, and one-pass git history."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import threading
from pathlib import Path

import pytest

from agentprose_core.records.dates import LastChanged, covering_folders, git_history, is_shallow
from agentprose_core.timefmt import to_utc_iso


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2025-06-02", "2025-06-02T00:00:00Z"),
        (dt.date(2025, 6, 2), "2025-06-02T00:00:00Z"),
        ("2026-03-14T10:30:00Z", "2026-03-14T10:30:00Z"),
        ("2026-03-14T12:30:00+02:00", "2026-03-14T10:30:00Z"),
        ("2026-03-14 10:30", "2026-03-14T10:30:00Z"),
        (dt.datetime(2026, 3, 14, 10, 30, tzinfo=dt.UTC), "2026-03-14T10:30:00Z"),
        (0, "1970-01-01T00:00:00Z"),
        ("Jan 01, 2022", "2022-01-01T00:00:00Z"),  # ablog's default format
        ("March 14, 2026 10:30:00", "2026-03-14T10:30:00Z"),
        ("14 Sept 2021", "2021-09-14T00:00:00Z"),
        ("Feb 30, 2020", None),
        ("Foo 3, 2020", None),
        ("not a date", None),
        (True, None),
        (None, None),
        ({"created": 1}, None),
    ],
)
def test_to_utc_iso(value: object, expected: str | None) -> None:
    assert to_utc_iso(value) == expected


def _git(repo: Path, *args: str, when: str | None = None) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.org",
               GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.org")
    if when:
        env.update(GIT_AUTHOR_DATE=when, GIT_COMMITTER_DATE=when)
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def test_git_history_in_one_pass(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("a")
    (docs / "b.md").write_text("b")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (docs / "b.md").write_text("b2")
    _git(tmp_path, "commit", "-qam", "two", when="2025-02-03T04:05:06+02:00")
    found = git_history(docs)
    assert found is not None
    root, history = found
    assert root.resolve() == tmp_path.resolve()
    assert history["docs/a.md"] == "2024-01-02T03:04:05Z"
    assert history["docs/b.md"] == "2025-02-03T02:05:06Z"
    assert not is_shallow(docs)


def test_no_git_repository(tmp_path: Path) -> None:
    assert git_history(tmp_path) is None


def test_history_kept_in_the_cache_until_head_moves(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("a")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    cache = tmp_path / "cache"
    assert LastChanged(docs, cache).of(docs / "a.md") == "2024-01-02T03:04:05Z"
    (stored,) = cache.glob("git-history-*.json")
    stored.write_text('{"docs/a.md": "2000-01-01T00:00:00Z"}')  # read, not recomputed
    assert LastChanged(docs, cache).of(docs / "a.md") == "2000-01-01T00:00:00Z"
    (docs / "a.md").write_text("a2")
    _git(tmp_path, "commit", "-qam", "two", when="2025-02-03T04:05:06+00:00")
    assert LastChanged(docs, cache).of(docs / "a.md") == "2025-02-03T04:05:06Z"
    assert len(list(cache.glob("git-history-*.json"))) == 1  # the old HEAD's is gone


def test_a_repository_without_commits_dates_from_files(tmp_path: Path) -> None:
    _git(tmp_path, "init", "-q")
    (tmp_path / "a.md").write_text("a")
    dates = LastChanged(tmp_path, tmp_path / "cache")
    assert dates.of(tmp_path / "a.md").endswith("Z")
    assert [note.code for note in dates.notes()] == ["no-git"]


def test_files_outside_the_docs_folder_date_from_git(tmp_path: Path) -> None:
    # autodoc modules in src/, an included ../CHANGES.rst: tracked, so never their mtime
    _git(tmp_path, "init", "-q")
    (tmp_path / "docs").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "docs" / "api.rst").write_text("api")
    (tmp_path / "src" / "mod.py").write_text("x = 1")
    (tmp_path / "CHANGES.rst").write_text("changes")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (tmp_path / "src" / "mod.py").write_text("x = 2")
    _git(tmp_path, "commit", "-qam", "two", when="2025-02-03T04:05:06+00:00")
    (tmp_path / "generated.py").write_text("untracked")
    for cache in (None, tmp_path / "cache", tmp_path / "cache"):  # and from the cache
        dates = LastChanged(tmp_path / "docs", cache)
        assert dates.of(tmp_path / "docs" / "api.rst") == "2024-01-02T03:04:05Z"
        assert dates.of(tmp_path / "src" / "mod.py") == "2025-02-03T04:05:06Z"
        assert dates.of(tmp_path / "CHANGES.rst") == "2024-01-02T03:04:05Z"
        assert dates.notes() == []
        dates.of(tmp_path / "generated.py")
        (note,) = dates.notes()
        assert note.code == "no-git"
        assert "generated.py" in note.message
    assert len(list((tmp_path / "cache").glob("git-history-*.json"))) == 2  # docs, repository


def _docs_and_code(repo: Path, page: str, module: str) -> None:
    """A repository of docs/``page``, src/``module`` and other/late.py, in three commits:
    all (2024-01-02), ``module`` (2025-02-03), late.py (2025-03-04)."""
    _git(repo, "init", "-q")
    for folder in ("docs", "src", "other"):
        (repo / folder).mkdir()
    (repo / "docs" / page).write_text(f"::: {module.removesuffix('.py')}")
    (repo / "src" / module).write_text("x = 1")
    (repo / "other" / "late.py").write_text("late")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (repo / "src" / module).write_text("x = 2")
    _git(repo, "commit", "-qam", "two", when="2025-02-03T04:05:06+00:00")
    (repo / "other" / "late.py").write_text("later")
    _git(repo, "commit", "-qam", "three", when="2025-03-04T05:06:07+00:00")


def _git_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The git commands the dates module runs from now on, by name, in order."""
    from agentprose_core.records import dates as dates_module

    logs: list[str] = []
    real = dates_module._git
    monkeypatch.setattr(dates_module, "_git", lambda directory, *args: (
        logs.append(args[0]), real(directory, *args))[1])
    return logs


def test_expected_files_outside_the_docs_folder_join_its_one_git_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Sphinx knows every page's dependencies before writing: one path-limited pass then
    # dates them, not a pass over the docs and another over the whole repository.
    _docs_and_code(tmp_path, "api.rst", "mod [1].py")  # brackets: no glob
    logs = _git_calls(monkeypatch)
    passes = [["rev-parse", "log"], ["rev-parse", "log"], ["rev-parse"]]  # the last: cached
    for cache, expected in zip((None, tmp_path / "cache", tmp_path / "cache"), passes,
                               strict=True):
        logs.clear()
        dates = LastChanged(tmp_path / "docs", cache)
        dates.expect([tmp_path / "src" / "mod [1].py", tmp_path / "docs" / "api.rst",
                      Path("/usr/lib/python3/some.py")])  # outside the repository: ignored
        assert dates.head() is not None
        assert logs == ["rev-parse"]
        assert dates.of(tmp_path / "src" / "mod [1].py") == "2025-02-03T04:05:06Z"
        assert dates.of(tmp_path / "docs" / "api.rst") == "2024-01-02T03:04:05Z"
        assert logs == expected
        # A file nobody announced still gets its date, from the whole repository.
        assert dates.of(tmp_path / "other" / "late.py") == "2025-03-04T05:06:07Z"
        assert dates.latest() == "2025-03-04T05:06:07Z"


def test_files_found_in_the_background_join_the_one_git_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # MkDocs knows what its pages document only from their sources: start() reads them
    # in its thread, before the one pass, instead of a second pass when first asked.
    _docs_and_code(tmp_path, "api.md", "mod.py")
    logs = _git_calls(monkeypatch)
    asked: list[str] = []

    def expected() -> list[Path]:
        asked.append("expected")
        return [tmp_path / "src" / "mod.py"]

    dates = LastChanged(tmp_path / "docs")
    dates.start(expect=expected)
    assert dates.newest([tmp_path / "docs" / "api.md", tmp_path / "src" / "mod.py"]) == \
        "2025-02-03T04:05:06Z"
    assert (asked, logs) == (["expected"], ["rev-parse", "log"])
    assert dates.of(tmp_path / "other" / "late.py") == "2025-03-04T05:06:07Z"
    assert logs == ["rev-parse", "log", "log"]  # unannounced: the whole repository


@pytest.mark.parametrize(("files", "docs", "expected"), [
    # each file's folder, the folders inside another one left out
    (["src/pkg/app.py", "src/pkg/cli.py", "src/pkg/json/tag.py"], "docs",
     ("src/pkg",)),
    # files in the root, or in a folder that holds the docs, stay files
    (["CHANGES.rst", "LICENSE.txt"], "docs", ("CHANGES.rst", "LICENSE.txt")),
    (["project/README.md", "project/src/mod.py"], "project/docs",
     ("project/README.md", "project/src")),
    (["site/docs-extra/a.md"], "site/docs", ("site/docs-extra",)),
    # a folder whose name only begins like another's is not inside it
    (["src/a/x.py", "src/a-b/y.py", "src/a/b/z.py"], "docs", ("src/a", "src/a-b")),
    ([], "docs", ()),
])
def test_covering_folders(files: list[str], docs: str, expected: tuple[str, ...]) -> None:
    assert covering_folders(files, docs) == expected


def test_expected_files_date_their_folder_too(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # git log follows the expected modules' folder, not each module: the folder's
    # other files then have their true dates without a pass over the repository
    from agentprose_core.records import dates as dates_module

    _git(tmp_path, "init", "-q")
    for folder in ("docs", "src/pkg"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "docs" / "api.rst").write_text("api")
    (tmp_path / "src" / "pkg" / "a.py").write_text("a")
    (tmp_path / "src" / "pkg" / "b.py").write_text("b")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (tmp_path / "src" / "pkg" / "b.py").write_text("b2")
    _git(tmp_path, "commit", "-qam", "two", when="2025-02-03T04:05:06+00:00")
    logs = []
    real = dates_module._git
    monkeypatch.setattr(dates_module, "_git", lambda directory, *args: (
        logs.append(args), real(directory, *args))[1])
    dates = LastChanged(tmp_path / "docs")
    dates.expect([tmp_path / "src" / "pkg" / "a.py"])
    assert dates.of(tmp_path / "src" / "pkg" / "a.py") == "2024-01-02T03:04:05Z"
    assert dates.of(tmp_path / "src" / "pkg" / "b.py") == "2025-02-03T04:05:06Z"
    (log,) = [args for args in logs if args[0] == "log"]
    assert log[-2:] == (".", ":(top,literal)src/pkg")


def test_history_read_in_the_background_gives_the_same_dates(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # start(): the git log pass runs in a thread while the tool renders; the answers
    # are those of a pass run when the first date is asked
    from agentprose_core.records import dates as dates_module

    _git(tmp_path, "init", "-q")
    for folder in ("docs", "src"):
        (tmp_path / folder).mkdir()
    (tmp_path / "docs" / "a.md").write_text("a")
    (tmp_path / "src" / "m.py").write_text("m")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (tmp_path / "src" / "m.py").write_text("m2")
    _git(tmp_path, "commit", "-qam", "two", when="2025-02-03T04:05:06+00:00")
    read_in = []
    real = dates_module._history
    monkeypatch.setattr(dates_module, "_history", lambda directory, also=(): (
        read_in.append((threading.current_thread().name, also)),
        real(directory, also))[1])
    answers = []
    for started in (False, True):
        read_in.clear()
        dates = LastChanged(tmp_path / "docs")
        dates.expect([tmp_path / "src" / "m.py"])
        if started:
            dates.start()
            dates.start()  # once is enough
        answers.append((dates.head(), dates.of(tmp_path / "docs" / "a.md"),
                        dates.of(tmp_path / "src" / "m.py"), dates.latest(), dates.notes()))
        name = "agentprose-git-history" if started else threading.current_thread().name
        assert read_in == [(name, ("src",))]  # one pass, the expected folder in it
    assert answers[0] == answers[1]
    assert answers[1][1:4] == ("2024-01-02T03:04:05Z", "2025-02-03T04:05:06Z",
                               "2025-02-03T04:05:06Z")


def test_a_background_read_that_failed_fails_the_first_question(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agentprose_core.records import dates as dates_module

    _git(tmp_path, "init", "-q")
    (tmp_path / "a.md").write_text("a")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")

    def broken(directory: Path, also: tuple[str, ...] = ()) -> dict[str, str]:
        raise OSError("no room left")

    monkeypatch.setattr(dates_module, "_history", broken)
    dates = LastChanged(tmp_path)
    dates.start()
    with pytest.raises(OSError, match="no room left"):
        dates.of(tmp_path / "a.md")


def _git_threads() -> list[threading.Thread]:
    # by name: other tests' daemon threads (a worker pool's) may end meanwhile
    return [t for t in threading.enumerate() if t.name == "agentprose-git-history"]


def test_no_background_read_outside_git_or_once_asked(tmp_path: Path) -> None:
    dates = LastChanged(tmp_path)  # not a repository: file times, and no thread
    dates.start()
    assert _git_threads() == []
    (tmp_path / "a.md").write_text("a")
    assert dates.of(tmp_path / "a.md").endswith("Z")
    assert [note.code for note in dates.notes()] == ["no-git"]
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    asked = LastChanged(tmp_path)
    assert asked.of(tmp_path / "a.md") == "2024-01-02T03:04:05Z"
    asked.start()  # read already: nothing to start
    assert _git_threads() == []


def test_a_file_a_plugin_wrote_outside_the_repository_takes_its_newest_commit(
        tmp_path: Path) -> None:
    # Material's blog writes its archive pages into a temporary folder
    repo, elsewhere = tmp_path / "repo", tmp_path / "tmp"
    repo.mkdir()
    elsewhere.mkdir()
    _git(repo, "init", "-q")
    (repo / "a.md").write_text("a")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (elsewhere / "2021.md").write_text("archive")
    dates = LastChanged(repo)
    assert dates.of(elsewhere / "2021.md") == "2024-01-02T03:04:05Z"
    assert dates.notes() == []


def test_generated_and_installed_files_say_nothing_of_a_pages_date(tmp_path: Path) -> None:
    # sphinx-autodoc2 writes docs/apidocs (git-ignored) during the build; an autodoc
    # page also depends on modules in site-packages, installed at build time
    repo = tmp_path / "repo"
    (repo / "docs" / "apidocs").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / ".gitignore").write_text("docs/apidocs/\n")
    (repo / "docs" / "api.md").write_text("api")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    (repo / "docs" / "notes.md").write_text("notes")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "two", when="2025-02-03T04:05:06+00:00")
    (repo / "docs" / "apidocs" / "mod.md").write_text("generated")
    installed = tmp_path / "site-packages" / "dep.py"
    installed.parent.mkdir()
    installed.write_text("x = 1")
    dates = LastChanged(repo / "docs")
    assert dates.of(repo / "docs" / "apidocs" / "mod.md") == "2025-02-03T04:05:06Z"
    assert dates.newest([repo / "docs" / "api.md", installed]) == "2024-01-02T03:04:05Z"
    assert dates.newest([installed]) == "2025-02-03T04:05:06Z"
    assert dates.notes() == []


def test_a_file_a_merge_changed_takes_the_merges_time(tmp_path: Path) -> None:
    # issue 39: the same rule as `git log -1 -- path`: a merge that resolved a conflict
    # (the file differs from every parent) is the file's last change, not its parent.
    _git(tmp_path, "init", "-q", "-b", "main")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("base\n")
    (docs / "b.md").write_text("b\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base", when="2024-01-01T00:00:00+00:00")
    _git(tmp_path, "checkout", "-qb", "topic")
    (docs / "a.md").write_text("topic\n")
    (docs / "b.md").write_text("b from topic\n")
    _git(tmp_path, "commit", "-qam", "topic", when="2024-02-01T00:00:00+00:00")
    _git(tmp_path, "checkout", "-q", "main")
    (docs / "a.md").write_text("main\n")
    _git(tmp_path, "commit", "-qam", "main", when="2024-03-01T00:00:00+00:00")
    subprocess.run(["git", "merge", "-q", "topic"], cwd=tmp_path, capture_output=True,
                   check=False)  # a conflict, resolved below
    (docs / "a.md").write_text("resolved\n")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "merge", when="2024-03-01T00:00:05+00:00")
    found = git_history(docs)
    assert found is not None
    history = found[1]
    assert history["docs/a.md"] == "2024-03-01T00:00:05Z"  # resolved in the merge
    assert history["docs/b.md"] == "2024-02-01T00:00:00Z"  # taken from topic as it was
    for name in ("a.md", "b.md"):  # what `git log -1 -- path` says
        out = subprocess.run(["git", "log", "-1", "--format=%ct", "--", f"docs/{name}"],
                             cwd=tmp_path, capture_output=True, text=True, check=True)
        expected = dt.datetime.fromtimestamp(int(out.stdout), dt.UTC)
        assert history[f"docs/{name}"] == expected.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_docs_built_from_a_copy_outside_the_repository_date_from_the_sources(
    tmp_path: Path,
) -> None:
    # mkdocs-monorepo-plugin builds from a merged copy in a temporary folder; the pages'
    # sources are the repository's files (the config's folder is the fallback)
    repo = tmp_path / "repo"
    (repo / "docs").mkdir(parents=True)
    (repo / "docs" / "a.md").write_text("a")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "one", when="2024-01-02T03:04:05+00:00")
    copy = tmp_path / "merged"
    copy.mkdir()
    dates = LastChanged(copy, fallback=repo)
    assert dates.of(repo / "docs" / "a.md") == "2024-01-02T03:04:05Z"
    assert dates.notes() == []
