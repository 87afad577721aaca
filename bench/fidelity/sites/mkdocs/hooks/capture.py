"""MkDocs hook of the fidelity corpus: keep what each page hands to plugins.

Does nothing unless FIDELITY_CAPTURE_DIR is set. Then, for every page, it writes the
``html`` argument of ``on_page_content`` unchanged to ``<dir>/<n>.html`` and a
``<dir>/<n>.json`` naming the page (source path, output path, URL), ``<n>`` being
the page's position in build order. The benchmark reads them as its reference.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

_count = {"pages": 0}


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    out = os.environ.get("FIDELITY_CAPTURE_DIR")
    if not out:
        return html
    _count["pages"] += 1
    stem = Path(out) / f"{_count['pages']:04d}"
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".html").write_text(html, encoding="utf-8")
    facts = {
        "source": page.file.abs_src_path,
        "output": page.file.dest_uri,
        "url": page.url,
    }
    stem.with_suffix(".json").write_text(json.dumps(facts), encoding="utf-8")
    return html
