#!/usr/bin/env node
// node test/pack/transcript.mjs OUT
//
// Every call the conformance suites make through the public API of the native addon, with what
// it returned or threw, written to OUT as one JSON line per call (the "transcript"). Then
// compact.json and tokens.count on the 20 bench responses and the 106 KB tool result, with
// both vocabularies. platforms.test.mjs writes it with the Linux addon and, under Wine, with
// the win32-x64 one, and compares the files byte for byte: the same inputs give the same
// outputs on both. Runs in a Windows node.exe too (paths come from import.meta.url).

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSuite } from '../../scripts/conformance-lib.mjs';
import { fixturesDir, loadSuite, packageDir } from '../helpers.mjs';

const SUITES = [
  ['gcx1', 'gcx1'],
  ['tokens', 'gateway'],
  ['gcf', 'gcf/conformance'],
  ['gcf-v1.1', 'gcf/conformance-v1.1'],
  ['gcb1', 'gcb1'],
  ['gateway', 'gateway'],
  ['events', 'events'],
  ['toon', 'toon'],
];

/** A value as canonical JSON text: bytes as hex, bigints, undefined and -0 spelled out. */
function show(value) {
  return JSON.stringify(value, (_, v) => {
    if (typeof v === 'bigint') return { $bigint: v.toString() };
    if (v === undefined) return { $undefined: true };
    if (typeof v === 'number' && Object.is(v, -0)) return { $number: '-0' };
    if (typeof v === 'number' && !Number.isFinite(v)) return { $number: String(v) };
    if (typeof v === 'function') return { $function: v.name };
    if (v instanceof Uint8Array) return { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex') };
    if (v instanceof Map) return { $map: [...v] };
    if (v instanceof Error) {
      const { name, code, message, line, column, columnUtf16, offset, format } = /** @type {any} */ (v);
      return { $error: { name, code, message, line, column, columnUtf16, offset, format } };
    }
    return v;
  });
}

/**
 * Lines of a transcript, with runs folded: a line equal to the one two before it is not
 * written; `{"repeats":n}` says that n lines were left out (the byte-at-a-time decoders call
 * push and next millions of times). The folded text is a function of the full sequence, and
 * gives it back, so two transcripts are equal exactly when the full ones are.
 */
class Lines {
  constructor() {
    this.out = [];
    this.recent = ['', ''];
    this.repeats = 0;
    this.calls = 0;
  }

  push(line) {
    this.calls++;
    if (line === this.recent[0]) {
      this.repeats++;
    } else {
      this.flush();
      this.out.push(line);
    }
    this.recent = [this.recent[1], line];
  }

  flush() {
    if (this.repeats > 0) this.out.push(`{"repeats":${this.repeats}}`);
    this.repeats = 0;
  }

  text() {
    this.flush();
    return `${this.out.join('\n')}\n`;
  }
}

/** An object a call returned that has methods of its own (a decoder, a session): recorded too. */
const hasMethods = (value) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value) && Object.getPrototypeOf(value) !== Object.prototype;

/**
 * The API with every function, class and method call recorded in `lines` as
 * `{call, returned}` or `{call, threw}`; objects with methods that calls return are recorded
 * too.
 */
function recording(api, lines) {
  const record = (call, run) => {
    let returned;
    try {
      returned = run();
    } catch (e) {
      lines.push(`{"call":${JSON.stringify(call)},"threw":${show(e)}}`);
      throw e;
    }
    lines.push(`{"call":${JSON.stringify(call)},"returned":${show(returned)}}`);
    return hasMethods(returned) ? instance(returned, `${call.replace(/^new /, '')}()`) : returned;
  };
  const instance = (target, className) =>
    new Proxy(target, {
      get(object, key) {
        const member = Reflect.get(object, key, object);
        if (typeof member !== 'function' || typeof key !== 'string') return member;
        return (...args) => record(`${className}#${key}`, () => Reflect.apply(member, object, args));
      },
    });
  // Namespaces are frozen (a Proxy could not hand out wrappers for their members): copies.
  const wrap = (value, path) => {
    if (typeof value === 'function') {
      return new Proxy(value, {
        apply: (fn, self, args) => record(path, () => Reflect.apply(fn, self, args)),
        construct: (Class, args) => record(`new ${path}`, () => Reflect.construct(Class, args)),
      });
    }
    if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, wrap(member, `${path}.${key}`)]));
    }
    return value;
  };
  const namespaces = ['gcx', 'gcf', 'gcb', 'codecs', 'tokens', 'gateway', 'events', 'toon', 'compact'];
  return { ...api, ...Object.fromEntries(namespaces.map((n) => [n, wrap(api[n], n)])) };
}

export async function transcript() {
  const api = await import('agentwire');
  if (api.backend !== 'native') throw new Error(`the native addon is not in use: ${api.nativeLoadError?.stack}`, { cause: api.nativeLoadError });
  const lines = new Lines();
  lines.push(`{"coreVersion":${JSON.stringify(api.coreVersion())}}`);
  const recorded = recording(api, lines);
  const { validator } = await import('agentwire/schema');
  const counts = {};
  for (const [suite, dir] of SUITES) {
    lines.push(`{"suite":${JSON.stringify(suite)}}`);
    const report = runSuite(recorded, suite, await loadSuite(suite, dir), { validator });
    counts[suite] = { passed: report.passed, failed: report.failures.length };
  }
  lines.push('{"suite":"compact"}');
  const benchInputs = join(fixturesDir, 'gcx1', 'bench-inputs');
  const texts = [
    ...readdirSync(benchInputs).filter((n) => n.endsWith('.json')).sort().map((n) => [n.replace(/^\d+_|\.json$/g, ''), readFileSync(join(benchInputs, n), 'utf8')]),
    ['result', readFileSync(join(packageDir, '..', 'bench', 'corpus', 'tool-result-106kb.json'), 'utf8')],
  ];
  for (const [tool, text] of texts) {
    for (const tokenizer of ['cl100k_base', 'o200k_base']) {
      recorded.tokens.count(text, tokenizer);
      recorded.compact.json(text, { tool, tokenizer, exactCounts: true, candidateTexts: true });
    }
  }
  return { text: lines.text(), calls: lines.calls, counts, platform: `${process.platform}-${process.arch}`, node: process.version };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: node test/pack/transcript.mjs OUT');
  const { text, ...summary } = await transcript();
  writeFileSync(out, text);
  console.log(JSON.stringify({ ...summary, bytes: Buffer.byteLength(text) }));
}
