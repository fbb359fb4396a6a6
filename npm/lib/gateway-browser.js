// The gateway in browsers: its own wasm module, fetched by `gateway.load()` so pages that only
// encode never download it.
import { lazyWasm } from './lazy-wasm.js';

export const browserGatewayBackend = lazyWasm(
  () => import('../wasm/gateway/web/agentwire_wasm_gateway.js'),
  'agentwire: call `await gateway.load()` before using the gateway',
);
