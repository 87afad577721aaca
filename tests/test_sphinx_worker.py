"""Serial Sphinx builds of sites of more than MIN_PAGES pages: each page goes to the
worker as Sphinx writes it, and every output, the HTML pages included, has the bytes
that converting in Sphinx's own process gives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from agentprose_core.parallel.policy import MIN_PAGES, worker_count

from .sites import snapshot
from .test_cache import _without_times
from .test_sphinx_extension import SHOWS_TYPES, App, copy_root

MORE = MIN_PAGES + 4
EVERY_FILE = (".md", ".json", ".txt", ".html")

pytestmark = pytest.mark.skipif(worker_count(MORE, enabled=True) == 0,
                                reason="one CPU: no worker is started")


def _typed(code: str, warnings: str) -> bool:
    """The warning of ``code`` is there, with its type where Sphinx shows it (8+)."""
    return f"[agentprose.{code}]" in warnings if SHOWS_TYPES else "agentprose" in warnings \
        or "is not a construct agentprose knows" in warnings


def _site(target: Path) -> Path:
    """The basic root with a section of MORE pages: code, a note, links, one page with
    markup the converter warns about."""
    src = copy_root("basic", target)
    (src / "index.rst").write_text((src / "index.rst").read_text(encoding="utf-8")
                                   + "\n.. toctree::\n   :caption: More\n\n   more/index\n")
    (src / "more").mkdir()
    entries = "".join(f"   page{number}\n" for number in range(MORE))
    (src / "more" / "index.rst").write_text(f"More\n====\n\n.. toctree::\n\n{entries}")
    for number in range(MORE):
        odd = "\n.. raw:: html\n\n   <marquee>Tide</marquee>\n" if number == 3 else ""
        (src / "more" / f"page{number}.rst").write_text(
            f"Page {number}\n========\n\nSee :doc:`/guide/rocks`, then :doc:`page0`.\n\n"
            f".. note:: Keep the lid on.\n\n.. code-block:: python\n\n   x = {number}\n"
            f"{odd}")
    return src


def _build(make_app: App, src: Path, builder: str = "html", **overrides: Any) -> Any:
    app = make_app(builder, srcdir=src, confoverrides=overrides)
    app.build()
    return app


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_pages_converted_in_the_worker_have_the_same_bytes(
    make_app: App, tmp_path: Path, builder: str
) -> None:
    sites = {}
    for workers in (True, False):
        app = _build(make_app, _site(tmp_path / str(workers)), builder,
                     agentprose_workers=workers)
        warnings = app._warning.getvalue()
        assert "page3" in warnings
        assert _typed("unknown-construct", warnings)
        sites[workers] = snapshot(Path(app.outdir), EVERY_FILE)
    assert _without_times(sites[True]) == _without_times(sites[False])
    pages = [name for name in sites[True] if name.endswith(".html")]
    assert len(pages) > MORE
    assert not any(b"<!--agentprose-head" in sites[True][name] for name in pages)
    page = "more/page5.html" if builder == "html" else "more/page5/index.html"
    assert b'<link rel="alternate" type="text/markdown"' in sites[True][page]
    assert b"application/ld+json" in sites[True][page]


_BUILD_AND_TELL = """
import sys
from sphinx.cmd.build import build_main
code = build_main(["-b", "html", "-q", *sys.argv[3:], sys.argv[1], sys.argv[2]])
print(code, "lxml" in sys.modules)
"""


def test_a_first_serial_build_never_loads_lxml_in_sphinx_s_process(tmp_path: Path) -> None:
    src = _site(tmp_path / "src")
    done = subprocess.run([sys.executable, "-c", _BUILD_AND_TELL, str(src), str(tmp_path / "out")],
                          capture_output=True, text=True, check=False)
    assert done.stdout.split() == ["0", "False"], done.stderr
    assert (tmp_path / "out" / "more" / "page7.md").read_text().startswith("---\n")


_HOOK = """
import os, sys

def {name}(element, url):
    spec = getattr(sys.modules["__main__"], "__spec__", None)
    if spec is None or spec.name != "agentprose_core.parallel.worker":
        return
    if url.endswith("page6.html"):
        {action}
"""


@pytest.mark.parametrize(("name", "action"), [
    ("raise_in_worker", "raise RuntimeError('only in the worker')"),
    ("end_the_worker", "os._exit(3)"),
])
def test_pages_the_worker_fails_are_done_in_sphinx_s_process(
    make_app: App, tmp_path: Path, name: str, action: str
) -> None:
    hook = tmp_path / f"{name}.py"
    hook.write_text(_HOOK.format(name=name, action=action))
    sites = {}
    for workers in (True, False):
        app = _build(make_app, _site(tmp_path / str(workers)), agentprose_workers=workers,
                     agentprose_preprocess=f"{hook}:{name}")
        sites[workers] = snapshot(Path(app.outdir), EVERY_FILE)
    assert _without_times(sites[True]) == _without_times(sites[False])
    assert not any(b"<!--agentprose-head" in data for data in sites[True].values())


@pytest.mark.parametrize("workers", ["1", "0"])
def test_a_page_s_warning_fails_a_build_with_warnings_as_errors(
    tmp_path: Path, workers: str
) -> None:
    src = _site(tmp_path / "src")
    done = subprocess.run(
        [sys.executable, "-c", _BUILD_AND_TELL, str(src), str(tmp_path / "out"), "-W",
         "-D", f"agentprose_workers={workers}"],
        capture_output=True, text=True, check=False)
    assert done.stdout.split()[0] != "0"
    assert "page3" in done.stderr
    assert _typed("unknown-construct", done.stderr)


def test_turning_workers_or_the_cache_off_writes_no_page_again(
    make_app: App, tmp_path: Path
) -> None:
    src = _site(tmp_path / "src")
    out = Path(_build(make_app, src).outdir)
    written, first = _page_times(out), snapshot(out, EVERY_FILE)
    _build(make_app, src, agentprose_workers=False, agentprose_cache=False)
    assert _page_times(out) == written
    assert _without_times(snapshot(out, EVERY_FILE)) == _without_times(first)


def _page_times(out: Path) -> dict[Path, int]:
    """When each document's HTML was written (Sphinx writes genindex and search on
    every build)."""
    return {path: path.stat().st_mtime_ns for path in out.rglob("*.html")
            if "genindex" not in path.name and "search" not in path.name}
