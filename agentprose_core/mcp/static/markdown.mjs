// agentprose MCP tools in JavaScript: a view read line by line, and the passage of a
// page that answers a search. A port of agentprose_core/mcp/markdown.py and
// mcp/search.py (Python's "." is [^\n] here, its \s the class of text.mjs).

import { CodePoints, collapse, len, strip } from "./text.mjs";
import { namesIn, objectNames, terms } from "./search.mjs";

const CONTAINER = "(?:[ \\t]*(?:>[ \\t]?|[-*+][ \\t]+|[0-9]{1,9}[.)][ \\t]+))*";
const HEADING = new RegExp("^" + CONTAINER + "[ \\t]{0,3}(#{1,6})[ \\t]+([^\\n]*?)(?:[ \\t]+#+)?[ \\t]*$");
const FENCE = new RegExp("^" + CONTAINER + "[ \\t]{0,3}(`{3,}|~{3,})([^\\n]*)$");
const ANCHOR_SOURCE = '<a id="([^"]+)"></a>';
const START_ANCHORS = new RegExp("^" + CONTAINER + "(?:" + ANCHOR_SOURCE + ")+");
const LINK = /\[([^\]]*)\]\([^)\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*\)/g;
const WORD = /[\p{L}\p{N}_]+/gu;
export const SNIPPET_CHARS = 300;

/** The ids of every anchor in text. */
export function anchorsIn(text) {
  return [...text.matchAll(new RegExp(ANCHOR_SOURCE, "g"))].map((match) => match[1]);
}

/** The ids of the anchors that open text (after quote and list markers). */
export function openingAnchors(text) {
  const start = text.match(START_ANCHORS);
  return start ? anchorsIn(start[0]) : [];
}

/** Text without anchors, each link reduced to its text. */
export function withoutMarkup(text) {
  return text.replace(new RegExp(ANCHOR_SOURCE, "g"), "").replace(LINK, "$1");
}

/** Every line of markdown: {number, text, code, level, heading, anchors}. */
export function* scan(markdown) {
  let fence = "";
  const lines = markdown.split("\n");
  for (let number = 0; number < lines.length; number++) {
    const text = lines[number];
    const opened = text.match(FENCE);
    if (fence) {
      if (opened && opened[1].startsWith(fence) && !strip(opened[2])) fence = "";
      yield { number, text, code: true, level: 0, heading: "", anchors: [] };
      continue;
    }
    if (opened && !(opened[1][0] === "`" && opened[2].includes("`"))) {
      fence = opened[1];
      yield { number, text, code: true, level: 0, heading: "", anchors: [] };
      continue;
    }
    const heading = text.match(HEADING);
    if (heading) {
      yield { number, text, code: false, level: heading[1].length, heading: heading[2],
        anchors: anchorsIn(heading[2]) };
      continue;
    }
    yield { number, text, code: false, level: 0, heading: "", anchors: openingAnchors(text) };
  }
}

function* blocks(markdown) {
  let block = [];
  for (const line of scan(markdown)) {
    if (line.level || (!line.code && !strip(line.text))) {
      if (block.length) {
        yield [0, block.join("\n")];
        block = [];
      }
      if (line.level) yield [line.level, line.heading];
      continue;
    }
    block.push(line.text);
  }
  if (block.length) yield [0, block.join("\n")];
}

function shared(wanted, found) {
  let count = 0;
  for (const term of new Set(found)) if (wanted.has(term)) count++;
  return count;
}

/** The block of markdown that holds most of the query's terms, with the headings above
 *  it: {headings, snippet, anchors}. */
export function bestPassage(markdown, query) {
  const wanted = new Set(terms(query));
  const named = namesIn(query);
  let path = [];
  let anchors = [];
  let best = { headings: [], snippet: "", anchors: [] };
  let bestScore = -1;
  for (const [level, block] of blocks(markdown)) {
    if (level) {
      path = [...path.filter((entry) => entry[0] < level), [level, block]];
      anchors = anchorsIn(block);
      continue;
    }
    const opened = openingAnchors(block);
    if (opened.length) anchors = opened;
    const headingTerms = path.length ? terms(path[path.length - 1][1]) : [];
    let score = 2 * shared(wanted, terms(block)) + shared(wanted, headingTerms);
    if (opened.some((ident) => objectNames(ident).some((name) => named.has(name)))) {
      score += 1000;
    }
    if (score > bestScore) {
      bestScore = score;
      best = { headings: path.map(([, title]) => title), snippet: snippet(block, wanted),
        anchors };
    }
  }
  return best;
}

function snippet(block, wanted) {
  const flat = collapse(withoutMarkup(block));
  const points = new CodePoints(flat);
  if (points.length <= SNIPPET_CHARS) return flat;
  let start = 0;
  for (const match of flat.matchAll(WORD)) {
    if (terms(match[0]).some((term) => wanted.has(term))) {
      start = Math.max(0, len(flat.slice(0, match.index)) - 60);
      break;
    }
  }
  if (start) {
    let space = -1;
    for (let at = start; at < points.length; at++) {
      if (points.slice(at, at + 1) === " ") {
        space = at;
        break;
      }
    }
    start = space + 1 || start;
  }
  let piece = new CodePoints(points.slice(start, start + SNIPPET_CHARS));
  const cut = piece.rfind(" ", 0, piece.length);
  const text = cut > Math.floor(SNIPPET_CHARS / 2) ? piece.slice(0, cut) : piece.text;
  return (start ? "…" : "") + text + "…";
}
