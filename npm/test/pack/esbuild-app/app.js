// A small app bundled by esbuild (test/pack/esbuild.test.mjs, docs/bundlers.md). Each .wasm and
// the vocabulary are imported as URLs (esbuild's `file` loader copies them beside the bundle
// under hashed names) and handed to their module's load.
import { backend, gcf, gcx, init } from 'agentwire';
import { count, load } from 'agentwire/tokens';
import coreWasm from 'agentwire/core.wasm';
import gcfWasm from 'agentwire/gcf.wasm';
import tokensWasm from 'agentwire-tokens/tokens.wasm';
import cl100kVocabulary from 'agentwire-tokens/cl100k_base.bin';

try {
  await init(coreWasm);
  await gcf.load(gcfWasm);
  await load('cl100k_base', { wasm: tokensWasm, vocabulary: cl100kVocabulary });
  window.agentwireResult = {
    backend,
    gcx: gcx.encodeGeneric('t', { a: 1 }),
    gcf: gcf.encodeGeneric({ rows: [{ id: 1, name: 'Ada' }] }),
    tokens: count('hello world'),
    urls: [coreWasm, gcfWasm, tokensWasm, cl100kVocabulary],
  };
} catch (e) {
  window.agentwireResult = { error: String(e?.stack ?? e) };
}
