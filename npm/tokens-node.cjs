// CommonJS `agentwire/tokens`.
module.exports = require('./tokens-node.js');
