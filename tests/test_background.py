"""Background conversions: real worker processes give what in-process conversion gives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from agentprose_core.background import MIN_PAGES, BackgroundConversions, worker_count
from agentprose_core.cache import ConversionCache
from agentprose_core.convert import convert_fragment
from agentprose_core.settings import Settings

from .sites import snapshot, write_tree
from .test_cache import _without_times

BASE = "https://x.org/docs/"
COUNT = MIN_PAGES + 8


def _url(number: int) -> str:
    return f"{BASE}p{number}/"


def _fragment(number: int) -> str:
    gone = ' and <a href="../gone/#why">the old page</a>' if number % 3 == 0 else ""
    return (f'<h2 id="s">Page {number}</h2><p>Next: <a href="../p{(number + 1) % COUNT}/">'
            f"p{number + 1}</a>{gone}.</p>"
            f'<pre><code class="language-python">x = {number}\n</code></pre>')


def _site_map(*, with_gone: bool) -> dict[str, str]:
    found = {_url(n): f"{BASE}p{n}.md" for n in range(COUNT)}
    if with_gone:
        found[f"{BASE}gone/"] = f"{BASE}gone.md"
    return found


def _run(workers: int, final: dict[str, str], cache: ConversionCache | None = None,
         pages: int = COUNT) -> tuple[BackgroundConversions, dict[str, object]]:
    background = BackgroundConversions(site_map=_site_map(with_gone=True), settings=Settings(),
                                       cache=cache, workers=workers)
    for number in range(pages):
        background.submit(_fragment(number), page_url=_url(number))
    return background, dict(background.results(final))


def _in_process(number: int, site_map: dict[str, str]) -> object:
    return convert_fragment(_fragment(number), page_url=_url(number), site_map=site_map,
                            settings=Settings())


def test_worker_results_equal_in_process_conversions() -> None:
    final = _site_map(with_gone=True)
    background, found = _run(1, final)
    assert background.converted_in_background == background.kept == COUNT
    assert found == {_url(n): _in_process(n, final) for n in range(COUNT)}


def test_a_page_linking_to_a_page_left_out_later_is_converted_again() -> None:
    final = _site_map(with_gone=False)  # "gone" turned out to be excluded by front matter
    _, found = _run(2, final)
    assert set(found) == {_url(n) for n in range(COUNT) if n % 3}
    for url, conversion in found.items():
        assert conversion == _in_process(int(url.rstrip("/").rsplit("p", 1)[1]), final)
    assert "gone" not in "".join(c.markdown for c in found.values())  # type: ignore[attr-defined]


def test_few_pages_or_no_workers_start_no_process() -> None:
    assert _run(1, _site_map(with_gone=True), pages=MIN_PAGES)[1] == {}
    assert _run(0, _site_map(with_gone=True))[1] == {}


def test_workers_fill_the_cache_and_a_rebuild_needs_none(tmp_path: Path) -> None:
    final = _site_map(with_gone=True)
    _, first = _run(1, final, ConversionCache(tmp_path))
    assert len(list(tmp_path.glob("*/*.json"))) == COUNT
    background, again = _run(1, final, ConversionCache(tmp_path))
    assert background.converted_in_background == 0
    assert again == first


def test_a_killed_worker_leaves_its_pages_to_the_caller() -> None:
    background = BackgroundConversions(site_map=_site_map(with_gone=True), settings=Settings(),
                                       cache=None, workers=1)
    for number in range(COUNT):
        background.submit(_fragment(number), page_url=_url(number))
    for worker in background._pool._workers:  # type: ignore[union-attr]  # what a crash takes
        worker.process.kill()
    found = background.results(_site_map(with_gone=True))  # returns: no hang, no error
    assert set(found) <= {_url(n) for n in range(COUNT)}


def test_worker_count_leaves_a_cpu_to_the_build() -> None:
    assert [worker_count(n) for n in (1, 2, 4, 16)] == [0, 1, 3, 4]


def _big_site(root: Path, *, workers: bool, secret: bool = True) -> Path:
    pages = {f"docs/p{n}.md": f"# Page {n}\n\nSee [next](p{n + 1}.md) and [secret](secret.md)."
             f"\n\n```python\nx = {n}\n```\n" for n in range(COUNT)}
    pages["docs/secret.md"] = ("---\nagentprose: false\n---\n\n" if secret else "") + (
        "# Secret\n\nNot for agents.\n")
    pages["docs/index.md"] = "# Home\n\nStart at [page 0](p0.md).\n"
    config = {"site_name": "Big", "site_url": "https://big.example/",
              "plugins": [{"agentprose": {"workers": workers}}]}
    write_tree(root, {**pages, "mkdocs.yml": yaml.safe_dump(config)})
    return root


def test_mkdocs_build_with_workers_equals_build_without(tmp_path: Path) -> None:
    built = {}
    for workers in (True, False):
        root = _big_site(tmp_path / str(workers), workers=workers)
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-v"], cwd=root,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        converted = "pages converted in background processes"
        if workers and worker_count() > 0:
            # The secret page too (its front matter is read later); the index page and
            # the secret page are all that links nowhere near the secret page.
            assert f"{COUNT + 2} {converted}, 2 of them kept" in done.stderr
        built[workers] = snapshot(root / "site")
    assert _without_times(built[True]) == _without_times(built[False])
    assert b"(https://big.example/secret/)" in built[True]["p1.md"]  # not to a view


def test_mkdocs_keeps_every_background_conversion_and_the_cache_serves_a_rebuild(
    tmp_path: Path,
) -> None:
    root = _big_site(tmp_path, workers=True, secret=False)
    logs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-v"], cwd=root,
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        logs.append(done.stderr)
        entries = sorted((root / ".cache" / "agentprose").glob("*/*.json"))
        assert len(entries) == COUNT + 2  # one per page: never a second key for a page
    if worker_count() > 0:
        every = COUNT + 2
        assert f"{every} pages converted in background processes, {every} of them kept" in logs[0]
    assert "0 pages converted in background processes" in logs[1]
