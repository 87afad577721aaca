"""Golden files: content HTML in, the exact Markdown we promise out.

Each ``tests/golden/**/NAME.html`` sits beside ``NAME.md``. Regenerate with
``make golden`` (pytest --regen-golden) and review the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.settings import Settings
from agentprose_core.urls import page_key

GOLDEN = Path(__file__).parent / "golden"
SITE = "https://docs.example.org/proj/"
PAGES = ("", "species/", "formats/", "guide/install/", "reference/tables/", "code/")
SITE_MAP = {page_key(SITE + p): (SITE + p).rstrip("/") + ".md" for p in PAGES if p}
SITE_MAP[page_key(SITE)] = SITE + "index.md"
CASES = sorted(GOLDEN.rglob("*.html"))


def _page_url(case: Path) -> str:
    return f"{SITE}{case.stem}/"


@pytest.mark.parametrize("case", CASES, ids=[str(c.relative_to(GOLDEN)) for c in CASES])
def test_golden(case: Path, regen_golden: bool) -> None:
    result = convert_fragment(
        case.read_text(encoding="utf-8"),
        page_url=_page_url(case),
        site_map=SITE_MAP,
        settings=Settings(),
    )
    expected = case.with_suffix(".md")
    if regen_golden or not expected.exists():
        expected.write_text(result.markdown, encoding="utf-8")
        if not regen_golden:
            pytest.fail(f"wrote missing golden file {expected.name}: review it")
    assert result.markdown == expected.read_text(encoding="utf-8")


def test_golden_cases_exist() -> None:
    assert len(CASES) >= 7
