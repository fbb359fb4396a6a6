// A strict JSON reader that keeps every numeral's source text, and the feature rules of
// manifest.json. Used by manifest.mjs (writes the features) and check.mjs (checks them).
// JSON.parse is not enough here: it turns numerals into doubles before we can look at them.

export class JsonSyntaxError extends Error {}

/**
 * Reads one JSON text. Returns the facts the corpus checks need:
 * numerals (source text), keys, string values, max depth, arrays of objects (their key sets).
 */
export function scanJson(text) {
  const facts = { numerals: [], keys: [], strings: [], maxDepth: 0, objectArrays: [], innerWhitespace: 0 };
  let i = 0;
  const fail = (what) => {
    throw new JsonSyntaxError(`${what} at offset ${i}`);
  };
  const ws = () => {
    const start = i;
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
    return i - start;
  };
  const str = () => {
    if (text[i] !== '"') fail("expected string");
    const start = i++;
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) fail("control character in string");
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail("bad \\u escape");
          i += 6;
        } else if ('"\\/bfnrt'.includes(e)) i += 2;
        else fail("bad escape");
      } else i++;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const value = (depth) => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      facts.maxDepth = Math.max(facts.maxDepth, depth + 1);
      i++;
      ws();
      const close = c === "{" ? "}" : "]";
      const members = [];
      if (text[i] === close) {
        i++;
      } else {
        for (;;) {
          if (c === "{") {
            ws();
            const key = str();
            facts.keys.push(key);
            ws();
            if (text[i++] !== ":") fail("expected ':'");
            members.push(key);
            value(depth + 1);
          } else {
            members.push(value(depth + 1));
          }
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === close) {
            i++;
            break;
          }
          fail(`expected ',' or '${close}'`);
        }
      }
      if (c === "{") return { kind: "object", keys: members };
      const objects = members.filter((m) => m.kind === "object");
      if (objects.length >= 2 && objects.length === members.length) {
        facts.objectArrays.push(objects.map((o) => [...o.keys].sort().join("\u0000")));
      }
      return { kind: "array" };
    }
    if (c === '"') {
      facts.strings.push(str());
      return { kind: "string" };
    }
    const literal = /^(?:true|false|null)/.exec(text.slice(i, i + 5));
    if (literal) {
      i += literal[0].length;
      return { kind: "literal" };
    }
    const numeral = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 1100));
    if (!numeral) fail("expected a value");
    facts.numerals.push(numeral[0]);
    i += numeral[0].length;
    return { kind: "number" };
  };
  ws();
  const leading = i;
  value(0);
  const end = i;
  ws();
  if (i !== text.length) fail("trailing characters");
  // Whitespace between the tokens (not before or after the value), to tell minified from spaced.
  facts.innerWhitespace = countWhitespaceOutsideStrings(text.slice(leading, end));
  return facts;
}

function countWhitespaceOutsideStrings(text) {
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === " " || c === "\t" || c === "\n" || c === "\r") count++;
  }
  return count;
}

/** The value a decimal numeral denotes, as sign, digits without leading/trailing zeros, exponent. */
function decimalValue(numeral) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(numeral);
  let digits = m[2] + (m[3] ?? "");
  let exponent = BigInt(m[4] ?? 0) - BigInt((m[3] ?? "").length);
  digits = digits.replace(/^0+/, "");
  if (digits === "") return "0";
  const trailing = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailing);
  exponent += BigInt(trailing);
  return `${m[1]}${digits}e${exponent}`;
}

const isInteger = (numeral) => !/[.eE]/.test(numeral);
const TWO_POW_53 = 2n ** 53n;

/**
 * What a reader holding doubles does to one numeral:
 * "exact" (same text back), "form" (same value, other text: 1.0, 1E3, -0),
 * or "changed" (another value: an integer the double cannot hold, a decimal that does not
 * round-trip). Integers are compared with BigInt, as the corpus brief asks.
 */
