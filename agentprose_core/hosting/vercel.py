"""Vercel: the ``vercel.json`` routes that answer agent views by ``Accept`` with the
regular expressions of :mod:`.accept` (:mod:`.edge` says what routes cannot do)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import quote

from agentprose_core.agents import VARY_AGENTS, agent_pattern, crawler_pattern, signature_pattern
from agentprose_core.hosting.accept import ACCEPT_RULES, regex_escape
from agentprose_core.hosting.common import template_views
from agentprose_core.hosting.links import link_rules
from agentprose_core.sitepaths import SAFE, WELL_KNOWN, normalize_base_path

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["vercel_json"]

_MARKDOWN_TYPE = "text/markdown; charset=utf-8"


def _vercel_accept() -> str:
    """The Accept rules as one JavaScript regular expression matching the whole value."""
    terms = [rule.pcre().removeprefix("^") for rule in ACCEPT_RULES]
    terms = [t if t.startswith("(?") and t.endswith(")") and "(?=" in t else f"(?=.*?{t})"
             for t in terms]
    return "^(?:" + "|".join(terms) + ").*$"


def _caseless(pattern: str) -> str:
    """A pattern of :mod:`agentprose_core.agents` that matches in any case without a flag
    (Vercel's header conditions take none): letters become ``[aA]``, ``a-z`` in a class
    ``a-zA-Z``; escapes are left as they are."""
    out: list[str] = []
    position, in_class = 0, False
    while position < len(pattern):
        char = pattern[position]
        if char == "\\":
            out.append(pattern[position:position + 2])
            position += 2
            continue
        if in_class and pattern.startswith("a-z", position):
            out.append("a-zA-Z")
            position += 3
            continue
        if in_class:
            in_class = char != "]"
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
        else:
            out.append(f"[{char.lower()}{char.upper()}]" if char.isalpha() else char)
        position += 1
    return "".join(out)


def _vercel_header(key: str, pattern: str) -> dict[str, str]:
    """A ``has``/``missing`` condition: ``pattern`` anywhere in the header, in any case."""
    return {"type": "header", "key": key, "value": f"^.*?(?:{_caseless(pattern)}).*$"}


def _vercel_links(base: str, llms_scopes: Iterable[str], index: bool) -> list[dict[str, object]]:
    """A ``Link`` route per folder with an llms.txt; each leaves out the longer folders
    inside it, so that one route matches a page whatever order Vercel merges them in."""
    rules = [(quote(r.prefix, safe=SAFE), r) for r in link_rules(base, llms_scopes, index=index)
             if r.prefix is not None and r.links]
    routes: list[dict[str, object]] = []
    for path, rule in rules:
        inner = [other[len(path):] for other, _ in rules
                 if other != path and other.startswith(path)]
        skip = f"(?!{'|'.join(regex_escape(i) for i in inner)})" if inner else ""
        routes.append({"src": "^" + regex_escape(path) + skip + r"(?:.*/|.+\.html?)?$",
                       "headers": {"Link": rule.links}, "continue": True})
    return routes


def _vercel_hidden(base: str) -> str:
    """A route's ``src`` for a hidden file below the base (:func:`hidden
    <agentprose_core.sitepaths.hidden>`), first so no route answers its view: a dot
    spelt ``%2e`` counts too, whether or not the path is decoded before it is matched."""
    dot = r"(?:\.|%2[eE])"
    well_known = regex_escape(WELL_KNOWN[1:])
    return f"^{regex_escape(base)}(?:{dot}(?!{well_known}(?:/|$))|.*/{dot})"


def vercel_json(*, base_path: str = "/", view_layout: str = "sibling",
                llms_scopes: Iterable[str] = ("",), index: bool = True,
                detect_agents: bool = False) -> str:
    """``vercel.json`` with ``routes``: they run before static files, unlike ``rewrites``."""
    base = normalize_base_path(base_path)
    root, folder, file = template_views(view_layout)
    prefix = "^" + regex_escape(base)
    vary = VARY_AGENTS if detect_agents else "Accept"
    accept = [{"type": "header", "key": "accept", "value": _vercel_accept()}]
    no_crawler = [_vercel_header("user-agent", crawler_pattern())]
    conditions: list[dict[str, object]] = [{"has": accept}]
    if detect_agents:
        conditions += [{"has": [_vercel_header("user-agent", agent_pattern())],
                        "missing": no_crawler},
                       {"has": [_vercel_header("signature-agent", signature_pattern())],
                        "missing": no_crawler}]

    def negotiated(src: str, view: str) -> list[dict[str, object]]:
        dest = view.replace("${page}", "$1").replace("${ext}", "$2")
        return [{"src": src, **condition, "dest": base + dest,
                 "headers": {"Content-Type": _MARKDOWN_TYPE, "Vary": vary}}
                for condition in conditions]

    # A route cannot check that a file exists: a folder's page named by its file
    # (/a/index.html) gets the first of its views, /a/ the last, as view_url has them.
    named, bare = folder[0], folder[-1]
    folders = (negotiated(prefix + r"(.+)/(?:index\.html?)?$", named) if named == bare else
               [*negotiated(prefix + r"(.+)/index\.html?$", named),
                *negotiated(prefix + r"(.+)/$", bare)])

    routes = [
        {"src": _vercel_hidden(base), "status": 404},
        {"src": prefix + r".+\.md$", "headers": {"Content-Type": _MARKDOWN_TYPE},
         "continue": True},
        {"src": prefix + r"(?:.*/|.+\.html?)?$", "headers": {"Vary": vary},
         "continue": True},
        *_vercel_links(base, llms_scopes, index),
        *negotiated(prefix + r"(?:index\.html?)?$", root),
        *folders,
        *negotiated(prefix + r"(.+)(\.html?)$", file),
    ]
    return json.dumps({"routes": routes}, indent=2) + "\n"
