"""Hosts without a server configuration: Netlify, Cloudflare Pages, Vercel.

A static host's header file can type ``.md`` files but cannot choose between a page's
HTML and its view: that takes code at the edge. :func:`cloudflare_function` and
:func:`netlify_edge_function` return the same JavaScript, a port of
:func:`agentprose_core.serve.negotiate.choose` plus where a page's view may be, wrapped in
each platform's entry point. :func:`vercel_json` uses Vercel's ``routes`` instead, which
match ``Accept`` with the regular expressions of :mod:`.accept`.

In the sibling layout a folder's URL (``/a/``, ``/a/index.html``) cannot tell where its
build put the view: ``/a/index.md`` when the page's URL named its file (Sphinx's html
builder, MkDocs without directory URLs, or a folder beside a page ``/a.html`` that has
``/a.md``), ``/a.md`` when it was the folder (MkDocs). The functions fetch
``/a/index.md`` first, then ``/a.md`` (one more fetch for a MkDocs page), and name the one
found in ``Link`` and ``Content-Location``. Vercel's routes cannot check that a file
exists: ``/a/index.html`` goes to ``/a/index.md`` and ``/a/`` to ``/a.md``, what each URL
itself gives (:func:`agentprose_core.urls.view_url`), so the other form of a folder's URL
answers ``404`` to Markdown, and ``/a/`` beside ``/a.html`` answers that page's view.

What each can do of the rest (``Link`` headers, agent detection, the Markdown ``404``):

- The edge functions do all of it, as ``agentprose serve`` does.
- Vercel's ``routes`` send ``Link`` with the covering ``llms.txt`` and the index on every
  page URL, but not the view's link (a route cannot check that a view exists), and
  detect agents with ``has``/``missing`` header conditions. They cannot send a Markdown
  ``404``: a route answers with a file of the site or nothing, so it would take a
  Markdown file written into the site.
- The ``_headers`` files cannot tell requests apart by their headers: no detection and no
  Markdown ``404``. Their ``Link`` rules give the covering ``llms.txt`` and the index.
  Netlify's paths only end with ``*``, so its rules cover every file under a folder, and
  of several matching rules the last one's ``Link`` is sent (so the longest folder comes
  last). Cloudflare's rules are limited to page URLs (``/``, ``*/``, ``*.html``); as it
  joins the values of every matching rule, a folder's rules first detach (``! Link``)
  the one inherited from a shorter folder.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import quote

from agentprose_core.agents import VARY_AGENTS, agent_pattern, crawler_pattern, signature_pattern
from agentprose_core.hosting.common import template_views
from agentprose_core.hosting.headers import cloudflare_headers, netlify_headers
from agentprose_core.hosting.links import LinkRule, link_rules
from agentprose_core.hosting.vercel import vercel_json
from agentprose_core.sitepaths import SAFE, WELL_KNOWN, normalize_base_path

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "cloudflare_function",
    "cloudflare_headers",
    "netlify_edge_function",
    "netlify_headers",
    "vercel_json",
]
# The header files and Vercel's routes have modules of their own (:mod:`.headers`,
# :mod:`.vercel`); this one writes the edge functions, and names all five.

_MARKDOWN_TYPE = "text/markdown; charset=utf-8"
_JS_CORE = r"""
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QVALUE = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

// Split on a separator outside quoted strings.
function split(text, separator) {
  const parts = [];
  let current = "", quoted = false, escaped = false;
  for (const char of text) {
    if (escaped) escaped = false;
    else if (quoted && char === "\\") escaped = true;
    else if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) { parts.push(current); current = ""; continue; }
    current += char;
  }
  parts.push(current);
  return parts;
}

