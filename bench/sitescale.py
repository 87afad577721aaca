"""How agentprose's cost grows with a site's pages: generated HTML sites of several
sizes through ``agentprose build``, time and memory per page, and the slope.

Each size gets a site of its own (``--sizes``, default 1,000, 3,000 and 10,000 pages),
generated in seconds, deterministic (a fixed seed) and committed to git: pages in
sections of 50, each with a nav of its section, headings, paragraphs that link five
other pages (one in three to a heading of it), a table and a code block. The same pages
at every size, so the cost per page should not move: a step that is quadratic in pages
or links shows as a cost per page that grows with the site. ``agentprose build``
exercises every part of the core (conversion in its workers, records, the link check,
``agentprose.json``, ``llms.txt`` and the sections' files); the build tools' glue is
timed by ``bench/perf.py``.

    python bench/sitescale.py [--sizes 1000,3000,10000] [--rounds 1] [--keep DIR]

Prints one row per size: wall and CPU (the workers' included) per page, the peak
memory of the largest process, and between sizes the added cost of each added page
(the slope) next to the cost per page of the smaller site. A measurement: exits 0
whatever it finds (1 when a build fails).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent / "perf"))

from measure import Sample, run_measured  # noqa: E402

BASE_URL = "https://scale.example/docs/"
SECTION = 50
_WORDS = ["tide", "pool", "rock", "barnacle", "anemone", "limpet", "kelp", "shore", "wave",
          "current", "reef", "crab", "mussel", "urchin", "algae", "salt", "sand", "shell",
          "drift", "moon", "spring", "neap"]


def _url(number: int) -> str:
    return f"{BASE_URL}s{number // SECTION}/p{number}/"


def _sentence(rng: random.Random, words: int = 14) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _page(number: int, pages: int, rng: random.Random) -> str:
    section = number // SECTION
    first = section * SECTION
    nav = "".join(f'<li><a href="{_url(n)}">Page {n}</a></li>'
                  for n in range(first, min(first + SECTION, pages)))
    links = []
    for _ in range(5):
        other = rng.randrange(pages)
        fragment = "#details" if rng.random() < 1 / 3 else ""
        links.append(f'<a href="{_url(other)}{fragment}">page {other}</a>')
    body = [
        f"<h1>Page {number}</h1>",
        f"<p>{_sentence(rng)} See {', '.join(links)}.</p>",
        *(f"<p>{_sentence(rng, 30)}</p>" for _ in range(4)),
        '<h2 id="details">Details</h2>',
        f"<p>{_sentence(rng, 40)}</p>",
        "<table><thead><tr><th>Name</th><th>Value</th></tr></thead><tbody>"
        + "".join(f"<tr><td>{rng.choice(_WORDS)}</td><td>{n}</td></tr>" for n in range(5))
        + "</tbody></table>",
        '<div class="highlight"><pre><code class="language-python">'
        + "\n".join(f"{rng.choice(_WORDS)}_{n} = {n}  # {rng.choice(_WORDS)}"
                    for n in range(12)) + "\n</code></pre></div>",
        '<h2 id="more">More</h2>',
        *(f"<p>{_sentence(rng, 25)}</p>" for _ in range(3)),
    ]
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f"<title>Page {number} - Scale</title>"
            f'<link rel="canonical" href="{_url(number)}"></head>'
            f'<body><nav class="sidebar"><ul>{nav}</ul></nav>'
            f'<main><article>{"".join(body)}</article></main>'
            f"<footer>Scale docs</footer></body></html>")


def write_site(folder: Path, pages: int) -> None:
    """``pages`` generated pages under ``folder``, the same bytes for the same size."""
    rng = random.Random(45)
    for number in range(pages):
        target = folder / f"s{number // SECTION}" / f"p{number}" / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_page(number, pages, rng), encoding="utf-8")
    (folder / "index.html").write_text(_page(0, pages, random.Random(0)).replace(
        _url(0), BASE_URL), encoding="utf-8")
    # One commit, so that the pages are dated by git as a real site's are.
    env = {**os.environ, "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
           "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z", "GIT_AUTHOR_NAME": "scale",
           "GIT_AUTHOR_EMAIL": "scale@example.com", "GIT_COMMITTER_NAME": "scale",
           "GIT_COMMITTER_EMAIL": "scale@example.com"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "pages"]):
        subprocess.run(["git", *command], cwd=folder, env=env, check=True)


def _measure(folder: Path, pages: int, rounds: int) -> Sample:
    best: Sample | None = None
    for _ in range(rounds):
        site = folder / f"site-{pages}"
        shutil.rmtree(site, ignore_errors=True)
        write_site(site, pages)
        command = [sys.executable, "-m", "agentprose_core.cli", "build", str(site),
                   "--base-url", BASE_URL, "--quiet"]
        sample, output = run_measured(command, cwd=folder, env=dict(os.environ))
        if sample.error:
            raise SystemExit(f"{pages} pages: the build failed: {sample.error}\n{output}")
        best = sample if best is None or sample.wall < best.wall else best
        shutil.rmtree(site, ignore_errors=True)
    assert best is not None
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,3000,10000")
    parser.add_argument("--rounds", type=int, default=1, help="builds per size (the fastest)")
    parser.add_argument("--keep", type=Path, help="work in this folder, kept")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    folder = args.keep or Path(tempfile.mkdtemp(prefix="agentprose-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    results = {}
    try:
        for pages in sizes:
            results[pages] = _measure(folder, pages, args.rounds)
            sample = results[pages]
            print(f"  {pages} pages: {sample.wall:.1f} s wall, {sample.cpu:.1f} s CPU, "
                  f"{sample.rss / 1024:.0f} MiB", file=sys.stderr, flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    print("| pages | wall s | CPU s | ms/page wall | ms/page CPU | peak MiB | KiB/page "
          "| added ms/page (wall, CPU) and KiB/page since the size before |")
    print("|---|---|---|---|---|---|---|---|")
    previous: tuple[int, Sample] | None = None
    for pages, sample in results.items():
        slope = ""
        if previous is not None:
            added, before = pages - previous[0], previous[1]
            slope = (f"{(sample.wall - before.wall) / added * 1000:.2f}, "
                     f"{(sample.cpu - before.cpu) / added * 1000:.2f}; "
                     f"{(sample.rss - before.rss) / added:.1f}")
        print(f"| {pages:,} | {sample.wall:.1f} | {sample.cpu:.1f} | "
              f"{sample.wall / pages * 1000:.2f} | {sample.cpu / pages * 1000:.2f} | "
              f"{sample.rss / 1024:.0f} | {sample.rss / pages:.1f} | "
              f"{slope} |")
        previous = (pages, sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())
