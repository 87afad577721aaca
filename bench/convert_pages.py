"""What converting a real page costs, stage by stage and rule by rule, and whether a change
to the converter keeps every page's bytes.

Reads sites that are already built (a folder with one folder per site, such as the
baseline builds of ``bench/realworld``), finds each page's main content as
``agentprose build`` does, and converts it with that site's own site map, so links
between its pages are rewritten as in a build. Three modes:

- the default prints milliseconds per page for each stage of
  :func:`~agentprose_core.convert.fragment.convert_fragment` (``flat_code_tokens``,
  parsing, normalize, serializing, the engine, the finishing rules) and for each rule
  that normalize calls, with the share of the whole;
- ``--digests FILE`` writes a digest of each page's conversion (its Markdown,
  headings, diagnostics, ids without an anchor), and ``--compare FILE`` then lists the
  pages whose conversion differs: the byte-identity check of a change, on every page;
- ``--corpus FILE`` keeps the extracted content (JSON lines) for the next run, which
  then skips reading the sites (about 20 s for the 25 harness sites).

    python bench/convert_pages.py SITES_DIR [--sites a,b] [--every N] [--rounds 2]
        [--engine html-to-markdown|markdownify] [--corpus FILE]
        [--digests FILE [--compare FILE]]

Timings are one process's, on a quiet machine; compare code versions by running them
alternately (``PYTHONPATH`` at each checkout) and read the ratios.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import sys
import time
import types
from pathlib import Path
from typing import Any

from agentprose_core.convert import normalize as normalize_module
from agentprose_core.convert.engines import run_engine
from agentprose_core.convert.flatcode import flat_code_tokens
from agentprose_core.convert.fragment import _finish, convert_fragment
from agentprose_core.convert.placeholders import leftover, splice
from agentprose_core.convert.tree import parse_fragment, to_html
from agentprose_core.extract.builtsite import find_pages, page_url_for
from agentprose_core.extract.page import has_view, parse_page
from agentprose_core.settings import Settings
from agentprose_core.urls import site_map

Page = dict[str, str]  # site, url, fragment


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sites_dir", type=Path)
    parser.add_argument("--sites", default="", help="comma-separated site folders (all)")
    parser.add_argument("--every", type=int, default=1, help="every Nth page only")
    parser.add_argument("--rounds", type=int, default=2, help="timed rounds after a warm-up")
    parser.add_argument("--engine", default="html-to-markdown")
    parser.add_argument("--corpus", type=Path, help="JSON lines of the pages' content")
    parser.add_argument("--digests", type=Path, help="write each page's digest here")
    parser.add_argument("--compare", type=Path, help="digests to compare with")
    return parser.parse_args()


def read_pages(sites_dir: Path, names: list[str]) -> list[Page]:
    """Every page with a view of the sites under ``sites_dir``: its content as HTML."""
    pages = []
    for site in sorted(path for path in sites_dir.iterdir() if path.is_dir()):
        if names and site.name not in names:
            continue
        for relative in find_pages(site):
            url = page_url_for(relative, f"https://{site.name}.example/")
            page = parse_page((site / relative).read_bytes(), url=url)
            if page.content is not None and has_view(page):
                pages.append({"site": site.name, "url": url, "fragment": to_html(page.content)})
    return pages


def _pages(args: argparse.Namespace) -> list[Page]:
    names = [name for name in args.sites.split(",") if name]
    if args.corpus is not None and args.corpus.exists():
        with args.corpus.open(encoding="utf-8") as stream:
            pages = [json.loads(line) for line in stream]
        pages = [page for page in pages if not names or page["site"] in names]
    else:
        pages = read_pages(args.sites_dir, names)
        if args.corpus is not None:
            args.corpus.write_text("".join(json.dumps(page) + "\n" for page in pages),
                                   encoding="utf-8")
    return pages[:: args.every]


def _site_maps(pages: list[Page]) -> dict[str, dict[str, str]]:
    urls: dict[str, list[str]] = collections.defaultdict(list)
    for page in pages:
        urls[page["site"]].append(page["url"])
    return {site: site_map(found, f"https://{site}.example/", "sibling")
            for site, found in urls.items()}


def _stages(page: Page, maps: dict[str, dict[str, str]], engine: str,
            times: dict[str, float]) -> None:
    """One conversion as convert_fragment makes it (without its fallbacks), timed."""
    clock = time.perf_counter
    start = clock()
    flat = flat_code_tokens(page["fragment"])
    parsed = clock()
    root = parse_fragment(flat)
    normalizing = clock()
    normalized = normalize_module.normalize(root, page_url=page["url"],
                                            site_map=maps[page["site"]])
    serializing = clock()
    document = to_html(normalized.root)
    converting = clock()
    markdown, _ = run_engine(document, engine, page["url"])
    finishing = clock()
    placeholders = normalized.placeholders
    leftover(splice(_finish(markdown, placeholders.separator), placeholders), placeholders)
    end = clock()
    for stage, began, ended in (("flat code tokens", start, parsed),
                                ("parse", parsed, normalizing),
                                ("normalize", normalizing, serializing),
                                ("serialize", serializing, converting),
                                ("engine", converting, finishing),
                                ("finish", finishing, end)):
        times[stage] += ended - began


def _timed_rules(times: dict[str, float]) -> None:
    """Wrap every function that normalize calls by name (and the index it builds), so
    that each call adds its time to ``times``."""
    names = normalize_module.normalize.__code__.co_names
    for name in names:
        found = getattr(normalize_module, name, None)
        if isinstance(found, types.FunctionType) or name == "ElementIndex":
            setattr(normalize_module, name, _timer(name, found, times))


def _timer(name: str, function: Any, times: dict[str, float]) -> Any:
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            times[name] += time.perf_counter() - began
    return timed


def _print_table(title: str, times: dict[str, float], count: int, whole: float) -> None:
    print(f"\n| {title} | ms a page | share of the conversion |\n|---|---|---|")
    for name, seconds in sorted(times.items(), key=lambda item: -item[1]):
        print(f"| {name} | {seconds / count * 1000:.3f} | {seconds / whole:.1%} |")


def profile(pages: list[Page], engine: str, rounds: int) -> None:
    maps = _site_maps(pages)
    stages: dict[str, float] = collections.defaultdict(float)
    rules: dict[str, float] = collections.defaultdict(float)
    for page in pages:  # warm-up: imports, compiled selectors, caches
        _stages(page, maps, engine, collections.defaultdict(float))
    _timed_rules(rules)
    for _ in range(rounds):
        for page in pages:
            _stages(page, maps, engine, stages)
    count = len(pages) * rounds
    whole = sum(stages.values())
    size = sum(len(page["fragment"].encode()) for page in pages) / len(pages) / 1024
    sites = len({page["site"] for page in pages})
    print(f"{len(pages)} pages of {sites} sites (content {size:.1f} KiB a page on average), "
          f"{rounds} rounds, {engine}: {whole / count * 1000:.3f} ms a page")
    _print_table("stage", stages, count, whole)
    _print_table("normalize's rule", rules, count, whole)


def digests(pages: list[Page], engine: str) -> dict[str, str]:
    """Each page's conversion, as a digest, by URL."""
    maps, settings = _site_maps(pages), Settings(converter=engine)  # type: ignore[arg-type]
    found = {}
    for page in pages:
        conversion = convert_fragment(page["fragment"], page_url=page["url"],
                                      site_map=maps[page["site"]], settings=settings)
        held = repr((conversion.markdown, conversion.headings, conversion.diagnostics,
                     conversion.unanchored))
        found[page["url"]] = hashlib.sha256(held.encode()).hexdigest()
    return found


def main() -> int:
    args = _arguments()
    pages = _pages(args)
    if not pages:
        print("no pages with a view found", file=sys.stderr)
        return 1
    if args.digests is None:
        profile(pages, args.engine, args.rounds)
        return 0
    found = digests(pages, args.engine)
    args.digests.write_text(json.dumps(found, indent=0, sort_keys=True), encoding="utf-8")
    print(f"{len(found)} pages converted with {args.engine}: digests in {args.digests}")
    if args.compare is None:
        return 0
    before = json.loads(args.compare.read_text(encoding="utf-8"))
    different = sorted(url for url in before.keys() | found.keys()
                       if before.get(url) != found.get(url))
    print(f"{len(different)} of {len(before.keys() | found.keys())} pages differ from "
          f"{args.compare}", *different[:20], sep="\n")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
