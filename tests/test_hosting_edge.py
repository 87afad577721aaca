"""The Accept rules for pattern-only servers, and the edge JavaScript run under Node.

The rules (:mod:`agentprose_core.hosting.accept`) are held to :func:`negotiate.choose`
on a fixed list with its documented differences and on random headers: they may answer
HTML where ``choose`` answers Markdown, never the other way round. The JavaScript of
the Cloudflare and Netlify functions must agree with ``choose`` exactly, compute the same
view URLs as :func:`urls.view_url`, and answer a page the way ``agentprose serve`` does.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from typing import TYPE_CHECKING, Any

import pytest

from agentprose_core.agents import VARY_AGENTS, agent_pattern, crawler_pattern, signature_pattern
from agentprose_core.hosting import edge as hosting_edge
from agentprose_core.hosting import vercel as hosting_vercel
from agentprose_core.hosting.accept import ACCEPT_RULES, markdown_by_rules, pcre_patterns
from agentprose_core.serve.negotiate import choose
from agentprose_core.settings import VIEW_LAYOUTS
from agentprose_core.urls import view_url

from .http_cases import (
    CASES,
    FOLDER_VIEWS,
    HIDDEN,
    HIDDEN_FILES,
    LINKS,
    MARKDOWN,
    NEGOTIATION,
    PROFILES,
    build_fixture_site,
    check_answer,
)
from .test_serve import CHOICES

if TYPE_CHECKING:
    from pathlib import Path

# Accept values where the rules and choose() differ, each one documented in
# hosting_accept's docstring and docs/hosting.md.
DIVERGENT = {
    "text/html;q=0, */*": "Markdown only through a wildcard",
    "text/*;q=0.9, text/html;q=0.5": "Markdown only through a wildcard",
    "text/markdown;q=0.05": "Markdown weighted below 0.1",
    "text/markdown;q=0.55, text/html;q=0.52": "weights past the first decimal",
    "text/markdown;q=0.55, text/html;q=0.55": "weights past the first decimal",
    "text/markdown;charset=iso-8859-1, text/html;q=0.1": "parameters are not read",
    'text/markdown;variant="GFM, strict";q=0.1, text/html;q=0.8': "a quoted comma",
    "text/markdown;q=0, text/markdown": "a type listed twice",
}
AGREEING = [
    "text/markdown;q=0.5, text/*;q=0.9, text/html;q=0.1",
    "text/markdown;q=0.9, text/html;q=0.8, */*",
    "text/markdown;q=0.55, text/html;q=0.5",
    "text/markdown;q=0.5, text/html;q=0.55",
    "text/markdown;q=0.9, */*;q=0.8",
    "text/markdown;q=0.3, */*",
    "text/markdown;q=0.5, application/json",
    "text/markdown;q=0.500, text/html;q=0.5",
    "text/markdown ; q=0.9 , text/html ; q=0.9",
    "text/markdown;variant=GFM",
    "text/markdown;quality=1",
    "text/markdownx, text/html;q=0.1",
    "text/plain, text/markdown;q=0.9, text/html;q=0.8, */*;q=0.1",
]
CORPUS = sorted({a for a, _, _ in CHOICES if a is not None}
                | {str(c.headers["Accept"]) for c in CASES if "Accept" in c.headers}
                | set(DIVERGENT) | set(AGREEING))

_TYPES = ("text/markdown", "text/html", "text/*", "*/*", "application/json", "TEXT/Markdown",
          "text/plain")
_PARAMS = ("", ";q=0", ";q=0.0", ";q=0.1", ";q=0.5", ";q=0.500", ";q=0.55", ";q=0.9", ";q=1",
           ";q=1.0", " ; q=0.8", ";q=0.05", ";level=1", ";level=1;q=0.7")
_ODD_PARAMS = (";q=bogus", ";q=1.5", ";charset=utf-8", ";charset=latin1", ';v="a,b";q=0.6',
               ";;q=0.4")


def _random_accepts(count: int, *, odd: bool) -> list[str]:
    """Accept values of 1-4 distinct types; ``odd`` adds what the rules do not read."""
    rng = random.Random(20260314)
    params = _PARAMS + (_ODD_PARAMS if odd else ())
    values = []
    for _ in range(count):
        types = rng.sample(_TYPES[:-2] if not odd else _TYPES, rng.randint(1, 4))
        if not odd and "text/markdown" in types and "TEXT/Markdown" in types:
            types.remove("TEXT/Markdown")
        values.append(rng.choice((",", ", ")).join(t + rng.choice(params) for t in types))
    return values


# --- the rules --------------------------------------------------------------------------

@pytest.mark.parametrize("accept", CORPUS)
def test_rules_agree_with_choose_except_where_documented(accept: str) -> None:
    agrees = markdown_by_rules(accept) == choose(accept).markdown
    assert agrees != (accept in DIVERGENT), DIVERGENT.get(accept, "an undocumented difference")


def test_rules_never_send_markdown_to_a_client_that_prefers_html() -> None:
    accepts = _random_accepts(3000, odd=False)
    wrong = [a for a in accepts if markdown_by_rules(a) and not choose(a).markdown]
    assert wrong == []
    # The other way, when Markdown is named and weighs 0.1 or more, only ties or
    # differences past the first decimal are missed.
    named = [a for a in accepts if choose(a).markdown and "text/markdown" in a.lower()
             and "q=0.05" not in a]
    missed = [a for a in named if not markdown_by_rules(a)]
    assert all(re.search(r"q=0\.\d[1-9]", a) for a in missed), missed
    assert len(missed) < 0.02 * len(named)


def test_pcre_patterns_say_what_the_rules_say() -> None:
    for accept in [*CORPUS, *_random_accepts(500, odd=True)]:
        by_pattern = any(re.search(p, accept, re.IGNORECASE) for p in pcre_patterns())
        assert by_pattern == markdown_by_rules(accept), accept


def test_patterns_avoid_what_some_engine_lacks() -> None:
    for rule in ACCEPT_RULES:
        for pattern in (*rule.present, *rule.absent):
            assert "{" not in pattern  # Caddy placeholders
            assert "(?=" not in pattern
            assert "(?!" not in pattern
            assert "(?<" not in pattern
            assert "\\t" not in pattern
            assert "\\n" not in pattern


# --- the JavaScript, under Node ---------------------------------------------------------

DRIVER = r"""
import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const m = await import(input.module);

