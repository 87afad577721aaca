// Cloudflare Pages Functions under workerd (Miniflare): the function file mounted at its
// route by a small Worker, the site's files behind the ASSETS binding as Pages serves
// them (a site without a top-level 404.html gets its home page for a missing file):
//   node cloudflare.mjs MINIFLARE_MODULE FUNCTION_FILE SITE_DIR BASE ENDPOINT_PATH
// Prints its URL, then serves until killed.
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { staticAnswer } from "./static.mjs";

const [miniflareModule, functionFile, root, base, endpointPath] = process.argv.slice(2);
const { Miniflare, Response: WorkerResponse } = await import(miniflareModule);

const folder = mkdtempSync(join(tmpdir(), "agentprose-pages-"));
copyFileSync(functionFile, join(folder, "function.mjs"));
writeFileSync(join(folder, "worker.mjs"), `
import { onRequest } from "./function.mjs";
const ROUTE = ${JSON.stringify(endpointPath)};
export default {
  fetch(request, env, context) {
    if (new URL(request.url).pathname !== ROUTE) return env.ASSETS.fetch(request);
    return onRequest({ request, env, next: () => env.ASSETS.fetch(request),
                       waitUntil: (p) => context.waitUntil(p) });
  },
};
`);

const mf = new Miniflare({
  host: "127.0.0.1", port: 0, modules: true, modulesRoot: folder,
  scriptPath: join(folder, "worker.mjs"),
  modulesRules: [{ type: "ESModule", include: ["**/*.mjs"] }],
  compatibilityDate: "2025-09-01",
  serviceBindings: {
    async ASSETS(request) {
      const answer = await staticAnswer(root, base, new URL(request.url).pathname,
                                        { spa: true });
      return new WorkerResponse(await answer.arrayBuffer(), { status: answer.status,
        headers: Object.fromEntries(answer.headers) });
    },
  },
});
const url = await mf.ready;
process.stdout.write(url.origin + "\n");
