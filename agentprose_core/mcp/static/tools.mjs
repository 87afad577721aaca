// agentprose MCP tools in JavaScript: what each tool answers, as text for a model.
// A port of agentprose_core/mcp/tools.py and of server.run_tool: the same calls give
// the same text, errors included (tests/test_mcp_js.py holds the two to it).

import { bestPassage, scan, withoutMarkup } from "./markdown.mjs";
import { terms } from "./search.mjs";
import { CodePoints, collapse, compareText, floatText, grouped, len, repr, strip } from "./text.mjs";

export const MAX_CHARS = 20000;
const FOOTER_ROOM = 200;
const MAX_RESULTS = 100;
const QUOTED = 200;

/** A request a tool cannot answer: its message says what to ask instead. */
export class ToolProblem extends Error {}

/** text within limit characters. */
export function capped(text, limit = MAX_CHARS) {
  const points = new CodePoints(text);
  if (points.length <= limit) return text;
  const note = `\n\n[Cut at ${grouped(limit)} characters.]`;
  return points.slice(0, limit - len(note)) + note;
}

/** A caller's text as an answer repeats it: quoted, shortened when long. */
export function quoted(text) {
  const points = new CodePoints(text);
  return repr(points.length <= QUOTED ? text : points.slice(0, QUOTED) + "…");
}

function cuts(points, size) {
  const starts = [0];
  while (points.length - starts[starts.length - 1] > size) {
    const start = starts[starts.length - 1];
    const newline = points.rfind("\n", start + Math.floor(size / 2), start + size);
    starts.push(newline !== -1 ? newline + 1 : start + size);
  }
  return starts;
}

/** Part `part` (from 1) of text. */
export function paged(text, part, tool = "get_page") {
  const points = new CodePoints(text);
  const starts = cuts(points, MAX_CHARS - FOOTER_ROOM);
  if (!(part >= 1 && part <= starts.length)) {
    throw new ToolProblem(`part must be between 1 and ${starts.length} for this page`);
  }
  const end = part < starts.length ? starts[part] : points.length;
  let piece = points.slice(starts[part - 1], end);
  if (part < starts.length) {
    piece += `\n\n[Part ${part} of ${starts.length}: call ${tool} again with part=${part + 1} for the rest.]`;
  }
  return piece;
}

function fit(lines, head, more) {
  const shown = [];
  let size = len(head) + FOOTER_ROOM;
  for (const line of lines) {
    const length = len(line);
    if (size + length + 1 > MAX_CHARS) break;
    shown.push(line);
    size += length + 1;
  }
  const tail = shown.length === lines.length ? "" : "\n" + more(shown.length);
  return head + shown.join("\n") + tail;
}

export function siteInfo(site, built, searched) {
  const lines = [`# ${site.name}`, ""];
  if (site.description) lines.push(site.description, "");
  let newest = "";
  for (const found of site.posts) if (found.modified > newest) newest = found.modified;
  lines.push(`- Base URL: ${site.url}`, `- Pages: ${site.posts.length}`);
  if (site.lang) lines.push(`- Language: ${site.lang}`);
  if (built) lines.push(`- Index written: ${built}`);
  if (newest) lines.push(`- Newest page change: ${newest}`);
  if (site.generator) lines.push(`- Generator: ${site.generator}`);
  lines.push(`- Search covers: ${searched}`, "", "## Sections", "");
  for (const [name, count] of site.sections()) {
    lines.push(`- ${name || "(top level)"}: ${count} page${count !== 1 ? "s" : ""}`);
  }
  return fit(lines, "", () => "[More sections: use list_pages.]");
}

const SINCE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z?)?$/;

function since(value) {
  value = strip(value);
  if (!SINCE.test(value)) {
    throw new ToolProblem("since must be a date such as 2026-03-14 or a UTC time such as " +
      `2026-03-14T10:30:00Z, not ${repr(value)}`);
  }
  return value.endsWith("Z") ? value.slice(0, -1) : value;
}

function pageLine(found) {
  const details = [];
  if (found.modified) details.push(`modified ${found.modified}`);
  if (found.published) details.push(`published ${found.published}`);
  if (found.section.length) details.push(found.section.join(" › "));
  const summary = found.summary ? `: ${found.summary}` : "";
  return `- [${found.title}](${found.url})${summary} (${details.join("; ")})`;
}

export function listPages(site, { section = "", tag = "", since: after = "", limit = 50,
  offset = 0 } = {}) {
  limit = Math.max(1, Math.min(limit, MAX_RESULTS * 2));
  offset = Math.max(0, offset);
  let posts = site.posts;
  if (section) {
    const wanted = section.toLowerCase();
    posts = posts.filter((p) => p.section.some((name) => name.toLowerCase() === wanted));
  }
  if (tag) {
    const wanted = tag.toLowerCase();
    posts = posts.filter((p) => p.tags.some((name) => name.toLowerCase() === wanted));
  }
  if (after) {
    const start = since(after);
    posts = posts.filter((p) => {
      const modified = p.modified.endsWith("Z") ? p.modified.slice(0, -1) : p.modified;
      return modified.slice(0, start.length) >= start;
    });
  }
  const chosen = posts.slice(offset, offset + limit);
  if (!chosen.length) {
    return !posts.length ? "No pages match." : `No pages from offset ${offset}: ${posts.length} match.`;
  }
  const head = `Pages ${offset + 1}–${offset + chosen.length} of ${posts.length}, in reading order:\n\n`;
  const lines = chosen.map(pageLine);
  const more = (shown) => `[More: call list_pages again with offset=${offset + shown}.]`;
  let answer = fit(lines, head, more);
  if (offset + chosen.length < posts.length && answer.endsWith(lines[lines.length - 1])) {
    answer += "\n\n" + more(chosen.length);
  }
  return answer;
}

