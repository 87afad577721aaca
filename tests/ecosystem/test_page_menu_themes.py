"""The page menu (issue 43) on the Sphinx themes of the ecosystem venv: the same
browser checks as tests/test_page_menu.py (visible, clear of the title, keyboard, the
clipboard holds the view's bytes, Open in links), with their screenshots."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ..test_page_menu import check_menu_in_browser, sphinx_site

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.parametrize("theme", [
    "sphinx_rtd_theme", "pydata_sphinx_theme", "sphinx_book_theme", "flask",
])
def test_the_menu_on_the_theme(tmp_path: Path, theme: str) -> None:
    check_menu_in_browser(sphinx_site(tmp_path / theme, theme), theme)
