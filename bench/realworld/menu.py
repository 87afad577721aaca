"""The page menu on real sites: each site built with ``page_actions`` (the ``menu``
variant of ``builds.py``), served by ``agentprose serve``, and a few of its pages opened
in Chromium at a desktop and a phone size, as tests/test_page_menu.py does on our own
small sites. Prints a Markdown table (menus shown, well placed, copies equal to the
view) and writes a screenshot of each page with its menu open, to look at::

    python bench/realworld/menu.py [--checkouts DIR] [--sites a,b] [--pages 4]
                                   [--skip-build]

Screenshots and the details go to ``<checkouts>/.menu/<site>/``. Never run by the tests.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
REPOSITORY = HERE.parent.parent
sys.path[:0] = [str(HERE), str(REPOSITORY)]

import builds  # noqa: E402
from envs import ensure_venv, python_of  # noqa: E402
from run import sites_and_snapshot  # noqa: E402

from tests.menu_probe import menu_problems  # noqa: E402
from tests.test_serve import _running  # noqa: E402  (the tests' server in a thread)

if TYPE_CHECKING:
    import sites as site_list

VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkouts", type=Path, default=Path("/work/realsites"))
    parser.add_argument("--sites", default="", help="comma-separated site names (default all)")
    parser.add_argument("--pages", type=int, default=4, help="pages looked at per site")
    parser.add_argument("--skip-build", action="store_true",
                        help="look at the last menu builds again")
    return parser.parse_args()


def _spread(posts: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """``count`` posts spread over the reading order, the first included."""
    if len(posts) <= count:
        return posts
    step = (len(posts) - 1) / (count - 1) if count > 1 else 0
    return [posts[round(n * step)] for n in range(count)]


def _look(browser: Any, url: str, view: str, shots: Path, name: str) -> dict[str, Any]:
    """One page at each viewport: the menu's problems, and (desktop) whether the copy
    equals the view."""
    found: dict[str, Any] = {"url": url, "problems": {}, "copied": None, "errors": []}
    for viewport, (width, height) in VIEWPORTS.items():
        context = browser.new_context(viewport={"width": width, "height": height},
                                      permissions=["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.on("pageerror", lambda error, seen=found["errors"]:
                seen.append((error.stack or str(error))[:300]))
        try:
            page.goto(url, wait_until="load", timeout=30_000)
            with contextlib.suppress(Exception):
                page.locator(".agentprose-actions__toggle").wait_for(state="visible",
                                                                     timeout=5_000)
            found["problems"][viewport] = menu_problems(page, width, height)
            toggle = page.locator(".agentprose-actions__toggle")
            if toggle.count() and toggle.is_visible():
                toggle.click()
                page.screenshot(path=str(shots / f"{name}-{viewport}.png"))
                if viewport == "desktop":
                    page.locator(".agentprose-actions__menu [role=menuitem]").first.click()
                    page.wait_for_function(
                        "document.querySelector('.agentprose-actions__status')"
                        ".textContent !== ''", timeout=5_000)
                    found["copied"] = page.evaluate("navigator.clipboard.readText()") == view
        except Exception as error:  # a site's page that will not load: said, not fatal
            found["problems"].setdefault(viewport, []).append(f"{type(error).__name__}: "
                                                              f"{str(error)[:200]}")
        finally:
            context.close()
    return found


def _view_of(out: Path, base: str, markdown_url: str) -> str:
    return (out / markdown_url.removeprefix(base)).read_text(encoding="utf-8")


def look_at_site(site: site_list.Site, checkouts: Path, agentprose: Path | None,
                 count: int) -> dict[str, Any]:
    """Build ``site`` with the menu (unless ``agentprose`` is None) and look at it."""
    from playwright.sync_api import sync_playwright

    entry: dict[str, Any] = {"site": site.name, "theme": site.theme, "pages": []}
    out = builds.out_dir(checkouts, site, "menu")
    if agentprose is not None:
        venv = ensure_venv(checkouts, site, checkouts / ".logs" / f"{site.name}-pip.log")
        result = builds.build(site, checkouts, python_of(venv), "menu", agentprose,
                              markers=False)
        entry["build"] = {"exit_code": result.exit_code, "seconds": result.seconds}
    index = out / "agentprose.json"
    if not index.is_file():
        entry["error"] = "the build wrote no agentprose.json"
        return entry
    base = builds.base_url(site)
    posts = json.loads(index.read_text(encoding="utf-8"))["posts"]
    shots = checkouts / ".menu" / site.name
    shutil.rmtree(shots, ignore_errors=True)
    shots.mkdir(parents=True)
    with _running(out, urlsplit(base).path) as served, sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=shutil.which("chromium"),
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            for number, post in enumerate(_spread(posts, count)):
                url = served + post["url"].removeprefix(base)
                view = _view_of(out, base, post["markdown_url"])
                entry["pages"].append(_look(browser, url, view, shots, f"page{number}"))
        finally:
            browser.close()
    (shots / "details.json").write_text(json.dumps(entry, indent=2), encoding="utf-8")
    return entry


def _row(entry: dict[str, Any]) -> str:
    if "error" in entry:
        return f"| {entry['site']} | {entry['theme']} | – | – | – | – | {entry['error']} |"
    looks = [(page, viewport, problems) for page in entry["pages"]
             for viewport, problems in page["problems"].items()]
    shown = sum(1 for _, _, problems in looks if "no menu shown" not in problems)
    placed = sum(1 for _, _, problems in looks if not problems)
    copied = sum(1 for page in entry["pages"] if page["copied"])
    first = next((f"{viewport}: {problems[0]}" for _, viewport, problems in looks if problems),
                 "")
    errors = sum(len(page["errors"]) for page in entry["pages"]
                 if any("page-actions" in error for error in page["errors"]))
    return (f"| {entry['site']} | {entry['theme']} | {len(looks)} | {shown} | {placed} | "
            f"{copied}/{len(entry['pages'])} | {errors} | {first.replace('|', '/')[:120]} |")


def main() -> int:
    args = _arguments()
    checkouts, chosen, agentprose = sites_and_snapshot(args)
    rows = []
    for site in chosen:
        print(f"  {site.name} ...", file=sys.stderr, flush=True)
        try:
            rows.append(_row(look_at_site(site, checkouts, agentprose, args.pages)))
        except Exception as error:
            rows.append(f"| {site.name} | {site.theme} | – | – | – | – | – | "
                        f"{type(error).__name__}: {str(error)[:100]} |")
    print("| site | theme | looks (page × viewport) | menu shown | well placed | "
          "copy = view | errors of our script | first problem |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