const files = input.files;
const type = (p) => p.endsWith(".md") ? "text/markdown" : p.endsWith(".html") ?
  "text/html; charset=utf-8" : "application/octet-stream";
function serve(path, method = "GET") {   // the host's static files, for the fake platform
  path = decodeURIComponent(path);        // as a host does, %2e included
  let found = path.endsWith("/") ? path + "index.html" : path;
  if (!(found in files)) {
    return new Response(method === "HEAD" ? null : files["/docs/404.html"],
                        { status: 404, headers: { "Content-Type": type(".html") } });
  }
  return new Response(method === "HEAD" ? null : files[found],
                      { headers: { "Content-Type": type(found), "ETag": `"${found}"` } });
}
const asset = async (request) => serve(new URL(request.url).pathname, request.method);
globalThis.fetch = asset;                 // Netlify fetches the view from its own site

async function call(request) {
  const next = async () => serve(new URL(request.url).pathname, request.method);
  if (input.platform === "cloudflare") {
    return m.onRequest({ request, next, env: { ASSETS: { fetch: asset } } });
  }
  return m.default(request, { next });
}

const answers = [];
for (const [method, path, headers] of input.requests) {
  const response = await call(new Request("https://coast.example" + path, { method, headers }));
  answers.push({ status: response.status, type: response.headers.get("Content-Type"),
                 vary: response.headers.get("Vary"), link: response.headers.get("Link"),
                 location: response.headers.get("Content-Location"),
                 headers: Object.fromEntries(response.headers),
                 body: await response.text() });
}
console.log(JSON.stringify({
  accepts: input.accepts.map((a) => m.prefersMarkdown(a)),
  views: input.paths.map((p) => m.viewPaths(p)),
  answers,
}));
"""

FILES = {
    "/docs/index.html": "<html>home", "/docs/index.md": "# home",
    "/docs/tide-pools/index.html": "<html>tide", "/docs/tide-pools.md": "# tide",
    "/docs/rock-pools.html": "<html>rock", "/docs/rock-pools.md": "# rock",
    "/docs/about/index.html": "<html>about", "/docs/404.html": "<html>not found",
}
SCOPES = ("", "tide-pools/")  # the folders with an llms.txt
INDEX = '</docs/agentprose.json>; rel="agentprose-index"; type="application/json"'
ROOT = f'</docs/llms.txt>; rel="describedby", {INDEX}'
SECTION = f'</docs/tide-pools/llms.txt>; rel="describedby", {INDEX}'
TIDE_VIEW = '</docs/tide-pools.md>; rel="alternate"; type="text/markdown"'
MISSING = ("# Page not found\n\nThis page does not exist.\n\n"
           "- [llms.txt](/docs/llms.txt): the pages of this site\n"
           "- [agentprose.json](/docs/agentprose.json): the index of every page\n")
REQUESTS = [  # method, path, Accept -> status, body, Vary, Link
    ("GET", "/docs/tide-pools/", "text/markdown", 200, "# tide", "Accept", SECTION),
    ("GET", "/docs/tide-pools/", "text/html", 200, "<html>tide", "Accept",
     f"{TIDE_VIEW}, {SECTION}"),
    ("GET", "/docs/tide-pools/", "text/html, text/markdown", 200, "# tide", "Accept", SECTION),
    ("GET", "/docs/", "text/markdown, text/html;q=0.8", 200, "# home", "Accept", ROOT),
    ("GET", "/docs/rock-pools.html", "text/markdown", 200, "# rock", "Accept", ROOT),
    ("GET", "/docs/rock-pools", "text/markdown", 200, "# rock", "Accept", ROOT),
    ("HEAD", "/docs/tide-pools/", "text/markdown", 200, "", "Accept", SECTION),
    ("GET", "/docs/tide-pools/", "*/*", 200, "<html>tide", "Accept",
     f"{TIDE_VIEW}, {SECTION}"),
    ("GET", "/docs/rock-pools.html", "text/html", 200, "<html>rock", "Accept",
     f'</docs/rock-pools.md>; rel="alternate"; type="text/markdown", {ROOT}'),
    ("GET", "/docs/about/", "text/markdown", 200, "<html>about", None, None),
    ("GET", "/docs/no-such-page/", "text/markdown", 404, MISSING, "Accept", None),
    ("HEAD", "/docs/no-such-page/", "text/markdown", 404, "", "Accept", None),
    ("GET", "/docs/tide-pools/gone/", "text/markdown", 404,
     MISSING.replace("/docs/llms.txt", "/docs/tide-pools/llms.txt"), "Accept", None),
    ("GET", "/docs/no-such-page/", "text/html", 404, "<html>not found", None, None),
    ("GET", "/docs/no-such-page/", "*/*", 404, "<html>not found", None, None),
    ("POST", "/docs/tide-pools/", "text/markdown", 200, "<html>tide", None, None),
    ("GET", "/docs/tide-pools.md", None, 200, "# tide", None, None),
]


def _node() -> str:
    found = shutil.which("node") or shutil.which("nodejs")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("node is not installed (.ci/run installs nodejs)")
    pytest.skip("node is not installed")


def _run_js(tmp_path: Path, source: str, platform: str, **extra: Any) -> dict[str, Any]:
    module = tmp_path / f"{platform}.mjs"
    module.write_text(source, encoding="utf-8")
    driver = tmp_path / "driver.mjs"
    driver.write_text(DRIVER, encoding="utf-8")
    requests = [(m, p, {} if a is None else {"Accept": a}) for m, p, a, *_ in REQUESTS]
    payload = {"module": module.as_uri(), "platform": platform, "files": FILES,
               "requests": requests, "accepts": [], "paths": [], **extra}
    done = subprocess.run([_node(), str(driver)], input=json.dumps(payload), text=True,
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("platform", ["cloudflare", "netlify"])
def test_edge_function_answers_like_agentprose_serve(tmp_path: Path, platform: str) -> None:
    make = (hosting_edge.cloudflare_function if platform == "cloudflare"
            else hosting_edge.netlify_edge_function)
    answers = _run_js(tmp_path, make(base_path="/docs/", llms_scopes=SCOPES),
                      platform)["answers"]
    for (method, path, accept, status, body, vary, link), got in zip(REQUESTS, answers,
                                                                     strict=True):
        where = f"{method} {path} {accept}"
        assert (got["status"], got["body"], got["vary"], got["link"]) == \
            (status, body, vary, link), where
        if body.startswith("#") or (accept == "text/markdown" and status == 404):
            assert got["type"] == "text/markdown; charset=utf-8", where
        if status == 200 and vary and body.startswith("#") and path != "/docs/tide-pools.md":
            assert got["location"], where
            assert got["location"].endswith(".md"), where


@pytest.mark.parametrize("detect", [False, True], ids=["detection-off", "detection-on"])
@pytest.mark.parametrize("platform", ["cloudflare", "netlify"])
def test_edge_function_agent_detection(tmp_path: Path, platform: str, detect: bool) -> None:
    """The profiles of ``http_cases.PROFILES``: representation, Vary, the Markdown 404."""
    make = (hosting_edge.cloudflare_function if platform == "cloudflare"
            else hosting_edge.netlify_edge_function)
    requests = [(method, path, dict(p.headers)) for p in PROFILES
                for method, path in (("GET", "/docs/tide-pools/"), ("HEAD", "/docs/tide-pools/"),
                                     ("GET", "/docs/no-such-page/"))]
    answers = iter(_run_js(tmp_path, make(base_path="/docs/", llms_scopes=SCOPES,
                                          detect_agents=detect), platform,
                           requests=requests)["answers"])
    vary = VARY_AGENTS if detect else "Accept"
    for profile in PROFILES:
        markdown = profile.markdown_on if detect else profile.markdown_off
        kind = "text/markdown; charset=utf-8" if markdown else "text/html; charset=utf-8"
        get, head, missing = next(answers), next(answers), next(answers)
        assert (get["type"], get["vary"], get["body"]) == \
            (kind, vary, "# tide" if markdown else "<html>tide"), profile.name
        assert (head["type"], head["vary"], head["body"]) == (kind, vary, ""), profile.name
        assert (missing["status"], missing["type"]) == (404, kind), profile.name
        assert missing["body"].startswith("# Page not found" if markdown else "<html>")

@pytest.fixture(scope="module")
def site_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The pages and views of the shared fixture site built for ``/docs/``, by URL path."""
    site = build_fixture_site(tmp_path_factory.mktemp("edge") / "site",
                              "https://coast.example/docs/")
    return {"/docs/" + path.relative_to(site).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(site.rglob("*"))
            if (path.suffix in (".html", ".md") or path.relative_to(site).as_posix() in
                HIDDEN_FILES) and not path.is_symlink()}


