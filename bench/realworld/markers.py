"""The planted page: raw HTML that hides marker strings in every way a page can.

No hidden marker may reach any agentprose output; the visible one must. The page
carries its own ``modified`` date, so that both agentprose builds agree on it although
the file is not in git.
"""

from __future__ import annotations

VISIBLE = "rwvisiblemarkerq7"
HIDDEN = {
    "div-hidden": "rwhiddendivq7",
    "data-ignore": "rwdataignoreq7",
    "aria-hidden": "rwariahiddenq7",
    "display-none": "rwdisplaynoneq7",
    "details-p-hidden": "rwdetailshiddenq7",
}

_HTML = f"""\
<p>Visible: {VISIBLE} stays in the view.</p>

<div hidden>A hidden div: {HIDDEN["div-hidden"]}</div>

<p>Text with <span data-ignore>{HIDDEN["data-ignore"]}</span> and
<span aria-hidden="true">{HIDDEN["aria-hidden"]}</span> inside.</p>

<p style="display:none">Not displayed: {HIDDEN["display-none"]}</p>

<details><summary>S</summary><p hidden>{HIDDEN["details-p-hidden"]}</p></details>
"""

_TITLE = "Hidden markers"


def marker_page(suffix: str) -> str:
    """The marker page's source, as Markdown (``.md``) or reStructuredText (``.rst``)."""
    if suffix == ".rst":
        body = "\n".join("   " + line if line else "" for line in _HTML.splitlines())
        return (f":orphan:\n:modified: 2026-01-01\n\n{_TITLE}\n{'=' * len(_TITLE)}\n\n"
                f".. raw:: html\n\n{body}\n")
    return f"---\norphan: true\nmodified: 2026-01-01\n---\n\n# {_TITLE}\n\n{_HTML}"
