// Who may use --listen: the Host header (DNS rebinding).

import { isLoopback } from './config.js';

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** The hostname of a Host header value (port dropped, IPv6 kept in brackets), lowercase. */
function hostnameOf(/** @type {string} */ host) {
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Host header check against DNS rebinding: on a loopback address only loopback names (and
 * --allow-host); elsewhere only --allow-host, when given.
 * @param {{ listenHost: string, allowHosts: string[] }} options
 */
export function hostCheck({ listenHost, allowHosts }) {
  const allowed = new Set(allowHosts.map((h) => hostnameOf(h)).filter(Boolean));
  if (isLoopback(listenHost)) for (const n of LOOPBACK_NAMES) allowed.add(n);
  if (!allowed.size) return () => true;
  return (/** @type {string | undefined} */ host) => {
    const name = host === undefined ? null : hostnameOf(host);
    return name !== null && allowed.has(name);
  };
}