@pytest.mark.parametrize("platform", ["cloudflare", "netlify"])
def test_edge_function_answers_the_shared_table(tmp_path: Path, platform: str,
                                                site_files: dict[str, str]) -> None:
    """The cases of ``http_cases`` a page's answer decides (negotiation, a folder's two
    views, links, hidden files), on the fixture site's files, which the fake host serves
    hidden ones included; the static host's own part (validators, 304, traversal) is the
    platform's."""
    make = (hosting_edge.cloudflare_function if platform == "cloudflare"
            else hosting_edge.netlify_edge_function)
    cases = [*NEGOTIATION, *FOLDER_VIEWS, *LINKS, *HIDDEN]
    requests = [(case.method, "/docs/" + case.path, dict(case.headers)) for case in cases]
    answers = _run_js(tmp_path, make(base_path="/docs/", llms_scopes=SCOPES), platform,
                      files=site_files, requests=requests)["answers"]
    failures = [f"{case.name} ({case.method} {case.path}): {problem}"
                for case, got in zip(cases, answers, strict=True)
                for problem in check_answer(case, "/docs/", got["status"], got["headers"],
                                            got["body"].encode())]
    assert failures == []


def test_javascript_negotiation_is_choose(tmp_path: Path) -> None:
    accepts = [*CORPUS, *_random_accepts(3000, odd=True)]
    got = _run_js(tmp_path, hosting_edge.cloudflare_function(), "cloudflare",
                  accepts=accepts, requests=[])["accepts"]
    assert [a for a, md in zip(accepts, got, strict=True)
            if md != choose(a).markdown] == []


