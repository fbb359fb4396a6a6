// `agentwire/wasm` for TypeScript's node10 resolution, which ignores `exports`: the same API.
export * from './index.js';
