// agentprose MCP tools in JavaScript: a site as the tools see it, from agentprose.json.
// A port of agentprose_core/mcp/site.py, of urls.page_key and of the urljoin that
// find() uses, and of reading a view's body (reading/text.parse_view).

import { repr, strip } from "./text.mjs";

export class IndexProblem extends Error {}

const PLAIN_URL = /^([A-Za-z][A-Za-z0-9+.\-]*):\/\/([A-Za-z0-9.\-:]+)(\/[A-Za-z0-9/:@!$&'()*+,;=\-._~]*)?(?:[?#][\s\S]*)?$/;
const INDEX_NAMES = ["index.html", "index.htm"];
const QUOTE_SAFE = new Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~/:@!$&'()*+,;=");
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: false });

function withoutIndex(path) {
  for (const name of INDEX_NAMES) {
    if (path.endsWith("/" + name)) return path.slice(0, path.length - name.length);
  }
  return path;
}

/** urllib.parse.unquote: runs of %XX decoded as UTF-8, bad bytes replaced. */
function unquote(text) {
  if (!text.includes("%")) return text;
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => decoder.decode(new Uint8Array(
    run.slice(1).split("%").map((pair) => parseInt(pair, 16)))));
}

/** urllib.parse.quote with page_key's safe characters. */
function quote(text) {
  let out = "";
  for (const byte of encoder.encode(text)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && QUOTE_SAFE.has(char) ? char
      : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}

/** urllib.parse.urlsplit's scheme, netloc and path. */
function split(url) {
  let rest = url.replace(/^[\x00-\x20]+/, "").replace(/[\t\r\n]/g, "");
  let scheme = "";
  const colon = rest.indexOf(":");
  if (colon > 0 && /^[A-Za-z][A-Za-z0-9+.\-]*$/.test(rest.slice(0, colon))) {
    scheme = rest.slice(0, colon).toLowerCase();
    rest = rest.slice(colon + 1);
  }
  let netloc = "";
  if (rest.startsWith("//")) {
    const end = rest.slice(2).search(/[/?#]/);
    netloc = end < 0 ? rest.slice(2) : rest.slice(2, end + 2);
    rest = end < 0 ? "" : rest.slice(end + 2);
  }
  const cut = rest.search(/[?#]/);
  return { scheme, netloc, path: cut < 0 ? rest : rest.slice(0, cut),
    tail: cut < 0 ? "" : rest.slice(cut) };
}

/** urls.page_key: a URL reduced to what identifies a page. */
export function pageKey(url) {
  const plain = url.match(PLAIN_URL);
  if (plain) {
    return `${plain[1].toLowerCase()}://${plain[2].toLowerCase()}${withoutIndex(plain[3] || "/")}`;
  }
  const parts = split(url);
  const path = quote(unquote(parts.path || "/"));
  return `${parts.scheme}://${parts.netloc.toLowerCase()}${withoutIndex(path)}`;
}

/** urllib.parse.urljoin(base, relative) for an http(s) base and a relative reference
 *  without a scheme or a host (what find() gives it). */
function urljoin(base, relative) {
  if (!relative) return base;
  const from = split(base);
  const to = split(relative);
  const prefix = `${from.scheme}://${from.netloc}`;
  if (!to.path) return prefix + from.path + (to.tail || from.tail);
  const baseParts = from.path.split("/");
  if (baseParts[baseParts.length - 1] !== "") baseParts.pop();
  let segments;
  if (to.path.startsWith("/")) segments = to.path.split("/");
  else {
    segments = [...baseParts, ...to.path.split("/")];
    segments = [segments[0], ...segments.slice(1, -1).filter((s) => s), ...segments.slice(-1)];
    if (segments.length === 1) segments = [segments[0]];
  }
  const resolved = [];
  for (const segment of segments) {
    if (segment === "..") resolved.pop();
    else if (segment !== ".") resolved.push(segment);
  }
  const last = segments[segments.length - 1];
  if (last === "." || last === "..") resolved.push("");
  return prefix + (resolved.join("/") || "/") + to.tail;
}

function mapping(value, name) {
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    throw new IndexProblem(`${name} is not a JSON object`);
  }
  return value;
}

function document(data, name) {
  const found = mapping(data, name);
  if (found.version !== 1) {
    throw new IndexProblem(`${name} has version ${pythonRepr(found.version)}; this agentprose ` +
      "reads version 1: upgrade agentprose");
  }
  return found;
}

function pythonRepr(value) {
  if (value === undefined || value === null) return "None";
  if (typeof value === "string") return repr(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  return String(value);
}

function text(data, key, name) {
  const value = data[key];
  if (typeof value !== "string" || !value) throw new IndexProblem(`${name} has no '${key}' text`);
  return value;
}

function optional(data, key) {
  return typeof data[key] === "string" ? data[key] : "";
}

function texts(data, key) {
  const value = data[key];
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.filter((item) => typeof item === "string");
  return [];
}

function origin(url) {
  const parts = split(url);
  return [parts.scheme, parts.netloc.toLowerCase()];
}

function post(raw, number, base) {
  const where = `post ${number + 1} of the index`;
  const found = mapping(raw, where);
  const url = text(found, "url", where);
  const markdownUrl = text(found, "markdown_url", where);
  const [scheme, host] = origin(base);
  for (const value of [url, markdownUrl]) {
    const [s, h] = origin(value);
    if (s !== scheme || h !== host) {
      throw new IndexProblem(`${where}: '${value}' is not on the site's origin ${scheme}://${host}`);
    }
  }
  const markdown = found.markdown;
  if (markdown !== undefined && markdown !== null && typeof markdown !== "string") {
    throw new IndexProblem(`${where}: 'markdown' is not a string`);
  }
  return {
    number, url, markdownUrl, title: text(found, "title", where),
    modified: optional(found, "modified"), summary: optional(found, "summary"),
    authors: texts(found, "authors"), published: optional(found, "published"),
    tags: texts(found, "tags"), section: texts(found, "section"),
    headings: (Array.isArray(found.headings) ? found.headings : [])
      .filter((item) => item && typeof item === "object" && !Array.isArray(item))
      .map((item) => ({ level: Number.isInteger(item.level) ? item.level : 2,
        title: item.title === undefined ? "" : String(item.title),
        id: item.id === undefined ? "" : String(item.id) })),
    markdown: typeof markdown === "string" ? markdown : null,
  };
}

/** The site an index describes (its decoded JSON, and its parts'). */
export function siteFromIndex(data, parts = []) {
  const root = document(data, "the index");
  const site = mapping(root.site, "the index's 'site'");
  const base = text(site, "url", "the index's 'site'");
  if (!base.endsWith("/") || !["http", "https"].includes(split(base).scheme)) {
    throw new IndexProblem(`the site URL '${base}' is not an http(s) URL ending with '/'`);
  }
  if (!Array.isArray(root.posts)) throw new IndexProblem("the index has no 'posts' list");
  const raw = [...root.posts];
  parts.forEach((part, at) => {
    const name = `part ${at + 1} of the index`;
    const found = document(part, name);
    if (!Array.isArray(found.posts)) throw new IndexProblem(`${name} has no 'posts' list`);
    raw.push(...found.posts);
  });
  return new LoadedSite(text(site, "name", "the index's 'site'"), base,
    raw.map((item, number) => post(item, number, base)), optional(site, "description"),
    optional(site, "lang"), optional(root, "generator"));
}

/** The URLs of a split index's further files, in order. */
export function partsOf(data, indexUrl) {
  const parts = data.parts === undefined ? [] : data.parts;
  if (!Array.isArray(parts) || !parts.every((part) => typeof part === "string")) {
    throw new IndexProblem("'parts' must be a list of URLs of the index's further files");
  }
  return parts.map((part) => new URL(part, indexUrl).href);
}

export class LoadedSite {
  constructor(name, url, posts, description, lang, generator) {
    Object.assign(this, { name, url, posts, description, lang, generator });
    this.keys = new Map();
    for (const found of posts) {
      for (const key of [pageKey(found.url), pageKey(found.markdownUrl)]) {
        if (!this.keys.has(key)) this.keys.set(key, found);
      }
    }
  }

  get hasBodies() {
    return this.posts.every((found) => found.markdown !== null);
  }

  /** The post a page URL, view URL or site path names, or null. */
  find(urlOrPath) {
    let wanted = strip(urlOrPath);
    if (!wanted) return null;
    if (!wanted.includes("://")) wanted = urljoin(this.url, wanted.replace(/^\/+/, ""));
    wanted = wanted.split("#")[0].split("?")[0];
    const bare = wanted.endsWith(".md") ? wanted.slice(0, -3) : wanted;
    const candidates = [wanted, wanted + "/", bare, bare + "/",
      wanted.endsWith(".html") ? wanted.slice(0, -5) : wanted,
      wanted.endsWith("index.md") ? wanted.slice(0, -8) : wanted];
    for (const candidate of candidates) {
      const found = this.keys.get(pageKey(candidate));
      if (found !== undefined) return found;
    }
    return null;
  }

  /** Each top-level section with its number of pages, in reading order. */
  sections() {
    const counts = new Map();
    for (const found of this.posts) {
      const name = found.section.length ? found.section[0] : "";
      counts.set(name, (counts.get(name) || 0) + 1);
    }
    return [...counts];
  }
}

const DIRECTIVE = /^> [^[\]\n]{1,80} \[(?:llms\.txt|agentprose\.json)\]\(\S/;

/** The body of a view (reading/text.parse_view's body): after the front matter and the
 *  site-index line. */
export function viewBody(view) {
  if (!view.startsWith("---\n")) return "";
  const close = view.indexOf("\n---\n", 4);
  let body;
  if (close < 0) {
    if (!view.endsWith("\n---")) return "";
    body = "";
  } else body = view.slice(close + 5);
  const stripped = body.replace(/^\n+/, "");
  const newline = stripped.indexOf("\n");
  const line = newline < 0 ? stripped : stripped.slice(0, newline);
  if (DIRECTIVE.test(line)) body = newline < 0 ? "" : stripped.slice(newline + 1);
  return body.replace(/^\n+|\n+$/g, "");
}
