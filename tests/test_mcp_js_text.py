"""The text rules the JavaScript tools hold to Python's, on 2,000 generated strings of
every kind the docs have (ASCII, accents, identifiers, CJK, emoji and other astral
characters, Python's and JavaScript's whitespace, control characters, quotes, links,
anchors, percent-encoding): ``repr``, lengths, ``split``, ``strip``, the search terms and
query weights, API names, page keys, link text, quoting, capping, ``round`` and float
text, and code-point order."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

from agentprose_core.mcp import tools
from agentprose_core.mcp.markdown import without_markup
from agentprose_core.search.terms import names_in, query_terms, terms
from agentprose_core.urls import page_key

from .test_mcp_js import _node

ROOT = Path(__file__).resolve().parent.parent
_PIECES = ["get_page", "HTTPServer", "Flask.url_for", "installing", "policies", "Café",
           "ÉCOLE", "naïve", "ß", "İstanbul", "ΣΑΣ", "日本語", "한국어", "𝔸𝕓", "😀",
           "𠀀𠀀ing", "x\u0301", "ﬁle", "١٢٣", "½", "\t", "\n", "\x0b", "\x1c", "\x85",
           "\xa0", "\u2003", "\u2028", "\ufeff", "\u200b", "\x07", "'", '"', "\\",
           "[a link](https://x.example/p)", '<a id="api.thing"></a>', "%C3%A9", "%zz",
           "index.html", "a b", "#", "...", "_", "snake_case_name", "CamelCase", "v2.0",
           "12", "-", " ", "  "]


def _strings(count: int) -> list[str]:
    rng = random.Random(44)
    found = list(_PIECES)
    while len(found) < count:
        found.append("".join(rng.choice(_PIECES) + rng.choice(["", " ", "", "."])
                             for _ in range(rng.randint(1, 6))))
    return found


def test_the_javascript_text_rules_are_pythons() -> None:
    strings = _strings(2_000)
    done = subprocess.run([_node(), str(ROOT / "tests" / "js" / "text_cases.mjs")],
                          input=json.dumps(strings), capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    ours = json.loads(done.stdout)
    numbers = [(at * 7919 % 100003) / 977.0 + at / 3 for at in range(len(strings))]
    expected = {
        "repr": [repr(s) for s in strings],
        "len": [len(s) for s in strings],
        "collapse": [" ".join(s.split()) for s in strings],
        "strip": [s.strip() for s in strings],
        "terms": [terms(s) for s in strings],
        "query": [[list(pair) for pair in query_terms(s).items()] for s in strings],
        "names": [sorted(names_in(s)) for s in strings],
        "key": [page_key("https://Docs.Example/a/" + s) for s in strings],
        "plain": [without_markup(s) for s in strings],
        "quoted": [tools.quoted(s) for s in strings],
        "capped": [tools.capped(s * 40, 300) for s in strings],
        "round": [[round(n, 4), round(n, 2), repr(round(n, 4))] for n in numbers],
        "sorted": sorted(strings),
    }
    for name, values in expected.items():
        for at, (got, want) in enumerate(zip(ours[name], values, strict=True)):
            assert got == want, (name, strings[at] if name != "round" else numbers[at])
