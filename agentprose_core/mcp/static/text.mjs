// agentprose MCP tools in JavaScript: text as Python treats it.
//
// The remote endpoint must answer what `agentprose mcp` answers, byte for byte, so the
// few places where JavaScript and Python differ on text are spelt out here: lengths and
// slices in code points (not UTF-16 units), Python's whitespace, `repr` of a string,
// `round` (half to even on the exact value), the repr of a float, `{:,}`, sorting by
// code point. Each function names the Python it stands for.

/** Python's str.isspace() characters, for str.split() with no argument. */
const SPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003" +
  "\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
const SPACES = new RegExp("[" + SPACE + "]+", "u");

/** `" ".join(text.split())`: words separated by single spaces. */
export function collapse(text) {
  return words(text).join(" ");
}

/** `text.split()`. */
export function words(text) {
  return text.split(SPACES).filter((part) => part !== "");
}

/** `len(text)`: code points. */
export function len(text) {
  let count = 0;
  for (let at = 0; at < text.length; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff && at + 1 < text.length) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) at++;
    }
    count++;
  }
  return count;
}

/** Text addressed by code point (`text[a:b]`, `text.rfind`), for the few long strings
 *  that are cut: a view in parts, an answer capped. ASCII text is its own index. */
export class CodePoints {
  constructor(text) {
    this.text = text;
    this.ascii = /^[\x00-\x7f]*$/.test(text);
    this.points = this.ascii ? null : Array.from(text);
    this.length = this.ascii ? text.length : this.points.length;
  }

  slice(start, end) {
    return this.ascii ? this.text.slice(start, end) : this.points.slice(start, end).join("");
  }

  /** `text.rfind(char, start, end)`: the last index of one character, or -1. */
  rfind(char, start, end) {
    const from = Math.max(0, start);
    for (let at = Math.min(end, this.length) - 1; at >= from; at--) {
      if ((this.ascii ? this.text[at] : this.points[at]) === char) return at;
    }
    return -1;
  }
}

/** Sort key comparison by code point, as Python compares strings. */
export function compareText(a, b) {
  const left = Array.from(a);
  const right = Array.from(b);
  const shared = Math.min(left.length, right.length);
  for (let at = 0; at < shared; at++) {
    const x = left[at].codePointAt(0);
    const y = right[at].codePointAt(0);
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}

// Python's str.isprintable() is false for these categories (the space excepted).
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** `repr(text)`: quoted as Python writes a string. */
export function repr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0);
    if (char === quote || char === "\\") out += "\\" + char;
    else if (char === "\t") out += "\\t";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f) out += "\\x" + hex(code, 2);
    else if (code < 0x7f || char === " ") out += char;
    else if (UNPRINTABLE.test(char)) {
      out += code < 0x100 ? "\\x" + hex(code, 2) : code < 0x10000 ? "\\u" + hex(code, 4)
        : "\\U" + hex(code, 8);
    } else out += char;
  }
  return out + quote;
}

function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}

/** `round(value, digits)`: to the nearest, an exact tie to the even digit. */
export function round(value, digits) {
  const fixed = value.toFixed(digits); // nearest; a tie goes away from zero
  const exact = Math.abs(value).toFixed(100);
  const point = exact.indexOf(".");
  const rest = exact.slice(point + 1 + digits);
  if (rest[0] === "5" && /^50*$/.test(rest)) {
    const down = Math.abs(value).toFixed(100).slice(0, point + 1 + digits);
    const last = Number(down[down.length - 1] === "." ? "0" : down[down.length - 1]);
    if (last % 2 === 0) return Number((value < 0 ? "-" : "") + down);
  }
  return Number(fixed);
}

/** `repr(value)` of a float: `3.0`, `12.3457`. */
export function floatText(value) {
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return value.toFixed(1);
  return String(value);
}

/** `f"{value:,}"` of a whole number. */
export function grouped(value) {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const EDGES = new RegExp("^[" + SPACE + "]+|[" + SPACE + "]+$", "gu");

/** `text.strip()`: without Python's whitespace at either end. */
export function strip(text) {
  return text.replace(EDGES, "");
}
