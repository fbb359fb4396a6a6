// Sanity check of tests/realworld/ against manifest.json: every file is there with its bytes
// and sha256, parses as JSON (JSON-lines: every line), and has the features the manifest says.
// Prints, per file, its bytes and the numerals outside strings that a double cannot hold
// (an integer with BigInt(text) !== BigInt(Number(text)), or a decimal whose value
// String(Number(text)) does not give back). Exits 1 on any mismatch.
// Usage: node tests/realworld/collect/check.mjs
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { doubleVerdict, features, scanJson } from "./scan.mjs";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..");
const { files } = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
const problems = [];
const onDisk = readdirSync(dir).filter((f) => /\.jsonl?$/.test(f) && f !== "manifest.json");
for (const f of onDisk) if (!files.some((e) => e.file === f)) problems.push(`${f}: not in manifest.json`);

let total = 0;
console.log(["file", "kind", "bytes", "values", "numerals", "form-only", "double-inexact numerals"].join("\t"));
for (const entry of files) {
  const bytes = readFileSync(join(dir, entry.file));
  total += bytes.length;
  const text = bytes.toString("utf8");
  if (bytes.length !== entry.bytes) problems.push(`${entry.file}: ${bytes.length} bytes, manifest says ${entry.bytes}`);
  const sha = createHash("sha256").update(bytes).digest("hex");
  if (sha !== entry.sha256) problems.push(`${entry.file}: sha256 differs from manifest`);
  if (Buffer.from(text, "utf8").compare(bytes) !== 0) problems.push(`${entry.file}: not valid UTF-8`);
  const values = entry.kind === "jsonl" ? text.split("\n").filter((line) => line !== "") : [text];
  const numerals = [];
  for (const [n, value] of values.entries()) {
    try {
      JSON.parse(value);
      numerals.push(...scanJson(value).numerals);
    } catch (error) {
      problems.push(`${entry.file}${entry.kind === "jsonl" ? ` line ${n + 1}` : ""}: ${error.message}`);
    }
  }
  const inexact = numerals.filter((n) => doubleVerdict(n) === "changed");
  const formOnly = numerals.filter((n) => doubleVerdict(n) === "form");
  const got = features(text, entry.kind).join(",");
  if (got !== entry.features.join(",")) problems.push(`${entry.file}: features ${got}, manifest says ${entry.features}`);
  const shown = inexact.length ? `${inexact.length}: ${[...new Set(inexact)].slice(0, 3).join(" ")}` : "none";
  const forms = formOnly.length ? `${formOnly.length}: ${[...new Set(formOnly)].slice(0, 3).join(" ")}` : "0";
  console.log([entry.file, entry.kind, bytes.length, values.length, numerals.length, forms, shown].join("\t"));
}
console.log(`${files.length} files, ${total} bytes`);
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("all files parse and match manifest.json");
