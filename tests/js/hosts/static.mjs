// A static host's answer for a file of a built site published under BASE, shared by the
// host harnesses here (Node and Deno both read node:fs). A missing file gets the site's
// 404.html with 404, or, with `spa` (what Cloudflare Pages does for a site without a
// top-level 404.html), the home page with 200.
import { readFile, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";

const TYPES = { ".html": "text/html; charset=utf-8", ".json": "application/json",
  ".md": "text/markdown; charset=utf-8", ".txt": "text/plain; charset=utf-8" };

async function file(root, path) {
  const found = resolve(join(root, path));
  if (found !== root && !found.startsWith(root + sep)) return null;
  try {
    const info = await stat(found);
    if (!info.isFile()) return null;
    const type = TYPES[found.slice(found.lastIndexOf("."))] || "application/octet-stream";
    return { body: await readFile(found), headers: { "content-type": type,
      "last-modified": info.mtime.toUTCString() } };
  } catch {
    return null;
  }
}

export async function staticAnswer(root, base, pathname, { spa = false } = {}) {
  let path = null;
  try {
    path = pathname.startsWith(base) ? decodeURIComponent(pathname.slice(base.length)) : null;
  } catch {
    path = null;
  }
  if (path !== null && (path === "" || path.endsWith("/"))) path += "index.html";
  const found = path === null ? null : await file(resolve(root), path);
  if (found) return new Response(found.body, { headers: found.headers });
  const missing = await file(resolve(root), "404.html");
  if (missing) return new Response(missing.body, { status: 404, headers: missing.headers });
  const home = spa ? await file(resolve(root), "index.html") : null;
  if (home) return new Response(home.body, { headers: home.headers });
  return new Response("not found", { status: 404 });
}
