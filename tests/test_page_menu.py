"""The page menu (issue 43) in a real browser: Chromium from Debian, driven by
Playwright, on sites built with ``page_actions`` and served by ``agentprose serve``.

On each theme and at a desktop and a phone viewport: the menu is visible inside the
viewport, below the title without covering it, opens from the keyboard with the ARIA
menu pattern, closes on Escape, copies exactly the bytes of the page's view, and its
*Open in* links carry the view's URL encoded. With ``AGENTPROSE_SCREENSHOTS`` set
(``make screenshots``), each theme's menu is photographed there. Turning the menu on
changes no agent output.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, unquote

import pytest

from agentprose_core import Settings, convert_fragment
from agentprose_core.phrases import phrases_for
from agentprose_core.render.pagemenu import menu_files

from .menu_probe import menu_problems
from .sites import commit_all, write_tree
from .test_serve import _running

if TYPE_CHECKING:
    from collections.abc import Iterator

BASE = "https://coast.example/"
DATE = "2026-03-14T10:30:00+00:00"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}
PAGE = ("# Tide pools\n\nLow tide leaves pools behind, and the crabs wait in them.\n\n"
        "## Temperature\n\nWarm by noon.\n")


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright  # noqa: F401
    except ImportError:
        found = None
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Chromium and Playwright are needed (.ci/run installs them)")
        pytest.skip("no Chromium or Playwright here")
    return found


def _mkdocs_site(root: Path, theme: dict[str, Any], *, menu: bool = True,
                 options: dict[str, Any] | None = None) -> Path:
    import yaml

    config = {"site_name": "Coast", "site_url": BASE, "theme": theme,
              "nav": ["index.md", "tide-pools.md"],
              "plugins": [{"agentprose": {"page_actions": menu, **(options or {})}}]}
    write_tree(root, {"mkdocs.yml": yaml.safe_dump(config), "docs/index.md": "# Coast\n\nHi.\n",
                      "docs/tide-pools.md": PAGE})
    commit_all(root, "docs", DATE)  # the same dates in every build
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return root / "site"


def sphinx_site(root: Path, theme: str, *, menu: bool = True) -> Path:
    """A two-page Sphinx site in ``theme`` with the menu (dirhtml, committed)."""
    return _sphinx_site(root, theme, menu=menu)


def _sphinx_site(root: Path, theme: str, *, menu: bool = True, conf: str = "") -> Path:
    write_tree(root / "src", {
        "conf.py": f"project = 'Coast'\nextensions = ['myst_parser', 'sphinx_agentprose'"
                   f"{THEME_EXTENSIONS.get(theme, '')}]\n"
                   f"html_baseurl = '{BASE}'\nhtml_theme = '{theme}'\n"
                   f"agentprose_page_actions = {menu}\n{conf}",
        "index.md": "# Coast\n\nHi.\n\n```{toctree}\ntide-pools\n```\n",
        "tide-pools.md": PAGE,
    })
    commit_all(root, "docs", DATE)
    out = root / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "dirhtml",
                           str(root / "src"), str(out)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return out


def _built_site(root: Path, *, menu: bool = True) -> Path:
    """The plain example site (a theme of its own) through ``agentprose build``."""
    from agentprose_core.cli import main

    site = root / "site"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "plain-site", site)
    assert main(["build", str(site), "--base-url", BASE, "--quiet",
                 *(["--page-actions"] if menu else [])]) == 0
    return site  # main_build below: the same, with the menu


THEME_EXTENSIONS = {"flask": ", 'pallets_sphinx_themes'"}  # themes an extension brings

SITES = {
    "mkdocs": lambda root, menu=True: _mkdocs_site(root, {"name": "mkdocs"}, menu=menu),
    "readthedocs": lambda root, menu=True: _mkdocs_site(root, {"name": "readthedocs"}, menu=menu),
    "material": lambda root, menu=True: _mkdocs_site(root, {"name": "material"}, menu=menu),
    "material-dark": lambda root, menu=True: _mkdocs_site(
        root, {"name": "material", "palette": {"scheme": "slate"}}, menu=menu),
    "furo": lambda root, menu=True: _sphinx_site(root, "furo", menu=menu),
    "alabaster": lambda root, menu=True: _sphinx_site(root, "alabaster", menu=menu),
    "agentprose-build": _built_site,
}


@pytest.mark.parametrize("theme", sorted(SITES))
def test_the_menu_in_a_browser(tmp_path: Path, theme: str) -> None:
    check_menu_in_browser(SITES[theme](tmp_path / theme), theme)


def check_menu_in_browser(site: Path, theme: str) -> None:
    """Every check of the module's docstring on ``site``'s page ``tide-pools/``, at each
    viewport (tests/ecosystem/ runs it on the themes of its own venv)."""
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    view = (site / "tide-pools.md").read_text(encoding="utf-8")
    shots = os.environ.get("AGENTPROSE_SCREENSHOTS")
    with _running(site) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            for name, (width, height) in VIEWPORTS.items():
                context = browser.new_context(viewport={"width": width, "height": height},
                                              permissions=["clipboard-read", "clipboard-write"])
                page = context.new_page()
                errors: list[str] = []
                # the themes' own scripts may fail offline (a CDN): ours may not
                page.on("pageerror", lambda error, seen=errors: seen.append(error.stack or ""))
                page.goto(url + "tide-pools/")
                toggle = page.locator(".agentprose-actions__toggle")
                toggle.wait_for(state="visible", timeout=10_000)
                assert menu_problems(page, width, height) == []
                _assert_keyboard(page, toggle)
                links = page.locator('.agentprose-actions__menu a[target="_blank"]')
                encoded = quote(BASE + "tide-pools.md", safe="")
                hrefs = [links.nth(n).get_attribute("href") or "" for n in range(links.count())]
                assert [href.split("?")[0] for href in hrefs] == [
                    "https://chatgpt.com/", "https://claude.ai/new"]
                assert all(encoded in href for href in hrefs), hrefs
                if name == "desktop":  # the menu as the browser holds it is never content
                    menu = page.locator(".agentprose-actions").evaluate("e => e.outerHTML")
                    assert convert_fragment(f"<p>Kept.</p>{menu}", page_url=BASE,
                                            site_map={}, settings=Settings()).markdown \
                        == "Kept.\n"
                if shots:  # with the menu open
                    toggle.click()
                    Path(shots).mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(Path(shots) / f"{theme}-{name}.png"))
                    page.keyboard.press("Escape")
                toggle.click()
                page.get_by_role("menuitem", name="Copy as Markdown").click()
                page.wait_for_function("document.querySelector('.agentprose-actions__status')"
                                       ".textContent === 'Copied'", timeout=5_000)
                assert page.evaluate("navigator.clipboard.readText()") == view
                assert not [error for error in errors if "page-actions" in error], errors
                context.close()
        finally:
            browser.close()


def _assert_keyboard(page: Any, toggle: Any) -> None:
    """A button that opens a menu from the keyboard, moves by arrows, closes on Escape."""
    assert toggle.evaluate("e => e.tagName") == "BUTTON"
    assert toggle.get_attribute("aria-haspopup") == "menu"
    toggle.focus()
    page.keyboard.press("Enter")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.activeElement.textContent") == "Copy as Markdown"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.textContent") == "View as Markdown"
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate(
        "document.activeElement.classList.contains('agentprose-actions__toggle')")


@pytest.mark.parametrize("theme", ["mkdocs", "alabaster"])
def test_the_menu_changes_no_agent_output(tmp_path: Path, theme: str) -> None:
    with_menu = SITES[theme](tmp_path / "on")
    without = SITES[theme](tmp_path / "off", menu=False)
    outputs = sorted(p.relative_to(without).as_posix() for p in without.rglob("*")
                     if p.suffix in (".md", ".txt") or p.name == "agentprose.json")
    assert outputs
    for name in outputs:
        assert (with_menu / name).read_bytes() == (without / name).read_bytes(), name
    for name, text in menu_files().items():
        assert (with_menu / name).read_text(encoding="utf-8") == text
        assert not (without / name).exists()
    page = (with_menu / "tide-pools/index.html").read_text(encoding="utf-8")
    script = next(name for name in menu_files() if name.endswith(".js"))
    assert page.count(f'src="/{script}"') == 1
    assert "page-actions" not in (without / "tide-pools/index.html").read_text(encoding="utf-8")
    for name in ("404.html", "search/index.html", "genindex/index.html"):  # no view, no menu
        if (with_menu / name).is_file():
            assert "page-actions" not in (with_menu / name).read_text(encoding="utf-8"), name


def test_the_menu_follows_materials_instant_navigation(tmp_path: Path) -> None:
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    site = _mkdocs_site(tmp_path / "instant", {"name": "material",
                                                "features": ["navigation.instant"]})
    with _running(site) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url)
            page.locator(".agentprose-actions__toggle").wait_for(state="visible")
            page.locator('.md-nav a[href$="tide-pools/"]').first.click()
            page.wait_for_url("**/tide-pools/")
            page.wait_for_function(
                "document.querySelector('.agentprose-actions__menu a')"
                "?.getAttribute('href') === '/tide-pools.md'", timeout=10_000)
            assert page.locator(".agentprose-actions").count() == 1
        finally:
            browser.close()


@contextlib.contextmanager
def _plain_page(tmp_path: Path, name: str, body: str,
                viewport: tuple[int, int]) -> Iterator[Any]:
    """A page of ``body`` added to the plain site, built with the menu by ``agentprose
    build``, open in Chromium at ``viewport`` once the menu is shown."""
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    site = tmp_path / "site"
    shutil.copytree(Path(__file__).parent.parent / "examples" / "plain-site", site)
    write_tree(site, {name: f"<!doctype html><html lang=\"en\"><head><title>{name}</title>"
                            f"</head><body>{body}</body></html>"})
    assert main_build(site) == 0
    with _running(site) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
            page.goto(url + name)
            page.locator(".agentprose-actions__toggle").wait_for(state="visible",
                                                                 timeout=10_000)
            yield page
        finally:
            browser.close()


def test_a_page_without_a_title_gets_the_menu_in_a_corner(tmp_path: Path) -> None:
    with _plain_page(tmp_path, "notes.html", "<main><p>Crabs hide under rocks.</p></main>",
                     (390, 844)) as page:
        toggle = page.locator(".agentprose-actions--floating .agentprose-actions__toggle")
        box = toggle.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= 390
        assert box["y"] + box["height"] <= 844
        toggle.click()
        assert page.get_by_role("menuitem", name="View as Markdown").is_visible()


def test_a_title_in_the_sites_header_is_not_the_pages(tmp_path: Path) -> None:
    # The PEPs' theme: an <h1> with the site's name in the header, the page's in <main>.
    with _plain_page(tmp_path, "pep.html", "<header><h1>Proposals</h1></header><main>"
                     "<h1>PEP 8</h1><p>Style.</p></main>", (1280, 800)) as page:
        assert page.evaluate("document.querySelector('.agentprose-actions')"
                             ".previousElementSibling.textContent") == "PEP 8"
        assert menu_problems(page, 1280, 800) == []


def main_build(site: Path) -> int:
    """``agentprose build`` of ``site`` with the menu."""
    from agentprose_core.cli import main

    return main(["build", str(site), "--base-url", BASE, "--quiet", "--page-actions"])


LANGUAGE_SITES = {
    # Japanese from the phrasebook; French reworded by the phrases option
    "ja": lambda root: _sphinx_site(root, "alabaster", conf="language = 'ja'\n"),
    "fr": lambda root: _mkdocs_site(
        root, {"name": "material", "language": "fr", "features": ["navigation.instant"]},
        options={"phrases": {"fr": {"menu_button": "Cette page pour votre assistant"}}}),
}


@pytest.mark.parametrize("lang", sorted(LANGUAGE_SITES))
def test_the_menu_speaks_the_pages_language(tmp_path: Path, lang: str) -> None:
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    site = LANGUAGE_SITES[lang](tmp_path / lang)
    words = phrases_for(lang)
    button = "Cette page pour votre assistant" if lang == "fr" else words.menu_button
    asked = (words.menu_prompt.replace("{url}", BASE + "tide-pools.md") + " "
             + words.menu_prompt_map.replace("{url}", BASE + "llms.txt"))
    with _running(site) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
            page = context.new_page()
            page.goto(url + ("" if lang == "fr" else "tide-pools/"))
            if lang == "fr":  # the labels of the page the theme loads without a reload
                page.locator('.md-nav a[href$="tide-pools/"]').first.click()
                page.wait_for_url("**/tide-pools/")
                page.wait_for_function("document.querySelector('.agentprose-actions__menu a')"
                                       "?.getAttribute('href') === '/tide-pools.md'")
            toggle = page.locator(".agentprose-actions__toggle")
            assert toggle.text_content() == button
            toggle.click()
            items = page.locator(".agentprose-actions__menu [role=menuitem]")
            assert items.all_text_contents() == [
                words.menu_copy, words.menu_view,
                *(words.menu_open.replace("{name}", name) for name in ("ChatGPT", "Claude"))]
            href = items.nth(2).get_attribute("href") or ""
            assert unquote(href.split("q=", 1)[1]) == asked
            items.first.click()
            page.wait_for_function("document.querySelector('.agentprose-actions__status')"
                                   f".textContent === {json.dumps(words.menu_copied)}")
        finally:
            browser.close()


# Controls put where the button is, on the plain site's page: what the probe the tests
# and bench/realworld/menu.py rely on must report, and what it must not.
_CLIPPED = "<div style='position:absolute;overflow:hidden;width:0'><a href='#'>x</a></div>"
_PLANTED = {
    "covered": ("<div style='position:fixed;inset:0;z-index:1000'></div>", "covered by"),
    "over a control": ("<a href='#' style='position:absolute'>x</a>", "overlaps"),
    "clipped control": (_CLIPPED, None),
    "hidden control": ("<button style='position:absolute;visibility:hidden'>x</button>", None),
}


@pytest.mark.parametrize("case", sorted(_PLANTED))
def test_the_probe_sees_what_overlaps_the_button_and_only_that(tmp_path: Path,
                                                               case: str) -> None:
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    markup, expected = _PLANTED[case]
    site = _built_site(tmp_path)
    with _running(site) as url, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium,
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url + "tide-pools/")
            page.locator(".agentprose-actions__toggle").wait_for(state="visible")
            assert menu_problems(page, 1280, 800) == []
            page.evaluate("""(markup) => {
              const box = document.querySelector('.agentprose-actions');
              const t = box.firstElementChild.getBoundingClientRect();
              document.body.insertAdjacentHTML('afterbegin', markup);  // painted under it
              const planted = document.body.firstElementChild;
              if (planted.style.position === 'absolute') Object.assign(planted.style, {
                left: t.left + scrollX + 'px', top: t.top + scrollY + 'px'});
              for (const e of [planted, ...planted.querySelectorAll('*')])
                if (e.matches('a, button')) Object.assign(e.style, {display: 'inline-block',
                  width: t.width + 'px', height: t.height + 'px'});
            }""", markup)
            found = menu_problems(page, 1280, 800)
            if expected is None:
                assert found == []
            else:
                assert found
                assert all(problem.startswith(expected) for problem in found), found
        finally:
            browser.close()


def test_the_tags_data_reads_back_as_given_from_the_html() -> None:
    from html.parser import HTMLParser

    from agentprose_core.model import PageRecord, SiteRecord
    from agentprose_core.render.pagemenu import menu_tags

    links = {"Bob's <AI> & co": "https://ai.example/?q={prompt}&x='1'"}
    settings = Settings(page_actions=True, page_action_links=tuple(links.items()))
    site = SiteRecord(name="Coast", url=BASE, lang="fr")
    page = PageRecord(url=BASE + "a/", markdown_url=BASE + "a.md", title="A",
                      modified="2026-01-01T00:00:00Z", markdown="A.", lang="fr")
    tags = menu_tags(page, site, settings)
    assert tags.isascii()
    found: dict[str, str | None] = {}

    class Reader(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "script":
                found.update(attrs)

    Reader().feed(tags)
    assert json.loads(found["data-links"] or "") == links
    words = phrases_for("fr")
    assert json.loads(found["data-labels"] or "")["prompt_map"] == words.menu_prompt_map
    assert found["data-view"] == BASE + "a.md"
