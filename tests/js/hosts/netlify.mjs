// Netlify's Edge Functions runtime is Deno: the function runs on the path its `config`
// names, the site's static files everywhere else, on one origin (the function reads them
// with fetch, as on Netlify):
//   deno run --allow-net=127.0.0.1 --allow-read netlify.mjs FUNCTION_FILE SITE_DIR BASE
// Prints its URL, then serves until killed.
import { staticAnswer } from "./static.mjs";

const [functionFile, root, base] = Deno.args;
const edge = await import(new URL(functionFile, "file:///").href);

Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => {
  console.log(`http://127.0.0.1:${port}`);
} }, async (request) => {
  const url = new URL(request.url);
  const files = () => staticAnswer(root, base, url.pathname);
  if (url.pathname === edge.config.path) return edge.default(request, { next: files });
  return files();
});
