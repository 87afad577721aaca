// The text rules of agentprose's JavaScript tools on given strings, for
// tests/test_mcp_js_text.py to compare with Python's:
//   node tests/js/text_cases.mjs < strings.json > results.json
import { readFileSync } from "node:fs";

const here = new URL("../../agentprose_core/mcp/static/", import.meta.url);
const text = await import(new URL("text.mjs", here));
const search = await import(new URL("search.mjs", here));
const site = await import(new URL("site.mjs", here));
const markdown = await import(new URL("markdown.mjs", here));
const tools = await import(new URL("tools.mjs", here));

const strings = JSON.parse(readFileSync(0, "utf8"));
const numbers = strings.map((_, at) => (at * 7919 % 100003) / 977.0 + at / 3);
process.stdout.write(JSON.stringify({
  repr: strings.map(text.repr),
  len: strings.map(text.len),
  collapse: strings.map(text.collapse),
  strip: strings.map(text.strip),
  terms: strings.map(search.terms),
  query: strings.map((s) => [...search.queryTerms(s)]),
  names: strings.map((s) => [...search.namesIn(s)].sort()),
  key: strings.map((s) => site.pageKey("https://Docs.Example/a/" + s)),
  plain: strings.map((s) => markdown.withoutMarkup(s)),
  quoted: strings.map(tools.quoted),
  capped: strings.map((s) => tools.capped(s.repeat(40), 300)),
  round: numbers.map((n) => [text.round(n, 4), text.round(n, 2), text.floatText(text.round(n, 4))]),
  sorted: [...strings].sort(text.compareText),
}));
