// CommonJS `agentwire/schema`.
module.exports = require('./schema-node.js');
