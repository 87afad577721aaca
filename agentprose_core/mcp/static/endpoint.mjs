// agentprose's remote MCP endpoint: the seven tools of `agentprose mcp` over MCP's
// Streamable HTTP transport, read-only and stateless, answering from the site's own
// published files (agentprose.json, agentprose-search.json, the views) and nothing else.
// Web APIs only (Request, Response, TextEncoder): it runs under Node, Deno (Netlify),
// Cloudflare's workerd and Vercel's runtimes. Each host's wrapper gives it a way to
// read a file of the same deployment:
//
//   const endpoint = createEndpoint({ readFile: async (path) => Response | null });
//   export default (request) => endpoint(request);
//
// Bounds: a request body of at most MAX_REQUEST_BYTES, answers of at most 20,000
// characters (the tools cap them), CALL_SECONDS per call, and files read only by their
// path under the site (no URL, no other origin: readFile takes a path).

import { IndexProblem, partsOf, siteFromIndex, viewBody } from "./site.mjs";
import { storedSearch } from "./search.mjs";
import { ToolProblem, capped, runTool } from "./tools.mjs";
import toolList from "./tool-list.json" with { type: "json" };

export const MAX_REQUEST_BYTES = 65536;
export const CALL_SECONDS = 10;
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];
const ERROR_CHARS = 4000;
const TOOLS = new Map(toolList.map((tool) => [tool.name, tool]));

function json(body, status = 200, headers = {}) {
  return new Response(JSON.stringify(body), { status,
    headers: { "content-type": "application/json", "cache-control": "no-store",
      "access-control-allow-origin": "*", ...headers } });
}

function failure(id, code, message, status = 200) {
  return json({ jsonrpc: "2.0", id: id === undefined ? null : id, error: { code, message } },
    status);
}

/** The arguments of a call as the tool's schema gives them: defaults filled in, whole
 *  numbers given as digits taken as numbers; a ToolProblem that names what is wrong. */
function argumentsOf(tool, given) {
  const schema = tool.inputSchema;
  const found = {};
  const args = given && typeof given === "object" && !Array.isArray(given) ? given : {};
  for (const name of schema.required || []) {
    if (!(name in args)) throw new ToolProblem(`${tool.name} needs the argument '${name}'`);
  }
  for (const [name, property] of Object.entries(schema.properties)) {
    let value = name in args ? args[name] : property.default;
    if (property.type === "integer") {
      if (typeof value === "string" && /^[+-]?\d+$/.test(value.trim())) value = Number(value);
      if (!Number.isInteger(value)) {
        throw new ToolProblem(`${tool.name}: '${name}' must be a whole number`);
      }
    } else if (typeof value !== "string") {
      throw new ToolProblem(`${tool.name}: '${name}' must be text`);
    }
    found[name] = value;
  }
  return found;
}

/** A site as one deployment publishes it, read once per instance. */
async function load(readFile) {
  const text = async (path) => {
    const response = await readFile(path);
    if (!response || !response.ok) {
      throw new IndexProblem(`${path} answered ${response ? "HTTP " + response.status : "nothing"}`);
    }
    return response;
  };
  const indexResponse = await text("agentprose.json");
  const index = JSON.parse(await indexResponse.text());
  const base = index && index.site && typeof index.site.url === "string" ? index.site.url : "";
  const parts = [];
  for (const url of index && typeof index === "object" ? partsOf(index, base + "agentprose.json") : []) {
    if (!url.startsWith(base)) throw new IndexProblem(`${url} is not under the site's URL ${base}`);
    parts.push(JSON.parse(await (await text(decodeURI(url.slice(base.length)))).text()));
  }
  const site = siteFromIndex(index, parts);
  const searchFile = await readFile("agentprose-search.json");
  if (!searchFile || !searchFile.ok) {
    throw new IndexProblem("the site has no agentprose-search.json: build it with " +
      "agentprose's mcp_endpoint option set to this endpoint's URL");
  }
  const stored = storedSearch(JSON.parse(await searchFile.text()),
    site.posts.map((post) => post.url));
  if (stored === null) {
    throw new IndexProblem("agentprose-search.json does not belong to this agentprose.json: " +
      "publish both from one build");
  }
  const modified = indexResponse.headers.get("last-modified");
  const when = modified ? new Date(modified) : null;
  const views = new Map();
  const view = async (post) => {
    const path = decodeURIComponent(new URL(post.markdownUrl).pathname
      .slice(new URL(base).pathname.length));
    return (await text(path)).text();
  };
  const reading = {
    site, index: stored.index, links: stored.links,
    built: when && !Number.isNaN(when.getTime()) ? when.toISOString().replace(/\.\d+Z$/, "Z") : "",
    searched: () => "titles, headings, summaries and page bodies",
    view,
    body: async (post) => {
      if (post.markdown === null && !views.has(post.number)) {
        views.set(post.number, viewBody(await view(post)));
      }
      return reading.bodyNow(post);
    },
    bodyNow: (post) => (post.markdown !== null ? post.markdown : views.get(post.number)),
  };
  return reading;
}

