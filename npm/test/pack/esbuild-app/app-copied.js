// The same app with no URLs: the modules fetch their .wasm and the vocabulary beside the bundle
// (the page copies node_modules/agentwire/wasm/*.wasm and agentwire-tokens' module and
// vocabularies there; the names are unique).
import { backend, gcf, gcx, init } from 'agentwire';
import { count, load } from 'agentwire/tokens';

try {
  await init();
  await gcf.load();
  await load('o200k_base');
  window.agentwireResult = {
    backend,
    gcx: gcx.encodeGeneric('t', { a: 1 }),
    gcf: gcf.encodeGeneric({ rows: [{ id: 1, name: 'Ada' }] }),
    tokens: count('hello world', 'o200k_base'),
  };
} catch (e) {
  window.agentwireResult = { error: String(e?.stack ?? e) };
}
