// Answers MCP tool calls on a built site folder with agentprose's JavaScript tools, for
// tests/test_mcp_js.py to compare with `agentprose mcp`'s Python:
//   node tests/js/mcp_tools.mjs SITE_DIR < calls.json > answers.json
// calls: [[name, arguments], ...]; answers: [[text, isError], ...].
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const here = new URL("../../agentprose_core/mcp/static/", import.meta.url);
const { siteFromIndex, viewBody } = await import(new URL("site.mjs", here));
const { storedSearch } = await import(new URL("search.mjs", here));
const { runTool, capped, ToolProblem } = await import(new URL("tools.mjs", here));

const folder = process.argv[2];
const index = JSON.parse(readFileSync(join(folder, "agentprose.json"), "utf8"));
const site = siteFromIndex(index);
const stored = storedSearch(JSON.parse(readFileSync(join(folder, "agentprose-search.json"),
  "utf8")), site.posts.map((post) => post.url));
if (stored === null) throw new Error("no usable agentprose-search.json");
const written = statSync(join(folder, "agentprose.json")).mtime;
const views = new Map();
const view = (post) => readFileSync(join(folder,
  decodeURIComponent(new URL(post.markdownUrl).pathname.slice(new URL(site.url).pathname.length))),
  "utf8");
const reading = {
  site, index: stored.index, links: stored.links,
  built: written.toISOString().replace(/\.\d+Z$/, "Z"),
  searched: () => "titles, headings, summaries and page bodies",
  view: async (post) => view(post),
  body: async (post) => reading.bodyNow(post),
  bodyNow: (post) => {
    if (post.markdown !== null) return post.markdown;
    if (!views.has(post.number)) views.set(post.number, viewBody(view(post)));
    return views.get(post.number);
  },
};
const calls = JSON.parse(readFileSync(0, "utf8"));
const answers = [];
for (const [name, args] of calls) {
  try {
    answers.push([capped(await runTool(reading, name, args)), false]);
  } catch (error) {
    if (!(error instanceof ToolProblem)) throw error;
    answers.push([capped(error.message, 4000), true]);
  }
}
process.stdout.write(JSON.stringify(answers));
