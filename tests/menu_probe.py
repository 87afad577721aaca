"""Where the page menu landed on a page open in Playwright, and what is wrong with it:
the tests assert there is nothing; ``bench/realworld/menu.py`` counts it on real sites."""

from __future__ import annotations

from typing import Any

__all__ = ["menu_problems"]

# The page's own controls that the menu's button overlaps, and whether anything (a
# sticky header) lies over the button's centre.
_COVERED = """() => {
  const toggle = document.querySelector('.agentprose-actions__toggle');
  const t = toggle.getBoundingClientRect();
  const top = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
  const found = top === toggle || toggle.contains(top) ? []
    : ['covered by ' + top.outerHTML.slice(0, 80)];
  for (const e of document.querySelectorAll('button, a[href], input, select, [role=button]')) {
    if (e.closest('.agentprose-actions') || !e.getClientRects().length) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.height && !(r.right <= t.left || t.right <= r.left || r.bottom <= t.top
        || t.bottom <= r.top)) found.push('overlaps ' + e.outerHTML.slice(0, 80));
  }
  return found;
}"""


def menu_problems(page: Any, width: int, height: int) -> list[str]:
    """What is wrong with the menu's button on ``page`` (a Playwright page whose viewport
    is ``width`` by ``height``), scrolled to the top: it is not shown, not inside the
    viewport, overlaps the page's title or one of the theme's controls, or lies under
    something; ``[]`` when it is placed well."""
    toggle = page.locator(".agentprose-actions__toggle")
    if not toggle.count() or not toggle.is_visible():
        return ["no menu shown"]
    box = toggle.bounding_box()
    left, top = box["x"], box["y"]
    right, bottom = left + box["width"], top + box["height"]
    problems = []
    if left < 0 or top < 0 or right > width or bottom > height:
        problems.append(f"outside the {width}x{height} viewport: {box}")
    title = page.locator("h1:visible").first
    frame = title.bounding_box() if title.count() else None
    if frame is not None:
        apart_x = right <= frame["x"] or frame["x"] + frame["width"] <= left
        apart_y = bottom <= frame["y"] or frame["y"] + frame["height"] <= top
        if not (apart_x or apart_y):
            problems.append(f"over the title: {box} and {frame}")
    problems += page.evaluate(_COVERED)
    return problems
