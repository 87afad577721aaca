"""html-to-markdown's two calls: the native one the engine makes, with its options built
once, and the public ``convert`` it falls back to; the same bytes on every golden page."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import html_to_markdown
import pytest

from agentprose_core.convert import engines
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.settings import Settings

from . import test_golden, test_golden_themes

if TYPE_CHECKING:
    from pathlib import Path

GOLDEN = [("golden", case) for case in test_golden.CASES]
THEMES = [("themes", case) for case in test_golden_themes.CASES]


def _conversion(suite: str, case: Path) -> dict[str, Any]:
    """The arguments the golden test of ``case`` converts it with."""
    if suite == "golden":
        return {"page_url": test_golden._page_url(case), "site_map": test_golden.SITE_MAP}
    theme, page = case.parent.name, case.stem
    return {"page_url": test_golden_themes._page_url(theme, page),
            "site_map": test_golden_themes._site_map(theme),
            "source_fences": test_golden_themes._source_fences(theme, page)}


def _calls() -> tuple[engines.Engine, engines.Engine]:
    """The native call and the public one, with the engine's options."""
    found: dict[str, Any] = {}

    def keep(options: Any, public: engines.Engine) -> engines.Engine | None:
        found["public"] = public
        return real(options, public)

    real = engines._native_engine
    try:
        engines._native_engine = keep  # type: ignore[assignment]
        engine = engines._html_to_markdown_engine()
    finally:
        engines._native_engine = real
    assert engine is not found["public"], "the native call is gone: drop it (engines.py)"
    return engine, found["public"]


@pytest.mark.parametrize(("suite", "case"), GOLDEN + THEMES,
                         ids=[f"{s}/{c.parent.name}/{c.stem}" for s, c in GOLDEN + THEMES])
def test_the_native_and_public_calls_give_the_same_bytes(
    suite: str, case: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    native_call, public_call = _calls()
    documents: list[str] = []

    def recording(document: str) -> str:
        documents.append(document)
        return native_call(document)

    monkeypatch.setattr(engines, "engine", lambda _name: (recording, ()))
    convert_fragment(case.read_text(encoding="utf-8"), settings=Settings(),
                     **_conversion(suite, case))
    assert len(documents) == 1
    assert native_call(documents[0]) == public_call(documents[0])


def test_the_public_call_when_the_native_one_answers_otherwise_or_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def public(document: str) -> str:
        return str(html_to_markdown.convert(document).content)

    assert engines._native_engine(html_to_markdown.ConversionOptions(), public) is not None
    other = html_to_markdown.ConversionOptions(bullets="-")  # not what public() uses
    assert engines._native_engine(other, public) is None
    monkeypatch.delattr(html_to_markdown, "_html_to_markdown")
    monkeypatch.setitem(sys.modules, "html_to_markdown._html_to_markdown", None)
    assert engines._native_engine(html_to_markdown.ConversionOptions(), public) is None
    engines.engine.cache_clear()
    try:
        engine, notes = engines.engine("html-to-markdown")
        assert (engine.__name__, notes) == ("public", ())
        assert engine("<ul><li>a*</li></ul>") == "- a*\n"  # with our options
    finally:
        engines.engine.cache_clear()
