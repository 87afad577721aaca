"""Page metadata with the types users really write, and the title rule."""

from __future__ import annotations

import datetime as dt

import pytest

from agentprose_core.convert.fragment import Conversion
from agentprose_core.model import Heading
from agentprose_core.records.metadata import opted_out, read_metadata
from agentprose_core.records.page import page_title


def test_metadata_values_are_cleaned_and_typed() -> None:
    facts = read_metadata({
        "title": "  Tide   pools ", "description": "Pools.", "authors": ["Ana", {"name": "Bo"}],
        "date": dt.date(2025, 6, 2), "updated": "2026-03-14T12:30:00+02:00",
        "tags": "ecology, shore", "image": "img/a.png",
    }, location="a.md")
    assert facts.title == "Tide pools"
    assert facts.authors == ("Ana", "Bo")
    assert facts.published == "2025-06-02T00:00:00Z"
    assert facts.modified == "2026-03-14T10:30:00Z"
    assert facts.tags == ("ecology", "shore")
    assert facts.diagnostics == ()


def test_material_blog_dates() -> None:
    facts = read_metadata({"date": {"created": "2024-01-31", "updated": "2024-02-01"}},
                          location="blog/posts/a.md")
    assert facts.published == "2024-01-31T00:00:00Z"
    assert facts.modified == "2024-02-01T00:00:00Z"


def test_wrong_types_are_reported_not_raised() -> None:
    facts = read_metadata({"title": ["a", "list"], "date": "soon", "modified": True,
                           "authors": {"lead": "Ana"}, "tags": 7}, location="b.md")
    assert facts.title is None
    assert facts.published is None
    assert facts.modified is None
    assert facts.authors == ("Ana",)
    assert facts.tags == ("7",)
    codes = {(d.code, d.location) for d in facts.diagnostics}
    assert codes == {("bad-metadata", "b.md")}
    assert len(facts.diagnostics) == 3


def test_switches() -> None:
    assert read_metadata({"agentprose": False}, location="x").excluded
    assert read_metadata({"draft": True}, location="x").draft
    assert not read_metadata(None, location="x").excluded


def _alias_bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join([*lines, f"tags: *a{levels - 1}", "title: Bomb"])


def test_a_yaml_alias_bomb_is_ignored_not_walked() -> None:
    import yaml

    meta = yaml.safe_load(_alias_bomb())  # nine levels: 387,420,489 strings if walked
    facts = read_metadata(meta, location="bomb.md")
    assert facts.title == "Bomb"
    assert facts.tags == ()
    (note,) = facts.diagnostics
    assert note.location == "bomb.md"
    assert "'a4'" in note.message
    assert "1 more" in note.message
    deep: list[object] = []
    for _ in range(40):
        deep = [deep]
    assert read_metadata({"authors": deep}, location="x").diagnostics
    assert read_metadata({"tags": ["a"] * 500}, location="x").tags == ("a",)


@pytest.mark.parametrize("template", ["redirect.html", "overrides/redirect.html", "redirect"])
def test_a_redirect_stub_gets_no_view(template: str) -> None:
    # Material's docs: ``template: redirect.html`` with ``location: getting-started/``
    meta = {"template": template, "location": "getting-started/"}
    assert read_metadata(meta, location="x").excluded
    assert opted_out(meta)
    assert not opted_out({"template": "home.html"})
    assert not opted_out({"template": "redirects-explained.html"})


def test_title_rule() -> None:
    conversion = Conversion(markdown="", headings=(Heading(2, "a", "Sub"), Heading(1, "b", "Page")))
    assert page_title(read_metadata({"title": "Meta"}, location="x"), conversion, "Nav") == "Meta"
    assert page_title(read_metadata({}, location="x"), conversion, "Home") == "Page"
    assert page_title(read_metadata({}, location="x"), Conversion("", ()), "Home") == "Home"


@pytest.mark.parametrize("switch", [None, True, False, "false", " No ", "off", "0", "yes", "x", 2])
@pytest.mark.parametrize("draft", [None, True, False, "true", "1", "no", "maybe"])
def test_opted_out_is_what_read_metadata_says_of_exclusion(switch: object, draft: object) -> None:
    meta = {key: value for key, value in (("agentprose", switch), ("draft", draft))
            if value is not None}
    facts = read_metadata(meta, location="page.md")
    assert opted_out(meta) == (facts.excluded or facts.draft)
    assert opted_out(meta) == (switch in (False, "false", " No ", "off", "0") or
                               draft in (True, "true", "1"))