PAGES = ["", "index.html", "tide-pools/", "tide-pools/index.html", "a/b/", "a/b/index.htm",
         "rock-pools.html", "a/page.htm", "caf%C3%A9/"]


def _view_urls(origin: str, base: str, page: str, layout: str) -> list[str]:
    """Where the view of the page at ``page`` may be: a folder's page has the views of its
    two URLs (``a/`` and ``a/index.html``), the one that names the file first."""
    folder = re.sub(r"index\.html?$", "", page)
    forms = [folder + "index.html", folder] if folder.endswith("/") else [page]
    found: list[str] = []
    for form in forms:
        view = view_url(origin + base + form, origin + base, layout)[len(origin):]
        found += [] if view in found else [view]
    return found


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("base", ["/", "/docs/"])
def test_javascript_view_paths_are_view_url(tmp_path: Path, layout: str, base: str) -> None:
    source = hosting_edge.cloudflare_function(base_path=base, view_layout=layout)
    paths = [base + p for p in PAGES] + [base + "style.css", "/elsewhere/" if base != "/"
                                         else "/x.md"]
    got = _run_js(tmp_path, source, "cloudflare", paths=paths, requests=[])["views"]
    origin = "https://coast.example"
    wanted = [_view_urls(origin, base, p, layout) for p in PAGES]
    assert got == [*wanted, None, None]
    if layout == "sibling":  # a folder's page: Sphinx's view, then MkDocs'
        assert got[PAGES.index("a/b/")] == [base + "a/b/index.md", base + "a/b.md"]