function unquote(value) {
  if (TOKEN.test(value)) return value;
  if (value.length >= 2 && value[0] === '"' && value.at(-1) === '"') {
    return value.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  return null;
}

// One member of Accept as {type, subtype, charset, params, q}, or null when malformed.
function parseRange(member) {
  const [range, ...pieces] = split(member, ";");
  const [type, subtype, extra] = range.trim().split("/");
  if (extra !== undefined || !TOKEN.test(type ?? "") || !TOKEN.test(subtype ?? "")) return null;
  if (type === "*" && subtype !== "*") return null;
  const parsed = { type: type.toLowerCase(), subtype: subtype.toLowerCase(), charset: null,
                   params: 0, q: 1000 };
  for (const piece of pieces) {
    if (!piece.trim()) continue;
    const at = piece.indexOf("=");
    if (at < 0) return null;
    const name = piece.slice(0, at).trim().toLowerCase(), raw = piece.slice(at + 1).trim();
    const value = unquote(raw);
    if (!TOKEN.test(name) || value === null) return null;
    if (name === "q") {
      if (!QVALUE.test(raw)) return null;
      const [whole, decimals = ""] = raw.split(".");
      parsed.q = Number(whole) * 1000 + Number((decimals + "000").slice(0, 3));
    } else {
      parsed.params += 1;
      if (name === "charset") parsed.charset = value.toLowerCase();
    }
  }
  return parsed;
}

// The most specific range that covers type/subtype (the first one on a tie).
function weightOf(ranges, type, subtype) {
  const rank = (r) => (r.type !== "*") * 2000000 + (r.subtype !== "*") * 1000000 + r.params;
  let best = null;
  for (const r of ranges) {
    const covers = (r.type === "*" || r.type === type) &&
      (r.subtype === "*" || r.subtype === subtype);
    if (!covers) continue;
    if (r.charset !== null && r.charset !== "utf-8") continue;
    if (best === null || rank(r) > rank(best)) best = r;
  }
  return best;
}

// Markdown when it outweighs HTML, or ties with it and was named (not a wildcard).
export function prefersMarkdown(accept) {
  const ranges = accept ? split(accept, ",").map(parseRange).filter((r) => r !== null) : [];
  if (ranges.length === 0) return false;
  const markdown = weightOf(ranges, "text", "markdown"), html = weightOf(ranges, "text", "html");
  const qMarkdown = markdown ? markdown.q : 0, qHtml = html ? html.q : 0;
  const named = markdown !== null && markdown.subtype !== "*";
  return qMarkdown > 0 && (qMarkdown > qHtml || (qMarkdown === qHtml && named));
}

// The URL paths where a page's agent view may be, the first that exists winning; null
// for a URL that is not a page.
export function viewPaths(path) {
  if (!path.startsWith(BASE)) return null;
  const rest = path.slice(BASE.length);
  let m;
  if (/^(?:index\.html?)?$/.test(rest)) return [BASE + VIEWS.root];
  if ((m = /^(.+)\/(?:index\.html?)?$/.exec(rest))) {
    return VIEWS.directory(m[1]).map((view) => BASE + view);
  }
  if ((m = /^(.+)(\.html?)$/.exec(rest))) return [BASE + VIEWS.file(m[1], m[2])];
  if ((m = /^((?:.*\/)?[^/.]+)$/.exec(rest))) return [BASE + VIEWS.file(m[1], ".html")];
  return null;
}

function withHeaders(response, headers) {
  const copy = new Response(response.body, response);
  for (const [name, value] of Object.entries(headers)) {
    if (name === "Vary") copy.headers.append(name, value);
    else copy.headers.set(name, value);
  }
  return copy;
}

const isView = (r) => (r.status === 200 || r.status === 304) &&
  !(r.headers.get("Content-Type") ?? "").startsWith("text/html");

// A known agent fetcher (never a crawler), when detection is on.
export function isAgent(userAgent, signatureAgent) {
  if (AGENTS === null || AGENTS.crawler.test(userAgent ?? "")) return false;
  return AGENTS.agent.test(userAgent ?? "") || AGENTS.signature.test(signatureAgent ?? "");
}

const wantsMarkdown = (request) => prefersMarkdown(request.headers.get("Accept")) ||
  isAgent(request.headers.get("User-Agent"), request.headers.get("Signature-Agent"));

// The links and the Markdown 404 of the longest folder with an llms.txt holding the path.
export const scopeOf = (path) => SCOPES.find((s) => path.startsWith(s.prefix)) ?? FALLBACK;

// A missing file asked for in Markdown: a short Markdown 404 instead of the site's.
function notFound(request, response, path, markdown) {
  if (response.status !== 404 || !markdown) return response;
  return new Response(request.method === "HEAD" ? null : scopeOf(path).notFound,
                      { status: 404, headers: { "Content-Type": MARKDOWN, "Vary": VARY } });
}

// The first of the views that answers, fetched with init, as [view, response]; null
// when none does.
async function firstView(views, url, asset, init) {
  for (const view of views) {
    const answer = await asset(new URL(view, url), init);
    if (isView(answer)) return [view, answer];
  }
  return null;
}

// A dotfile or a file in a dot-folder (.git/, .env) below the base, however its dots are
// spelt (%2e): never served, but for a top-level .well-known folder (RFC 8615 files are
// public). A path that does not decode is refused too.
export function isHidden(path) {
  const rest = path.startsWith(BASE) ? path.slice(BASE.length) : path;
  try {
    return rest.split("/").map(decodeURIComponent)
      .some((s, i) => s.startsWith(".") && (i > 0 || s !== WELL_KNOWN));
  } catch {
    return true;
  }
}

// A hidden file's answer, the one a missing page gets: the Markdown 404, else the
// site's 404.html (the host's files are never asked for the hidden one), else a plain 404.
async function hiddenAnswer(request, url, asset, markdown) {
  const head = request.method === "HEAD";
  if (!markdown) {
    const page = await asset(new URL(BASE + "404.html", url), { method: request.method });
    if (page.status === 200) {
      return new Response(head ? null : page.body, { status: 404, headers: page.headers });
    }
  }
  const body = markdown ? scopeOf(url.pathname).notFound : "Not Found";
  const type = markdown ? MARKDOWN : "text/plain; charset=utf-8";
  return new Response(head ? null : body, { status: 404, headers: {
    "Content-Type": type, ...(markdown && { "Vary": VARY }) } });
}

// next(): the response the host would send; asset(url, init): fetch a file of the site.
export async function agentprose(request, next, asset) {
  const url = new URL(request.url);
  if (isHidden(url.pathname)) {
    return hiddenAnswer(request, url, asset, wantsMarkdown(request));
  }
  const page = request.method === "GET" || request.method === "HEAD";
  const views = page ? viewPaths(url.pathname) : null;
  const markdown = page && wantsMarkdown(request);
  if (views === null) {
    const response = await next();
    const typed = url.pathname.endsWith(".md") && response.status === 200;
    return typed ? withHeaders(response, { "Content-Type": MARKDOWN })
      : notFound(request, response, url.pathname, markdown);
  }
  const links = scopeOf(url.pathname).links;
  if (markdown) {
    const found = await firstView(views, url, asset,
                                  { method: request.method, headers: request.headers });
    if (found !== null) {
      return withHeaders(found[1], { "Content-Type": MARKDOWN, "Vary": VARY,
                                     "Content-Location": found[0],
                                     ...(links && { "Link": links }) });
    }
  } else {
    const found = await firstView(views, url, asset, { method: "HEAD" });
    if (found !== null) {
      const alternate = `<${found[0]}>; rel="alternate"; type="${VIEW_TYPE}"`;
      return withHeaders(await next(), {
        "Vary": VARY, "Link": links ? `${alternate}, ${links}` : alternate });
    }
  }
  return notFound(request, await next(), url.pathname, markdown);
}
"""


def _js_scope(rule: LinkRule, *, prefix: bool = True) -> str:
    fields = {"prefix": quote(rule.prefix or "", safe=SAFE)} if prefix else {}
    fields |= {"links": rule.links, "notFound": rule.not_found}
    return json.dumps(fields)


def _js_agents(detect_agents: bool) -> list[str]:
    if not detect_agents:
        return ["const AGENTS = null;  // agent detection is off"]
    patterns = {"agent": agent_pattern(), "crawler": crawler_pattern(),
                "signature": signature_pattern()}
    return ["const AGENTS = {",
            *(f'  {name}: new RegExp({json.dumps(pattern)}, "i"),'
              for name, pattern in patterns.items()),
            "};"]


def _js(base_path: str, view_layout: str, entry: str, where: str, *,
        llms_scopes: Iterable[str], index: bool, detect_agents: bool) -> str:
    base = normalize_base_path(base_path)
    root, directory, file = template_views(view_layout)
    folder = "[" + ", ".join(f"`{view}`" for view in directory) + "]"
    *scoped, fallback = link_rules(base, llms_scopes, index=index)
    head = [
        f"// {where}",
        "// agentprose: answer a page's agent view to clients that ask for Markdown.",
        "// Generated by agentprose.",
        f"const BASE = {json.dumps(base)};",
        'const VIEW_TYPE = "text/markdown";',
        f"const WELL_KNOWN = {json.dumps(WELL_KNOWN)};",
        f'const MARKDOWN = "{_MARKDOWN_TYPE}";',
        f"const VIEWS = {{ root: {json.dumps(root)}, directory: (page) => {folder},",
        f"                 file: (page, ext) => `{file}` }};",
        f"const VARY = {json.dumps(VARY_AGENTS if detect_agents else 'Accept')};",
        "// The folders with an llms.txt, the longest first.",
        "const SCOPES = [",
        *(f"  {_js_scope(rule)}," for rule in scoped),
        "];",
        f"const FALLBACK = {_js_scope(fallback, prefix=False)};",
        *_js_agents(detect_agents),
    ]
    return "\n".join(head) + "\n" + _JS_CORE + "\n" + entry.format(base=base)


def cloudflare_function(*, base_path: str = "/", view_layout: str = "sibling",
                        llms_scopes: Iterable[str] = ("",), index: bool = True,
                        detect_agents: bool = False) -> str:
    """A Cloudflare Pages middleware, ``functions/_middleware.js`` in the project."""
    entry = ("export async function onRequest({{ request, next, env }}) {{\n"
             "  return agentprose(request, next,\n"
             "                    (url, init) => env.ASSETS.fetch(new Request(url, init)));\n"
             "}}\n")
    return _js(base_path, view_layout, entry, "functions/_middleware.js (Cloudflare Pages)",
               llms_scopes=llms_scopes, index=index, detect_agents=detect_agents)


def netlify_edge_function(*, base_path: str = "/", view_layout: str = "sibling",
                          llms_scopes: Iterable[str] = ("",), index: bool = True,
                          detect_agents: bool = False) -> str:
    """A Netlify Edge Function, ``netlify/edge-functions/agentprose.js`` in the project."""
    entry = ("export default async (request, context) =>\n"
             "  agentprose(request, () => context.next(),\n"
             "             (url, init) => fetch(new Request(url, init)));\n"
             "\n"
             'export const config = {{ path: "{base}*" }};\n')
    return _js(base_path, view_layout, entry,
               "netlify/edge-functions/agentprose.js (Netlify Edge Functions)",
               llms_scopes=llms_scopes, index=index, detect_agents=detect_agents)