export function doubleVerdict(numeral) {
  const n = Number(numeral);
  if (!Number.isFinite(n)) return "changed"; // beyond the double range
  const back = String(n);
  if (back === numeral) return "exact";
  if (isInteger(numeral)) {
    return BigInt(numeral) === BigInt(n) ? "form" : "changed";
  }
  return decimalValue(numeral) === decimalValue(back) ? "form" : "changed";
}

/** Significant digits of the shortest numeral that gives this double back. */
function shortestDigits(numeral) {
  const back = String(Math.abs(Number(numeral)));
  const mantissa = back.split("e")[0].replace(".", "").replace(/^0+/, "").replace(/0+$/, "");
  return mantissa.length;
}

const HEX_RUN = /(?:^|[^0-9a-fA-F])[0-9a-fA-F]{32,}(?:$|[^0-9a-fA-F])/;
const SRI = /\bsha(?:1|256|384|512)-[A-Za-z0-9+/]{20,}={0,2}/;
const GIT_SHA = /(?:^|[^0-9a-f])[0-9a-f]{40}(?:$|[^0-9a-f])/;
const HEX_IN_VERSION = /[.-][0-9a-f]{7,12}-\d{8}(?:$|[^0-9])/;
const UUID = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/;
const VERSION = /(?:^|[^0-9.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?/;
const ISO_DATE = /\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The features of one document (all lines of a JSON-lines file together), by the rules in
 * README.md. Every rule looks at the document itself; nothing is declared by hand.
 */
export function features(text, kind) {
  const docs = kind === "jsonl" ? text.split("\n").filter((line) => line !== "") : [text];
  const all = docs.map(scanJson);
  const strings = all.flatMap((f) => f.strings);
  const keys = all.flatMap((f) => f.keys);
  const numerals = all.flatMap((f) => f.numerals);
  const objectArrays = all.flatMap((f) => f.objectArrays);
  const out = new Set();
  const anyString = (re) => strings.some((s) => re.test(s));
  if (anyString(HEX_RUN) || anyString(SRI)) out.add("hashes");
  if (anyString(GIT_SHA)) out.add("git-shas");
  if (anyString(HEX_IN_VERSION)) out.add("hex-in-versions");
  if (anyString(UUID)) out.add("uuids");
  if (anyString(VERSION)) out.add("versions");
  if (anyString(ISO_DATE)) out.add("dates");
  if (numerals.some((n) => isInteger(n) && (BigInt(n) > TWO_POW_53 || BigInt(n) < -TWO_POW_53))) out.add("big-integers");
  if (numerals.some((n) => !isInteger(n) && shortestDigits(n) >= 17)) out.add("floats17");
  if (numerals.some((n) => !isInteger(n))) out.add("decimals");
  if (numerals.some((n) => doubleVerdict(n) === "changed")) out.add("inexact-numerals");
  if (Math.max(...all.map((f) => f.maxDepth)) >= 8) out.add("deep");
  if (objectArrays.some((sets) => new Set(sets).size > 1)) out.add("non-uniform");
  if (objectArrays.some((sets) => sets.length >= 5 && new Set(sets).size === 1)) out.add("uniform-arrays");
  if (keys.some((k) => NON_ASCII.test(k))) out.add("unicode-keys");
  if (strings.some((s) => NON_ASCII.test(s))) out.add("unicode-values");
  if (strings.some((s) => s.length >= 1000)) out.add("long-strings");
  if (/\\u[0-9a-fA-F]{4}/.test(text)) out.add("u-escapes");
  // Layout: "minified" (no whitespace between tokens), "pretty" (indented lines), else "spaced"
  // (whitespace on one line, or line breaks without indentation).
  if (all.every((f) => f.innerWhitespace === 0)) out.add("minified");
  else if (docs.some((d) => /\n[ \t]+\S/.test(d.trimEnd()))) out.add("pretty");
  else out.add("spaced");
  if (text.includes("\r\n")) out.add("crlf");
  if (kind === "jsonl") out.add("json-lines");
  return [...out];
}