export function tableOfContents(found, body) {
  const headings = found.headings.length ? found.headings
    : marks(body || "", []).map((mark) => mark.heading);
  const head = `# ${found.title}\n\n${found.url}\n\n`;
  if (!headings.length) return head + "(The page has no headings.)";
  const top = Math.min(...headings.map((heading) => heading.level));
  const lines = headings.map((heading) => `${"  ".repeat(heading.level - top)}- ${heading.title}` +
    (heading.id ? ` (#${heading.id})` : ""));
  return fit(lines, head, () => "[The outline goes on: use get_page.]");
}

const WORDS = /[\p{L}\p{N}_]+/gu;

function wordsOf(title) {
  return (plain(title).toLowerCase().match(WORDS) || []).join(" ");
}

function plain(title) {
  const text = withoutMarkup(title);
  return collapse(text.replaceAll("`", "").replaceAll("**", "").replaceAll("\\", ""));
}

function marks(body, known) {
  const levels = new Map(known.filter((h) => h.id).map((h) => [h.id, h]));
  const unclaimed = new Map();
  for (const heading of known) {
    const key = `${heading.level}\u0000${wordsOf(heading.title)}`;
    if (heading.id && !unclaimed.has(key)) unclaimed.set(key, heading.id);
  }
  const found = [];
  for (const line of scan(body)) {
    const listed = line.anchors.map((ident) => levels.get(ident)).find((h) => h !== undefined);
    if (line.level) {
      const level = line.level;
      const title = plain(line.heading);
      let ident;
      if (listed) ident = listed.id;
      else if (line.anchors.length) ident = line.anchors[0];
      else {
        const key = `${level}\u0000${wordsOf(title)}`;
        ident = unclaimed.has(key) ? unclaimed.get(key) : "";
        unclaimed.delete(key);
      }
      found.push({ line: line.number, heading: { level, title, id: ident }, anchors: line.anchors });
    } else if (listed !== undefined && !line.code) {
      found.push({ line: line.number, heading: { level: listed.level, title: listed.title,
        id: listed.id }, anchors: line.anchors });
    }
  }
  return found;
}

