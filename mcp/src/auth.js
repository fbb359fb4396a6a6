// Who may use --listen: bearer tokens (compared in constant time), the Host header (DNS
// rebinding) and the Origin header (web pages). MCP forbids passing the client's token on to an
// upstream: the gateway never does; a session remembers which token opened it.

import { createHash, timingSafeEqual } from 'node:crypto';
import { isLoopback } from './config.js';

const sha256 = (/** @type {string} */ s) => createHash('sha256').update(s).digest();

/**
 * @param {string[]} tokens accepted bearer tokens (none: no auth)
 */
export function createAuth(tokens) {
  const digests = tokens.map(sha256);
  return {
    required: digests.length > 0,
    /**
     * The identity of the request's token (its SHA-256, hex), `null` without auth, `false` when
     * refused. Every token is compared, with no early exit, so timing says nothing.
     * @param {string | undefined} header the Authorization header
     * @returns {string | null | false}
     */
    check(header) {
      if (!digests.length) return null;
      const m = /^Bearer +([\x21-\x7e]+) *$/i.exec(header ?? '');
      const given = sha256(m ? m[1] : '');
      let found = -1;
      for (let i = 0; i < digests.length; i++) {
        if (timingSafeEqual(given, digests[i])) found = i;
      }
      return found >= 0 ? digests[found].toString('hex') : false;
    },
  };
}

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

/**
 * Origin check (the MCP spec's MUST for Streamable HTTP): no Origin (not a browser) and
 * loopback origins pass, as do the --allow-origin ones; anything else (including "null") not.
 * @param {string[]} allowOrigins
 */
export function originCheck(allowOrigins) {
  const allowed = new Set(allowOrigins);
  return (/** @type {string | undefined} */ origin) => {
    if (origin === undefined) return true;
    if (allowed.has(origin)) return true;
    let url;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === origin && LOOPBACK_NAMES.includes(url.hostname.toLowerCase());
  };
}
