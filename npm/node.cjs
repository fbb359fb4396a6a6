// CommonJS entry: the ESM entry through require(esm) (Node ≥ 20.19).
module.exports = require('./node.js');
