"""Where the page menu landed on a page open in Playwright, and what is wrong with it:
the tests assert there is nothing; ``bench/realworld/menu.py`` counts it on real sites."""

from __future__ import annotations

from typing import Any

__all__ = ["menu_problems"]

# The page's own controls that the menu's button overlaps, and whether anything (a
# sticky header) lies over the button's centre. A control counts only where a click
# would reach it with the menu away: not one clipped out of sight (a drawer's links,
# a visually hidden heading's permalink) or under something else.
_COVERED = """() => {
  const box = document.querySelector('.agentprose-actions');
  const toggle = box.querySelector('.agentprose-actions__toggle');
  const t = toggle.getBoundingClientRect();
  const top = document.elementFromPoint(t.left + t.width / 2, t.top + t.height / 2);
  const found = top === toggle || toggle.contains(top) ? []
    : ['covered by ' + top.outerHTML.slice(0, 80)];
  box.style.visibility = 'hidden';
  try {
    for (const e of document.querySelectorAll('button, a[href], input, select, [role=button]')) {
      if (box.contains(e) || !e.getClientRects().length) continue;
      const r = e.getBoundingClientRect();
      const left = Math.max(r.left, t.left), right = Math.min(r.right, t.right);
      const upper = Math.max(r.top, t.top), lower = Math.min(r.bottom, t.bottom);
      if (right <= left || lower <= upper) continue;
      const hit = document.elementFromPoint((left + right) / 2, (upper + lower) / 2);
      if (hit && (hit === e || e.contains(hit))) found.push('overlaps ' + e.outerHTML.slice(0, 80));
    }
  } finally {
    box.style.visibility = '';
  }
  return found;
}"""

# The page's title, the first shown <h1> of the content the page marks as its main
# (a site's header may have an <h1> too: the PEPs'), and its box, less the part an
# author's negative bottom margin gives to what follows (httpx's home page pulls the
# next block 15px up under its big title); no box for a title hidden for screen readers
# only (the Pallets theme's home pages). Whether the menu follows it.
_TITLE = """() => {
  const shown = e => e.getClientRects().length > 0;
  const h1 = [...document.querySelectorAll('main h1, article h1, [role=main] h1')]
    .find(shown) || [...document.querySelectorAll('h1')].find(shown);
  if (!h1) return null;
  const next = h1.nextElementSibling;
  const follows = !!next && next.classList.contains('agentprose-actions');
  const r = h1.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) return {follows, box: null};
  const pulled = Math.min(0, parseFloat(getComputedStyle(h1).marginBottom) || 0);
  return {follows, box: {x: r.left, y: r.top, width: r.width, height: r.height + pulled}};
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
    title = page.evaluate(_TITLE)
    if title is not None and not title["follows"]:
        problems.append("not under the page's title")
    frame = title and title["box"]
    if frame is not None:
        apart_x = right <= frame["x"] or frame["x"] + frame["width"] <= left
        apart_y = bottom <= frame["y"] or frame["y"] + frame["height"] <= top
        if not (apart_x or apart_y):
            problems.append(f"over the title: {box} and {frame}")
    problems += page.evaluate(_COVERED)
    return problems
