"""Background conversions: real worker processes give what in-process conversion gives."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import yaml

from agentprose_core.convert.fences import fences_of
from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.parallel.cache import ConversionCache
from agentprose_core.parallel.policy import MIN_PAGES, worker_count
from agentprose_core.parallel.speculative import BackgroundConversions, conversion_pool
from agentprose_core.settings import Settings

from .sites import snapshot, write_tree
from .test_cache import _without_times

if TYPE_CHECKING:
    from pathlib import Path

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
         pages: int = COUNT, site: dict[str, str] | None = None,
         ) -> tuple[BackgroundConversions, dict[str, object]]:
    pool = conversion_pool(workers)
    try:
        background = BackgroundConversions(
            site_map=_site_map(with_gone=True) if site is None else site,
            settings=Settings(), cache=cache, pool=pool)
        for number in range(pages):
            background.submit(_fragment(number), page_url=_url(number))
        return background, dict(background.results(final))
    finally:
        if pool is not None:
            pool.close()


def _in_process(number: int, site_map: dict[str, str]) -> object:
    return convert_fragment(_fragment(number), page_url=_url(number), site_map=site_map,
                            settings=Settings())


def test_worker_results_equal_in_process_conversions() -> None:
    final = _site_map(with_gone=True)
    background, found = _run(1, final)
    assert background.converted_in_background == background.kept == COUNT
    assert found == {_url(n): _in_process(n, final) for n in range(COUNT)}


def test_workers_take_code_languages_from_the_page_source() -> None:
    site = _site_map(with_gone=False)
    fragment, source = "<pre><code>name = 1\n</code></pre>", "```toml\nname = 1\n```\n"
    pool = conversion_pool(1)
    try:
        background = BackgroundConversions(site_map=site, settings=Settings(), cache=None,
                                           pool=pool)
        background.submit(fragment, page_url=_url(0), source_markdown=source)
        found = background.results(site)[_url(0)]
    finally:
        if pool is not None:
            pool.close()
    assert background.converted_in_background == 1
    assert found == convert_fragment(fragment, page_url=_url(0), site_map=site,
                                     settings=Settings(), source_fences=fences_of(source))
    assert "```toml" in found.markdown


def test_a_page_handed_over_again_before_the_answers_takes_its_last_content() -> None:
    site = _site_map(with_gone=False)
    pool = conversion_pool(1)
    try:
        background = BackgroundConversions(site_map=site, settings=Settings(), cache=None,
                                           pool=pool)
        for number in range(3):
            background.submit(_fragment(number), page_url=_url(number))
        background.submit(_fragment(7), page_url=_url(1))  # page 1 changed meanwhile
        found = background.results(site)
    finally:
        if pool is not None:
            pool.close()
    assert background.converted_in_background == 3  # the first answer for page 1 is not
    assert found[_url(1)] == convert_fragment(_fragment(7), page_url=_url(1),
                                              site_map=site, settings=Settings())
    assert found[_url(0)] == _in_process(0, site)
    assert found[_url(2)] == _in_process(2, site)


def test_a_page_linking_to_a_page_left_out_later_is_converted_again() -> None:
    # In the workers, with the final site map: the build tool's process converts none.
    final = _site_map(with_gone=False)  # "gone" turned out to be excluded by front matter
    background, found = _run(2, final)
    assert set(found) == {_url(n) for n in range(COUNT)}
    assert background.kept == len([n for n in range(COUNT) if n % 3])
    for url, conversion in found.items():
        assert conversion == _in_process(int(url.rstrip("/").rsplit("p", 1)[1]), final)
    # No view links the left-out page's view (its HTML URL is what the site has).
    assert "gone.md" not in "".join(c.markdown for c in found.values())  # type: ignore[attr-defined]


def test_without_a_pool_nothing_is_converted_in_the_background() -> None:
    small = {_url(n): f"{BASE}p{n}.md" for n in range(2)}
    background, found = _run(0, small, pages=2, site=small)
    assert found == {}
    assert background.converted_in_background == 0
    assert conversion_pool(0) is None


def test_a_two_page_site_s_first_build_converts_in_the_worker() -> None:
    # Its pages never load lxml and the engine into the build tool's process.
    small = {_url(n): f"{BASE}p{n}.md" for n in range(2)}
    background, found = _run(worker_count(2, enabled=True, cpus=2), small, pages=2, site=small)
    assert background.converted_in_background == 2
    assert found == {_url(n): _in_process(n, small) for n in range(2)}


def test_the_one_page_a_reload_changed_goes_to_the_worker() -> None:
    final = _site_map(with_gone=True)
    background, found = _run(1, final, pages=1)
    assert background.converted_in_background == 1
    assert found == {_url(0): _in_process(0, final)}


def test_the_pool_serves_the_next_build_with_that_build_s_site_map() -> None:
    pool = conversion_pool(1)
    assert pool is not None
    try:
        first, second = _site_map(with_gone=True), _site_map(with_gone=False)
        processes = []
        for site in (first, second):
            background = BackgroundConversions(site_map=site, settings=Settings(), cache=None,
                                               pool=pool)
            for number in range(3):
                background.submit(_fragment(number), page_url=_url(number))
            found = background.results(site)
            assert found == {_url(n): _in_process(n, site) for n in range(3)}
            processes.append([worker.process.pid for worker in pool._workers])
        assert processes[0] == processes[1]  # the same process served both builds
    finally:
        pool.close()


def test_workers_fill_the_cache_and_a_rebuild_needs_none(tmp_path: Path) -> None:
    final = _site_map(with_gone=True)
    _, first = _run(1, final, ConversionCache(tmp_path))
    assert len(list(tmp_path.glob("*/*.json"))) == COUNT
    background, again = _run(1, final, ConversionCache(tmp_path))
    assert background.converted_in_background == 0
    assert again == first


def test_a_killed_worker_leaves_its_pages_to_the_caller() -> None:
    pool = conversion_pool(1)
    assert pool is not None
    background = BackgroundConversions(site_map=_site_map(with_gone=True), settings=Settings(),
                                       cache=None, pool=pool)
    for number in range(COUNT):
        background.submit(_fragment(number), page_url=_url(number))
    for worker in pool._workers:  # what a crash takes
        worker.process.kill()
    found = background.results(_site_map(with_gone=True))  # returns: no hang, no error
    assert set(found) <= {_url(n) for n in range(COUNT)}
    pool.close()


def test_worker_count_leaves_a_cpu_to_the_build() -> None:
    assert [worker_count(100, enabled=True, cpus=n) for n in (1, 2, 4, 16)] == [0, 1, 3, 4]
    # A build tool's pages, however few (a rebuild's one), go to a worker.
    assert [worker_count(n, enabled=True, cpus=16) for n in (0, 1, 2, 100)] == [0, 1, 2, 4]
    assert worker_count(MIN_PAGES, enabled=True, tool_busy=False, cpus=16) == 0
    assert worker_count(100, enabled=False, cpus=16) == 0
    # agentprose build waits for its workers: every CPU, two at least.
    assert [worker_count(100, enabled=True, tool_busy=False, cpus=n)
            for n in (1, 2, 4, 16)] == [0, 2, 4, 4]
    assert worker_count(100, enabled=True, most=1, cpus=16) == 1  # Sphinx's one


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
        if workers and worker_count(MIN_PAGES + 1, enabled=True) > 0:
            # The secret page too (its front matter is read later); the index page and
            # the secret page are all that links nowhere near the secret page.
            assert f"{COUNT + 2} {converted}, 2 of them kept" in done.stderr
        built[workers] = snapshot(root / "site")
    assert _without_times(built[True]) == _without_times(built[False])
    assert b"and secret." in built[True]["p1.md"]  # no link: the page has no view


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
    if worker_count(MIN_PAGES + 1, enabled=True) > 0:
        every = COUNT + 2
        assert f"{every} pages converted in background processes, {every} of them kept" in logs[0]
    assert "0 pages converted in background processes" in logs[1]


_SERVE = """
import logging, sys
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config

logging.basicConfig(level=logging.DEBUG, stream=sys.stderr)
config = load_config(config_file="mkdocs.yml")
config.plugins.on_startup(command="serve", dirty=False)
build(config)
page = Path("docs/p1.md")
page.write_text(page.read_text() + "\\nA paragraph added for the reload.\\n")
build(load_config(config_file="mkdocs.yml"))  # what serve does on a change
config.plugins.on_shutdown()
print("lxml" in sys.modules)
"""


def test_a_serve_reload_converts_in_the_worker_and_mkdocs_never_loads_lxml(
    tmp_path: Path,
) -> None:
    root = _big_site(tmp_path, workers=True, secret=False)
    done = subprocess.run([sys.executable, "-c", _SERVE], cwd=root, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "A paragraph added for the reload." in (root / "site" / "p1.md").read_text()
    if worker_count(MIN_PAGES + 1, enabled=True) > 0:
        assert done.stdout.strip() == "False"
        assert "1 pages converted in background processes, 1 of them kept" in done.stderr