# --- Vercel -----------------------------------------------------------------------------

VERCEL_DRIVER = r"""
import { readFileSync } from "node:fs";
const { config, accepts, paths, requests = [] } = JSON.parse(readFileSync(0, "utf8"));
const routes = config.routes;
const value = routes.find((r) => r.has).has[0].value;

// What Vercel does with routes, as documented: the first route whose src, has and missing
// hold gives its headers; "continue" goes on to the next, "dest" ends the search.
function route(path, headers) {
  const out = { headers: {}, dest: null, status: null };
  const holds = (c) => headers[c.key] !== undefined && new RegExp(c.value).test(headers[c.key]);
  for (const r of routes) {
    const m = new RegExp(r.src).exec(path);
    if (!m || (r.has ?? []).some((c) => !holds(c)) || (r.missing ?? []).some(holds)) continue;
    Object.assign(out.headers, r.headers ?? {});
    if (r.status) out.status = r.status;
    if (r.dest) {
      out.dest = r.dest.replace(/\$(\d)/g, (_, i) => m[Number(i)]);
      return out;
    }
    if (!r.continue) return out;
  }
  return out;
}

const out = {
  routed: requests.map(([path, headers]) => route(path, headers)),
  accepts: accepts.map((a) => new RegExp(`^${value}$`).test(a) && new RegExp(value).test(a)),
  dests: paths.map((p) => {
    for (const r of routes) {
      const m = new RegExp(r.src).exec(p);
      if (m && r.dest) return r.dest.replace(/\$(\d)/g, (_, i) => m[Number(i)]);
    }
    return null;
  }),
};
console.log(JSON.stringify(out));
"""


