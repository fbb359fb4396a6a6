// Test-only (loader.test.mjs, `node --require test/self-check-hook.cjs`): every native addon
// loads through a wrapper whose GCX1 text results have their 7s turned into 8s, as a
// miscompiled or corrupted addon could write. The addon itself is the real one, unchanged, and
// so is the loader: only what crosses back from Rust is altered.
const Module = require('node:module');

const loadAddon = Module._extensions['.node'];
Module._extensions['.node'] = (module, filename) => {
  loadAddon(module, filename);
  const real = module.exports;
  const corrupt = (result) => (typeof result === 'string' && result.startsWith('GCX1 ') ? result.replaceAll('7', '8') : result);
  module.exports = { ...real, call: (...args) => corrupt(real.call(...args)) };
};
