"""How conversion time grows with a page's size, one repeated construct at a time.

Each construct is converted at N and 4N copies in one page (one run, both sizes side
by side); the ratio of the two times is about 4 where the conversion is linear, and
about 16 where something is quadratic (a hostile or generated page of millions of
elements would take hours). A measurement, never a test.

    python bench/scaling.py [--count 5000] [--engine html-to-markdown]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agentprose_core.convert.fragment import convert_fragment
from agentprose_core.settings import ENGINES, Settings

CONSTRUCTS = {  # "{n}" is the copy's number, where each needs its own id or target
    "paragraphs": "<p>w</p>",
    "list items": "<li>w</li>",
    "links": '<a href="../x/">w</a> ',
    "ids": '<span id="i{n}">w</span>',
    "code spans": "<code>w</code> ",
    "table rows": "<tr><td>w</td><td>v</td></tr>",
    "headings": "<h2>w{n}</h2>",
    "line breaks": "w<br>",
    "definitions": "<dt>t</dt><dd>d</dd>",
    "emphasis runs": "<i>a</i>",
    "raised links": '<sup><a href="#f">1</a></sup>',
    "footnote marks": '<a class="footnote-reference" href="#f{n}">[1]</a>',
    "code blocks": "<pre>x\n</pre>",
    "syntax characters": "* _ ` ",
}
WRAPPERS = {"list items": "<ul>{}</ul>", "table rows": "<table>{}</table>",
            "definitions": "<dl>{}</dl>"}


def seconds(name: str, copies: int, engine: str) -> float:
    unit = CONSTRUCTS[name]
    body = "".join(unit.format(n=i) for i in range(copies)) if "{n}" in unit else unit * copies
    page = WRAPPERS.get(name, "<div>{}</div>").format(body)
    started = time.perf_counter()
    convert_fragment(page, page_url="https://x.example/p/", site_map={},
                     settings=Settings(converter=engine))  # type: ignore[arg-type]
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=5000)
    parser.add_argument("--engine", choices=ENGINES, default="html-to-markdown")
    args = parser.parse_args()
    print(f"| construct | {args.count} copies (s) | {4 * args.count} copies (s) | ratio |")
    print("|---|---|---|---|")
    for name in CONSTRUCTS:
        small, large = (seconds(name, n, args.engine) for n in (args.count, 4 * args.count))
        print(f"| {name} | {small:.3f} | {large:.3f} | {large / max(small, 1e-9):.1f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
