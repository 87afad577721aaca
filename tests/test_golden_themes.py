"""Golden files on real theme output: the content fragments that MkDocs hands to
``on_page_content`` and Sphinx to ``html-page-context``, from real builds of the
sites in tests/fixtures/sources (see tests/fixtures/README.md).

Expected Markdown lives in tests/golden/themes/<theme>/<page>.md; regenerate with
``make golden`` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.convert.rules.codeblocks import fences_of
from agentprose_core.settings import Settings
from agentprose_core.urls import page_key, view_url

FIXTURES = Path(__file__).parent / "fixtures"
FRAGMENTS = FIXTURES / "fragments"
EXPECTED = Path(__file__).parent / "golden" / "themes"
MKDOCS = "https://docs.example.org/proj/"
SPHINX = "https://docs.example.org/sphinxproj/"


def _page_url(theme: str, page: str) -> str:
    path = page.replace("-", "/") if page.startswith("reference-") else page
    path = path.replace("code/nolangclass", "code-nolangclass")
    if theme in ("material", "mkdocs"):
        return MKDOCS if page == "index" else f"{MKDOCS}{path}/"
    if theme == "readthedocs":
        return f"{MKDOCS}{path}.html"
    if theme == "furo-dirhtml":
        return SPHINX if page == "index" else f"{SPHINX}{path}/"
    return f"{SPHINX}{path}.html"


def _site_map(theme: str) -> dict[str, str]:
    base = SPHINX if theme in ("alabaster", "furo", "furo-dirhtml") else MKDOCS
    urls = [_page_url(theme, p.stem) for p in (FRAGMENTS / theme).glob("*.html")]
    return {page_key(url): view_url(url, base) for url in urls}


def _source_fences(theme: str, page: str) -> tuple[object, ...]:
    if theme not in ("material", "mkdocs", "readthedocs"):
        return ()
    name = {"code-nolangclass": "code", "reference-tables": "reference/tables"}.get(page, page)
    source = FIXTURES / "sources" / "mkdocs" / "docs" / f"{name}.md"
    return fences_of(source.read_text(encoding="utf-8"))


CASES = sorted(FRAGMENTS.glob("*/*.html"))


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.stem}" for c in CASES])
def test_theme_golden(case: Path, regen_golden: bool) -> None:
    theme, page = case.parent.name, case.stem
    result = convert_fragment(
        case.read_text(encoding="utf-8"),
        page_url=_page_url(theme, page),
        site_map=_site_map(theme),
        settings=Settings(),
        source_fences=_source_fences(theme, page),  # type: ignore[arg-type]
    )
    expected = EXPECTED / theme / f"{page}.md"
    if regen_golden or not expected.exists():
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(result.markdown, encoding="utf-8")
        if not regen_golden:
            pytest.fail(f"wrote missing golden file {expected}: review it")
    assert result.markdown == expected.read_text(encoding="utf-8")


def test_every_theme_is_covered() -> None:
    themes = {c.parent.name for c in CASES}
    assert {"mkdocs", "readthedocs", "material", "alabaster", "furo"} <= themes
