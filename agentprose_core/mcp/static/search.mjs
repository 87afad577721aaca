// agentprose MCP tools in JavaScript: the search terms and the ranked index.
// A port of agentprose_core/search/terms.py and index.py (the index read from
// agentprose-search.json, never built here): the same terms, the same sums in the same
// order, so the same ranking to the last bit.

import { collapse, round } from "./text.mjs";

export const SCORE_UNIT = 10000;
const PART_WEIGHT = 0.3;
const WORD = /[\p{L}\p{N}_]+/gu; // Python's \w
const PART = /[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|(?:(?![A-Za-z])[\p{L}\p{Nl}\p{No}])+/gu;
const NAME = /[A-Za-z_][\p{L}\p{N}_.]*[\p{L}\p{N}_]/gu;
const LETTERS = /^\p{L}+$/u;
const ENDINGS = [["ies", "y"], ["sses", "ss"], ["xes", "x"], ["ches", "ch"], ["shes", "sh"],
  ["ing", ""], ["edly", ""], ["ed", ""], ["ly", ""], ["s", ""]];

const stems = new Map();

/** The stem search compares: installing, installed and installs give install. */
export function stem(word) {
  let found = stems.get(word);
  if (found === undefined) {
    found = stemOf(word);
    if (stems.size < 100000) stems.set(word, found);
  }
  return found;
}

function stemOf(word) {
  const points = Array.from(word);
  if (points.length <= 3 || !LETTERS.test(word)) return word;
  for (const [ending, replacement] of ENDINGS) {
    if (word.endsWith(ending) && !word.endsWith("ss")) {
      const stemmed = word.slice(0, word.length - ending.length) + replacement;
      if (Array.from(stemmed).length >= 3) {
        return ending === "ing" || ending === "ed" ? undouble(stemmed) : stemmed;
      }
    }
  }
  return word;
}

function undouble(word) {
  const points = Array.from(word);
  const last = points[points.length - 1];
  if (points.length > 3 && last === points[points.length - 2] && !"lsz".includes(last)) {
    return points.slice(0, -1).join("");
  }
  return word;
}

function fold(text) {
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  return text.normalize("NFKD").replace(/\p{Mn}/gu, "");
}

function partsOf(word) {
  return word.match(PART) || [];
}

/** The terms of a query with their weights, in the order they come. */
export function queryTerms(query) {
  const weights = new Map();
  for (const word of fold(query).match(WORD) || []) {
    const parts = partsOf(word);
    if (parts.length > 1) weights.set(word.toLowerCase(), 1.0);
    for (const part of parts) {
      const term = stem(part.toLowerCase());
      const weight = parts.length > 1 ? PART_WEIGHT : 1.0;
      weights.set(term, Math.max(weights.has(term) ? weights.get(term) : 0.0, weight));
    }
  }
  return weights;
}

/** The words of a query that could name an API object, lower-cased. */
export function namesIn(query) {
  const found = new Set();
  for (const word of query.match(NAME) || []) {
    if (partsOf(word).length > 1 || word.includes(".")) found.add(word.toLowerCase());
  }
  return found;
}

/** What a query may call an object: flask.Flask.url_for is also Flask.url_for, url_for. */
export function objectNames(name) {
  const parts = name.toLowerCase().split(".");
  return parts.map((_, start) => parts.slice(start).join("."));
}

/** The search terms of text: folded, split, stemmed words, in order. */
export function terms(text) {
  const found = [];
  for (const word of fold(text).match(WORD) || []) {
    const parts = partsOf(word);
    if (parts.length > 1) found.push(word.toLowerCase());
    for (const part of parts) found.push(stem(part.toLowerCase()));
  }
  return found;
}

/** The index agentprose-search.json holds. */
export class SearchIndex {
  constructor(data) {
    this.size = data.size;
    this.postings = data.terms;
    this.names = data.names;
    this.titles = data.titles;
  }

  /** The limit best posts for query (text, or a list of terms), best first, ties in
   *  reading order: [{number, score}]. */
  search(query, limit) {
    const text = typeof query === "string";
    const wanted = text ? queryTerms(query) : new Map(query.map((term) => [term, 1.0]));
    const totals = new Map();
    for (const [term, weight] of wanted) {
      const found = Object.hasOwn(this.postings, term) ? this.postings[term] : undefined;
      if (found === undefined) continue;
      const [numbers, scores] = found;
      for (let at = 0; at < numbers.length; at++) {
        const number = numbers[at];
        totals.set(number, (totals.has(number) ? totals.get(number) : 0) + weight * scores[at]);
      }
    }
    const named = new Set();
    if (text) {
      for (const name of namesIn(query)) {
        for (const number of Object.hasOwn(this.names, name) ? this.names[name] : []) {
          named.add(number);
        }
      }
      const title = collapse(query.toLowerCase());
      for (const number of Object.hasOwn(this.titles, title) ? this.titles[title] : []) {
        named.add(number);
      }
    }
    if (named.size) {
      let lift = -Infinity;
      for (const value of totals.values()) if (value > lift) lift = value;
      if (lift === -Infinity) lift = SCORE_UNIT;
      for (const number of [...named].sort((a, b) => a - b)) {
        totals.set(number, (totals.has(number) ? totals.get(number) : 0) + lift);
      }
    }
    const best = [...totals].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, limit);
    return best.map(([number, score]) => ({ number, score: round(score / SCORE_UNIT, 4) }));
  }

  /** Every term of one post with its score there. */
  termScores(number) {
    const found = new Map();
    for (const term of Object.keys(this.postings)) {
      const [numbers, scores] = this.postings[term];
      let low = 0;
      let high = numbers.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (numbers[middle] < number) low = middle + 1;
        else high = middle;
      }
      if (low < numbers.length && numbers[low] === number) found.set(term, scores[low]);
    }
    return found;
  }
}

function numbersList(value) {
  return Array.isArray(value) && value.every((item) => Number.isInteger(item) && item >= 0);
}

/** The index and links of a decoded agentprose-search.json made for exactly these post
 *  URLs, or null. */
export function storedSearch(data, urls) {
  if (!data || typeof data !== "object" || data.version !== 1 || data.size !== urls.length) {
    return null;
  }
  const posts = data.posts;
  if (!Array.isArray(posts) || posts.length !== urls.length ||
      posts.some((url, at) => url !== urls[at])) return null;
  const { terms: postings, names, titles, links } = data;
  if (!postings || typeof postings !== "object" || Array.isArray(postings)) return null;
  for (const value of Object.values(postings)) {
    if (!Array.isArray(value) || value.length !== 2 || !numbersList(value[0]) ||
        !numbersList(value[1]) || value[0].length !== value[1].length) return null;
  }
  for (const found of [names, titles]) {
    if (!found || typeof found !== "object" || Array.isArray(found) ||
        !Object.values(found).every(numbersList)) return null;
  }
  if (!Array.isArray(links) || links.length !== urls.length ||
      !links.every((value) => numbersList(value) && value.every((n) => n < urls.length))) {
    return null;
  }
  return { index: new SearchIndex(data), links };
}