function matches(mark, wanted) {
  const heading = mark.heading;
  const bare = wanted.startsWith("#") ? wanted.slice(1) : wanted;
  if ((bare === heading.id || mark.anchors.includes(bare)) && wanted.replace(/^#+|#+$/g, "")) {
    return true;
  }
  const title = heading.title.toLowerCase();
  return title === wanted.toLowerCase() || title === plain(wanted).toLowerCase() ||
    (Boolean(wordsOf(wanted)) && wordsOf(heading.title) === wordsOf(wanted));
}

export function getSection(found, body, heading, part = 1) {
  if (!strip(heading)) {
    throw new ToolProblem("heading is empty: give a heading's id or title " +
      "(table_of_contents lists them)");
  }
  const all = marks(body, found.headings);
  const chosen = all.findIndex((mark) => matches(mark, strip(heading)));
  if (chosen < 0) {
    const names = all.slice(0, 40).map((mark) => repr(mark.heading.id || mark.heading.title))
      .join(", ");
    throw new ToolProblem(`${found.title} has no section ${quoted(heading)}; its sections: ` +
      `${names || "none"}`);
  }
  const mark = all[chosen];
  const later = all.slice(chosen + 1).find((other) => other.heading.level <= mark.heading.level);
  const lines = body.split("\n");
  const text = lines.slice(mark.line, later ? later.line : undefined).join("\n")
    .replace(/^\n+|\n+$/g, "");
  const link = mark.heading.id ? `${found.url}#${mark.heading.id}` : found.url;
  return paged(`From ${found.title} (${link}):\n\n${text}\n`, part, "get_section");
}

function fragment(found, passage) {
  const ids = new Map();
  for (const heading of found.headings) if (heading.id) ids.set(heading.id, heading);
  const listed = passage.anchors.find((ident) => ids.has(ident));
  if (listed !== undefined) return ids.get(listed).level > 1 ? `${found.url}#${listed}` : found.url;
  if (passage.headings.length) {
    const wanted = plain(passage.headings[passage.headings.length - 1]).toLowerCase();
    for (const heading of ids.values()) {
      if (heading.level > 1 && heading.title.toLowerCase() === wanted) {
        return `${found.url}#${heading.id}`;
      }
    }
  }
  return found.url;
}

function pathOf(found, passage) {
  const names = [];
  for (const name of [...found.section, found.title, ...passage.headings.map(plain)]) {
    if (!names.length || names[names.length - 1] !== name) names.push(name);
  }
  return names.join(" › ");
}

export function searchDocs(site, index, body, query, limit = 10) {
  if (!terms(query).length) throw new ToolProblem("query has no words to search for");
  limit = Math.max(1, Math.min(limit, MAX_RESULTS));
  const hits = index.search(query, limit);
  if (!hits.length) return `Nothing on ${site.name} matches ${quoted(query)}.`;
  const lines = hits.map((hit, at) => {
    const found = site.posts[hit.number];
    const passage = bestPassage(body(found), query);
    return `${at + 1}. [${found.title}](${fragment(found, passage)}) (score ${floatText(hit.score)})` +
      `\n   ${pathOf(found, passage)}\n   ${passage.snippet}`;
  });
  const head = `${hits.length} result${hits.length !== 1 ? "s" : ""} for ${quoted(query)}:\n\n`;
  return fit(lines, head, (shown) => `[${hits.length - shown} more left out.]`);
}

export function relatedPages(site, index, links, found, limit = 5) {
  limit = Math.max(1, Math.min(limit, MAX_RESULTS));
  const scores = new Map();
  const reasons = new Map();
  const add = (number, score, why) => {
    if (number === found.number) return;
    scores.set(number, (scores.has(number) ? scores.get(number) : 0.0) + score);
    if (!reasons.has(number)) reasons.set(number, []);
    reasons.get(number).push(why);
  };
  for (const number of links[found.number]) add(number, 3.0, "linked from this page");
  links.forEach((targets, number) => {
    if (targets.includes(found.number)) add(number, 3.0, "links to this page");
  });
  const own = new Set(found.tags.map((tag) => tag.toLowerCase()));
  for (const other of site.posts) {
    if (found.section.length && other.section[0] === found.section[0]) {
      const same = other.section.length === found.section.length &&
        other.section.every((name, at) => name === found.section[at]);
      add(other.number, same ? 2.0 : 1.0,
        `same section (${(same ? other.section : other.section.slice(0, 1)).join(" › ")})`);
    }
    const shared = [...new Set(other.tags.map((t) => t.toLowerCase()))].filter((t) => own.has(t));
    if (shared.length) {
      add(other.number, Math.min(shared.length, 3), `tags: ${shared.sort(compareText).join(", ")}`);
    }
  }
  const termScores = index.termScores(found.number);
  const top = [...termScores.keys()].sort((a, b) =>
    termScores.get(b) - termScores.get(a) || compareText(a, b)).slice(0, 15);
  const hits = index.search(top, limit * 4 + 1).filter((hit) => hit.number !== found.number);
  if (hits.length && hits[0].score > 0) {
    const best = hits[0].score;
    for (const hit of hits) add(hit.number, 2.0 * hit.score / best, "shares words");
  }
  const ranked = [...scores.keys()].sort((a, b) => scores.get(b) - scores.get(a) || a - b)
    .slice(0, limit);
  if (!ranked.length) return `No pages related to ${found.title} were found.`;
  const lines = ranked.map((n) =>
    `- [${site.posts[n].title}](${site.posts[n].url}): ${reasons.get(n).join("; ")}`);
  return fit(lines, `Pages related to ${found.title} (${found.url}):\n\n`, () => "[More left out.]");
}

/** The post a call names, or a ToolProblem that says so. */
function postOf(reading, urlOrPath) {
  const found = reading.site.find(urlOrPath);
  if (found === null) {
    throw new ToolProblem(`${quoted(urlOrPath)} is not a page of ${reading.site.name}: ` +
      "give a page URL or path from list_pages or search_docs");
  }
  return found;
}

/** What tool `name` answers with `args` (every argument given) on the site `reading`
 *  holds: {site, built, searched(), index, links, body(post) (async), view(post)
 *  (async)}. server.run_tool's port; a ToolProblem when the call cannot be answered. */
export async function runTool(reading, name, args) {
  const site = reading.site;
  if (name === "site_info") return siteInfo(site, reading.built, reading.searched());
  if (name === "search_docs") {
    if (terms(args.query).length) {
      const limit = Math.max(1, Math.min(args.limit, MAX_RESULTS));
      await Promise.all(reading.index.search(args.query, limit)
        .map((hit) => reading.body(site.posts[hit.number])));
    }
    return searchDocs(site, reading.index, (found) => reading.bodyNow(found), args.query,
      args.limit);
  }
  if (name === "list_pages") return listPages(site, args);
  const found = postOf(reading, args.url_or_path);
  if (name === "get_page") return paged(await reading.view(found), args.part);
  if (name === "get_section") {
    return getSection(found, await reading.body(found), args.heading, args.part);
  }
  if (name === "table_of_contents") {
    return tableOfContents(found, found.headings.length ? null : await reading.body(found));
  }
  if (name === "related_pages") {
    return relatedPages(site, reading.index, reading.links, found, args.limit);
  }
  throw new ToolProblem(`Unknown tool: ${name}`);
}