def test_vercel_routes(tmp_path: Path) -> None:
    config = json.loads(hosting_edge.vercel_json(base_path="/docs/"))
    driver = tmp_path / "vercel.mjs"
    driver.write_text(VERCEL_DRIVER, encoding="utf-8")
    accepts = [a for a in CORPUS if a == a.lower()]
    paths = ["/docs/", "/docs/index.html", "/docs/tide-pools/", "/docs/tide-pools/index.html",
             "/docs/rock-pools.html", "/docs/tide-pools.md", "/docs/style.css", "/other/",
             "/docs/a/b/index.htm"]
    done = subprocess.run([_node(), str(driver)], text=True, capture_output=True, timeout=60,
                          input=json.dumps({"config": config, "accepts": accepts,
                                            "paths": paths}), check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["accepts"] == [markdown_by_rules(a) for a in accepts]
    # A route cannot check that a view exists: each URL of a folder's page goes to the
    # view that URL gives (view_url), /a/index.html to /a/index.md, /a/ to /a.md.
    assert result["dests"] == ["/docs/index.md", "/docs/index.md", "/docs/tide-pools.md",
                               "/docs/tide-pools/index.md", "/docs/rock-pools.md", None, None,
                               None, "/docs/a/b/index.md"]


def _route(tmp_path: Path, config: dict[str, Any],
           requests: list[tuple[str, dict[str, str]]]) -> list[dict[str, Any]]:
    driver = tmp_path / "vercel.mjs"
    driver.write_text(VERCEL_DRIVER, encoding="utf-8")
    payload = {"config": config, "accepts": [], "paths": [],
               "requests": [(path, {k.lower(): v for k, v in headers.items()})
                            for path, headers in requests]}
    done = subprocess.run([_node(), str(driver)], text=True, capture_output=True, timeout=60,
                          input=json.dumps(payload), check=False)
    assert done.returncode == 0, done.stderr
    routed: list[dict[str, Any]] = json.loads(done.stdout)["routed"]
    return routed


@pytest.mark.parametrize("detect", [False, True], ids=["detection-off", "detection-on"])
def test_vercel_agent_detection_and_links(tmp_path: Path, detect: bool) -> None:
    config = json.loads(hosting_edge.vercel_json(base_path="/docs/", llms_scopes=SCOPES,
                                                 detect_agents=detect))
    pages = (("/docs/tide-pools/", "/docs/tide-pools.md", SECTION),
             ("/docs/rock-pools.html", "/docs/rock-pools.md", ROOT))
    requests = [(page, dict(p.headers)) for p in PROFILES for page, _, _ in pages]
    routed = iter(_route(tmp_path, config, requests))
    vary = VARY_AGENTS if detect else "Accept"
    for profile in PROFILES:
        markdown = profile.markdown_on if detect else profile.markdown_off
        for page, view, link in pages:
            got = next(routed)
            assert (got["dest"], got["headers"].get("Vary"), got["headers"].get("Link")) == \
                (view if markdown else None, vary, link), (profile.name, page)


@pytest.mark.parametrize("base", ["/", "/docs/"])
def test_vercel_refuses_hidden_files(tmp_path: Path, base: str) -> None:
    """The first route answers 404 to a hidden file, in Markdown too (no view route runs),
    however the dot is spelt; the top-level .well-known folder is served."""
    config = json.loads(hosting_edge.vercel_json(base_path=base, detect_agents=True))
    hidden = [".env", ".git/config", "%2egit/config", "%2Egit/", "sub/.hidden/page.html",
              "sub/.hidden/", ".well-known/.secret", ".well-known/%2esecret", "a/.well-known/x"]
    served = [".well-known/security.txt", ".well-known/", "tide-pools/", "a.b/c.d", "x."]
    requests = [(base + path, headers) for path in [*hidden, *served]
                for headers in ({}, {"Accept": MARKDOWN})]
    routed = _route(tmp_path, config, requests)
    got = [(path, r["status"], r["dest"]) for (path, _), r in zip(requests, routed, strict=True)]
    assert [g for g in got[:2 * len(hidden)] if g[1:] != (404, None)] == []
    assert [g for g in got[2 * len(hidden):] if g[1] is not None] == []


def test_vercel_conditions_ignore_case() -> None:
    """Vercel's header conditions take no flag: the patterns spell out both cases."""
    samples = [p.headers.get("User-Agent", "") for p in PROFILES] + [
        "CLAUDE-USER/1.0", "claude-user", "xclaude-user", "NotClaude-User", "Claude-Users",
        "GOOGLEBOT/2.1", '"HTTPS://ChatGPT.com"', "https://chatgpt.com/", "chatgpt.com"]
    for pattern in (agent_pattern(), crawler_pattern(), signature_pattern()):
        caseless = hosting_vercel._caseless(pattern)
        for sample in samples:
            assert bool(re.search(caseless, sample)) == \
                bool(re.search(pattern, sample, re.IGNORECASE)), (pattern, sample)
