// The event protocol in browsers: its own wasm module, fetched by `events.load()`.
import { lazyWasm } from './lazy-wasm.js';

export const browserEventsBackend = lazyWasm(
  () => import('../wasm/events/web/agentwire_wasm_events.js'),
  'agentwire: call `await events.load()` before using events',
);
