// One module per mode, each `{ name, toolsList(catalog, options), callTool(context, params, extra) }`.
import { compactMode } from './compact.js';
import { gatewayMode } from './gateway.js';
import { proxyMode } from './proxy.js';

/** @typedef {import('./compact.js').Mode} Mode */

/** @type {Record<'compact'|'proxy'|'gateway', Mode>} */
export const modes = { compact: compactMode, proxy: proxyMode, gateway: gatewayMode };
