// Writes tests/realworld/manifest.json and the file table of tests/realworld/README.md from
// catalog.mjs (provenance) and the files themselves (bytes, sha256, kind, features).
// Run after a collection: node tests/realworld/collect/manifest.mjs
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { catalog } from "./catalog.mjs";
import { features } from "./scan.mjs";

const dir = join(dirname(fileURLToPath(import.meta.url)), "..");
const MAX_FILE_BYTES = 1.5 * 1024 * 1024;
const MAX_TOTAL_BYTES = 8 * 1024 * 1024;

const onDisk = readdirSync(dir).filter((f) => /\.jsonl?$/.test(f) && f !== "manifest.json").sort();
const listed = catalog.map((e) => e.file);
const unlisted = onDisk.filter((f) => !listed.includes(f));
const missing = listed.filter((f) => !onDisk.includes(f));
if (unlisted.length || missing.length) {
  throw new Error(`catalog and folder differ: not in catalog ${unlisted}; missing files ${missing}`);
}

const entries = catalog.map((e) => {
  const bytes = readFileSync(join(dir, e.file));
  if (bytes.length > MAX_FILE_BYTES) throw new Error(`${e.file} is over 1.5 MB`);
  const kind = e.file.endsWith(".jsonl") ? "jsonl" : "json";
  return {
    file: e.file,
    bytes: bytes.length,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    kind,
    source: e.source,
    producer: e.producer,
    licence: e.licence,
    features: features(bytes.toString("utf8"), kind),
  };
});
const total = entries.reduce((sum, e) => sum + e.bytes, 0);
if (total > MAX_TOTAL_BYTES) throw new Error(`corpus is ${total} bytes, over 8 MB`);

writeFileSync(join(dir, "manifest.json"), `${JSON.stringify({ files: entries }, null, 2)}\n`);

const cell = (text) =>
  String(text).replaceAll("|", "\\|").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("\n", " ");
const code = (text) => {
  if (text.includes("`")) throw new Error(`a command with a backtick: ${text}`);
  return `\`${String(text).replaceAll("|", "\\|")}\``;
};
const rows = catalog.map((e, i) =>
  [
    `\`${e.file}\``,
    entries[i].bytes,
    cell(e.producer),
    code(e.command),
    cell(e.licence),
    cell(`${e.note}. Features: ${entries[i].features.join(", ")}`),
  ].join(" | "),
);
const table = [
  "| file | bytes | produced by | command | licence of the content | interesting for |",
  "|---|---:|---|---|---|---|",
  ...rows.map((r) => `| ${r} |`),
  "",
  `${entries.length} files, ${total} bytes in all.`,
].join("\n");
const readmePath = join(dir, "README.md");
const readme = readFileSync(readmePath, "utf8");
const start = "<!-- table:start -->";
const end = "<!-- table:end -->";
const before = readme.slice(0, readme.indexOf(start) + start.length);
const after = readme.slice(readme.indexOf(end));
if (readme.indexOf(start) < 0 || readme.indexOf(end) < 0) throw new Error("README.md has no table markers");
writeFileSync(readmePath, `${before}\n${table}\n${after}`);
console.log(`manifest.json: ${entries.length} files, ${total} bytes`);
