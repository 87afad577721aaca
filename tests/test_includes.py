"""The files a Markdown page includes, for its date."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentprose_core.records.includes import included_files, search_dirs

from .sites import write_tree

if TYPE_CHECKING:
    from pathlib import Path


def test_every_include_syntax_resolves_where_its_tool_looks(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "docs/guide/page.md": "",
        "docs/guide/near.md": "beside the page",
        "docs/shared.md": "in docs",
        "snippets/a.py": "print()",
        "CHANGES.md": "changes",
        "examples/app.py": "app",
    })
    markdown = (
        '--8<-- "a.py:2:3"\n'
        "> --8<-- 'shared.md'\n"
        "--8<--\nCHANGES.md\n; a comment\n--8<--\n"
        '{% include-markdown "near.md" %}\n'
        "{! examples/app.py !}\n{* examples/app.py hl[3] *}\n"
        '--8<-- "https://example.com/x.md"\n--8<-- "missing.md"\n{% include "*.md" %}\n'
    )
    found = included_files(markdown, page_file=tmp_path / "docs/guide/page.md",
                           docs_dir=tmp_path / "docs",
                           search=search_dirs(["snippets"], config_dir=tmp_path))
    names = [path.relative_to(tmp_path.resolve()).as_posix() for path in found]
    assert names == ["snippets/a.py", "docs/shared.md", "CHANGES.md", "docs/guide/near.md",
                     "examples/app.py"]


def test_a_page_without_includes_costs_no_lookup(tmp_path: Path) -> None:
    assert included_files("# Title\n\nText with {curly} and -- dashes.\n", page_file=None,
                          docs_dir=tmp_path / "nowhere") == ()


def test_search_dirs_take_a_string_a_list_or_nothing(tmp_path: Path) -> None:
    assert search_dirs(".", config_dir=tmp_path) == (tmp_path,)
    assert search_dirs(["a", 3], config_dir=tmp_path) == (tmp_path / "a", tmp_path)
    assert search_dirs(None, config_dir=tmp_path) == (tmp_path,)


def test_autosummary_tables_name_the_modules_they_summarize(tmp_path: Path) -> None:
    from agentprose_core.records.includes import summarized_modules

    (tmp_path / "pkg").mkdir()
    for name in ("pkg/__init__.py", "pkg/mod.py", "pkg/other.py"):
        (tmp_path / name).write_text("")
    text = (".. currentmodule:: pkg\n\n.. autosummary::\n   :toctree: generated\n\n"
            "   mod.f\n   ~pkg.other.g\n   attr.h\n\nAfter the table: pkg.nothing\n")
    # attr.h: no module of that name, so an attribute of the current module, pkg
    assert summarized_modules(text, folders=[tmp_path]) == (
        (tmp_path / "pkg/mod.py").resolve(), (tmp_path / "pkg/other.py").resolve(),
        (tmp_path / "pkg/__init__.py").resolve())
    assert summarized_modules("No table.", folders=[tmp_path]) == ()
