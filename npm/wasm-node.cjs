// CommonJS entry for `agentwire/wasm`.
module.exports = require('./wasm-node.js');
