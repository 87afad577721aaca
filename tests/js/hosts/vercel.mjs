// Vercel's Node.js runtime as it calls a function of api/ with the Web signature
// (`export default { fetch }`), beside the site's static files, on one origin:
//   node vercel.mjs FUNCTION_FILE SITE_DIR BASE ENDPOINT_PATH
// Prints its URL, then serves until killed.
import { createServer } from "node:http";
import { staticAnswer } from "./static.mjs";

const [functionFile, root, base, endpointPath] = process.argv.slice(2);
const handler = (await import(new URL(functionFile, "file:///"))).default;

createServer(async (incoming, outgoing) => {
  const url = new URL(incoming.url, `http://${incoming.headers.host}`);
  let response;
  if (url.pathname === endpointPath) {
    const chunks = [];
    for await (const chunk of incoming) chunks.push(chunk);
    const body = ["GET", "HEAD"].includes(incoming.method) ? undefined : Buffer.concat(chunks);
    response = await handler.fetch(new Request(url, { method: incoming.method,
      headers: incoming.headers, body }));
  } else {
    response = await staticAnswer(root, base, url.pathname);
  }
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}).listen(0, "127.0.0.1", function () {
  process.stdout.write(`http://127.0.0.1:${this.address().port}\n`);
});