/** The endpoint: (request) => Promise<Response>. `readFile(path)` answers a file of the
 *  site by its path under the site's root ("agentprose.json", "guide/install.md"), as
 *  a Response, or null; `version` is agentprose's. */
export function createEndpoint({ readFile, version = "" }) {
  let loading = null;
  const reading = () => {
    if (loading === null) {
      loading = load(readFile).catch((error) => {
        loading = null; // the next call tries again
        throw error;
      });
    }
    return loading;
  };

  async function call(id, params) {
    const tool = TOOLS.get(params && params.name);
    if (!tool) return failure(id, -32602, `Unknown tool: ${params && params.name}`);
    let text;
    let isError = false;
    try {
      const args = argumentsOf(tool, params.arguments);
      const it = await reading();
      let timer;
      const late = new Promise((_, fail) => {
        timer = setTimeout(() => fail(new ToolProblem(`this call took more than ${CALL_SECONDS} ` +
          "seconds and stopped: ask for fewer results, or one page at a time")),
        CALL_SECONDS * 1000);
      });
      try {
        text = capped(await Promise.race([runTool(it, tool.name, args), late]));
      } finally {
        clearTimeout(timer); // no timer outlives its call
      }
    } catch (error) {
      if (error instanceof IndexProblem || error instanceof SyntaxError) {
        text = capped(`cannot read the site: ${error.message}`, ERROR_CHARS);
      } else if (error instanceof ToolProblem) text = capped(error.message, ERROR_CHARS);
      else throw error;
      isError = true;
    }
    const result = { content: [{ type: "text", text }], isError };
    if (!isError) result.structuredContent = { result: text };
    return json({ jsonrpc: "2.0", id, result });
  }

  async function answer(message) {
    const { id, method, params } = message;
    if (id === undefined) return new Response(null, { status: 202 }); // a notification
    if (method === "initialize") {
      const asked = params && params.protocolVersion;
      return json({ jsonrpc: "2.0", id, result: {
        protocolVersion: VERSIONS.includes(asked) ? asked : VERSIONS[0],
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: "agentprose", version },
        instructions: "Tools over this documentation site: search it, list its pages, read a " +
          "page, its outline or one section. Start with site_info or search_docs; cite the " +
          "page URLs the tools give." } });
    }
    if (method === "ping") return json({ jsonrpc: "2.0", id, result: {} });
    if (method === "tools/list") return json({ jsonrpc: "2.0", id, result: { tools: toolList } });
    if (method === "tools/call") return call(id, params);
    return failure(id, -32601, `Method not found: ${method}`);
  }

  return async function endpoint(request) {
    if (request.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: {
        "access-control-allow-origin": "*", "access-control-allow-methods": "POST",
        "access-control-allow-headers": "content-type, accept, mcp-protocol-version, mcp-session-id",
        "access-control-max-age": "86400" } });
    }
    if (request.method !== "POST") {
      return new Response("This MCP endpoint answers POST requests (Streamable HTTP, no " +
        "event stream).\n", { status: 405, headers: { allow: "POST, OPTIONS",
        "content-type": "text/plain; charset=utf-8" } });
    }
    const declared = Number(request.headers.get("content-length") || "0");
    if (declared > MAX_REQUEST_BYTES) {
      return failure(null, -32600, `the request is over ${MAX_REQUEST_BYTES} bytes`, 413);
    }
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.length > MAX_REQUEST_BYTES) {
      return failure(null, -32600, `the request is over ${MAX_REQUEST_BYTES} bytes`, 413);
    }
    let message;
    try {
      message = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      return failure(null, -32700, "the request is not JSON", 400);
    }
    if (!message || typeof message !== "object" || Array.isArray(message) ||
        message.jsonrpc !== "2.0") {
      return failure(null, -32600, "send one JSON-RPC 2.0 message", 400);
    }
    if (message.method === undefined) return new Response(null, { status: 202 }); // a response
    return answer(message);
  };
}
