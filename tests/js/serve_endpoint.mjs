// A static host for tests: serves a built site folder with Last-Modified, and agentprose's
// MCP endpoint at /mcp reading the site's files from the same folder, as a host's
// function reads its own deployment. Prints its URL, then serves until killed:
//   node tests/js/serve_endpoint.mjs SITE_DIR
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";

const { createEndpoint } = await import(
  new URL("../../agentprose_core/mcp/static/endpoint.mjs", import.meta.url));
const root = resolve(process.argv[2]);

async function file(path) {
  const found = resolve(join(root, path));
  if (found !== root && !found.startsWith(root + sep)) return null;
  try {
    const info = await stat(found);
    if (!info.isFile()) return null;
    return new Response(await readFile(found), { headers: {
      "last-modified": info.mtime.toUTCString() } });
  } catch {
    return null;
  }
}

const endpoint = createEndpoint({ readFile: file, version: "test" });

createServer(async (incoming, outgoing) => {
  const url = new URL(incoming.url, "http://localhost");
  let response;
  if (url.pathname === "/mcp") {
    const chunks = [];
    for await (const chunk of incoming) chunks.push(chunk);
    const body = ["GET", "HEAD"].includes(incoming.method) ? undefined : Buffer.concat(chunks);
    response = await endpoint(new Request(url, { method: incoming.method,
      headers: incoming.headers, body }));
  } else {
    const path = decodeURIComponent(url.pathname).replace(/^\/+/, "");
    response = (await file(path.endsWith("/") || !path ? path + "index.html" : path)) ||
      new Response("not found", { status: 404 });
  }
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}).listen(0, "127.0.0.1", function () {
  process.stdout.write(`http://127.0.0.1:${this.address().port}/\n`);
});
