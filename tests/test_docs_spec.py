"""docs/formats.md, the published specification, keeps up with the code: every rule
`agentprose check` can report is in its table with the right level, and the front
matter keys, the index's keys and the view URL layouts it shows are the ones written.

The rules are taken from the checker itself: its registry, and every rule id its
modules report (found in their source), so a rule added without a line on the page
fails here.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

# The checker's modules and what the page must match. Their paths move with the core's
# layout: change them here only.
from agentprose_core.check import checker as check
from agentprose_core.check import http as checks_http
from agentprose_core.check import report as check_report
from agentprose_core.check import roundtrip as check_roundtrip
from agentprose_core.check import rules as check_rules
from agentprose_core.check.report import RULES
from agentprose_core.model import PageRecord
from agentprose_core.reading import text as check_text
from agentprose_core.render.index import load_schema
from agentprose_core.render.view import render_front_matter
from agentprose_core.settings import VIEW_LAYOUTS
from agentprose_core.urls import view_url

if TYPE_CHECKING:
    from types import ModuleType

CHECKER_MODULES: tuple[ModuleType, ...] = (
    check, check_report, check_roundtrip, check_rules, check_text, checks_http,
)
FORMATS = Path(__file__).parent.parent / "docs" / "formats.md"
TEXT = FORMATS.read_text(encoding="utf-8")

_RULE_ID = re.compile(r"[a-z]+(?:-[a-z]+)+")
# `report.add("rule", …)`, `check.add("rule", …)`, `check.missing("rule", …)`
_REPORTING_METHODS = frozenset({"add", "missing"})
_RULE_ROW = re.compile(r"^\| `(?P<rule>[a-z-]+)` \| (?P<level>error|warning) \| .+ \|$",
                       re.MULTILINE)


def _rule_literal(node: ast.AST) -> str | None:
    """The rule id a node of the checker's source names, if it names one: the first
    argument of a reporting call, or the first item of a finding tuple such as
    ``("front-matter", 1, "…")``."""
    first: ast.AST | None = None
    if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
        if node.func.attr in _REPORTING_METHODS:
            first = node.args[0]
    elif isinstance(node, ast.Tuple) and len(node.elts) in (2, 3):
        first = node.elts[0]
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value if _RULE_ID.fullmatch(first.value) else None
    return None


def reported_rules() -> set[str]:
    """Every rule id the checker's modules name where they report a problem."""
    found: set[str] = set()
    for module in CHECKER_MODULES:
        tree = ast.parse(inspect.getsource(module))
        found.update(rule for node in ast.walk(tree) if (rule := _rule_literal(node)))
    return found


def documented_rules() -> dict[str, str]:
    """Rule id -> level, from the tables of "What agentprose check verifies"."""
    section = TEXT.split("## What `agentprose check` verifies", 1)[1].split("\n## ", 1)[0]
    rows = [(match["rule"], match["level"]) for match in _RULE_ROW.finditer(section)]
    documented = dict(rows)
    assert len(documented) == len(rows), "a rule is documented twice"
    return documented


def test_the_scan_finds_every_registered_rule() -> None:
    # If this fails, a rule is reported in a way the scan does not know: teach it, so
    # that the next test sees every rule.
    assert reported_rules() >= set(RULES)


def test_every_reported_rule_is_registered() -> None:
    assert reported_rules() <= set(RULES)


def test_every_rule_is_documented_with_its_level() -> None:
    documented = documented_rules()
    rules = set(RULES) | reported_rules()
    assert sorted(rules - set(documented)) == [], "rules missing from docs/formats.md"
    assert sorted(set(documented) - rules) == [], "docs/formats.md lists rules that do not exist"
    wrong = {rule: level for rule, level in documented.items() if RULES[rule].level != level}
    assert wrong == {}, "levels in docs/formats.md differ from the checker's"


def _code(cell: str) -> str:
    """The first code span of a table cell: "`/` (site root)" -> "/"."""
    found = re.search(r"`([^`]+)`", cell)
    assert found is not None, cell
    return found[1]


def _table_after(heading: str) -> list[list[str]]:
    """The cells of the first table after ``heading``, header and divider left out."""
    section = TEXT.split(heading + "\n", 1)[1]
    lines = section.split("\n\n|", 1)[1].split("\n\n", 1)[0].splitlines()
    rows = ["|" + lines[0], *lines[1:]]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[2:]]


def test_front_matter_fields_are_the_ones_written_in_their_order() -> None:
    record = PageRecord(
        url="https://x.example/a/", markdown_url="https://x.example/a.md", title="A",
        modified="2026-03-14T10:30:00Z", published="2025-06-02T08:00:00Z",
        authors=("Ana",), lang="en", prev="https://x.example/", next="https://x.example/b/",
        version="2.0", latest="https://x.example/latest/a/",
        translations=(("fr", "https://x.example/fr/a/"),),
    )
    written = [line.split(":", 1)[0] for line in render_front_matter(record).splitlines()[1:-1]
               if not line.startswith(" ")]
    documented = [_code(row[0]) for row in _table_after("### Front matter")]
    assert documented == written == list(check_text.FRONT_MATTER_KEYS)


def test_every_key_of_the_index_schema_is_documented() -> None:
    schema = load_schema()
    keys = set(schema["properties"])
    for name in ("site", "post", "heading"):
        keys |= set(schema["$defs"][name]["properties"])
    section = TEXT.split("## `agentprose.json`", 1)[1].split("\n## ", 1)[0]
    assert sorted(key for key in keys if f"`{key}`" not in section) == []


@pytest.mark.parametrize("row", _table_after("### View URLs"), ids=lambda row: row[0])
def test_view_url_layouts_are_the_ones_written(row: list[str]) -> None:
    base = "https://x.example/"
    page = _code(row[0])
    assert len(row) == 1 + len(VIEW_LAYOUTS)
    for layout, cell in zip(VIEW_LAYOUTS, row[1:], strict=True):
        written = view_url(base.rstrip("/") + page, base, layout)
        assert written == base.rstrip("/") + _code(cell), layout


def test_view_url_table_names_every_layout() -> None:
    header = TEXT.split("### View URLs", 1)[1].split("\n| page URL |", 1)[1].split("\n", 1)[0]
    assert [_code(cell) for cell in header.strip(" |").split("|")] == list(VIEW_LAYOUTS)
