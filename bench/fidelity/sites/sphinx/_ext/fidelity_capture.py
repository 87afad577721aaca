"""Sphinx extension of the fidelity corpus: keep what each page hands to extensions.

conf.py loads it only when FIDELITY_CAPTURE_DIR is set. For every page with a
doctree it writes ``context["body"]`` unchanged to ``<dir>/<pagename>.html`` and a
``<dir>/<pagename>.json`` naming the page (source path, output path).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any


def _capture(app: Any, pagename: str, templatename: str, context: dict[str, Any],
             doctree: Any) -> None:
    out = os.environ.get("FIDELITY_CAPTURE_DIR")
    if not out or doctree is None or "body" not in context:
        return
    stem = Path(out) / pagename
    stem.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{stem}.html").write_text(context["body"], encoding="utf-8")
    facts = {
        "source": str(app.env.doc2path(pagename)),
        "output": Path(app.builder.get_outfilename(pagename)).relative_to(app.outdir).as_posix(),
        "url": app.builder.get_target_uri(pagename),
    }
    Path(f"{stem}.json").write_text(json.dumps(facts), encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", _capture)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
