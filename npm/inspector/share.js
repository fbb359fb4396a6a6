// @ts-check
// Share links without a server: the view's state (payload and options) as JSON, compressed
// with deflate-raw and written in base64url into the URL fragment, which browsers never send.

/** The fragment's prefix: the version of this encoding. */
const PREFIX = 'v1.';
/**
 * The longest fragment a share link may carry. Chromium takes URLs of 2 MB, but chat tools,
 * mail clients and issue trackers cut links far shorter; 32 000 characters pass most.
 */
export const MAX_FRAGMENT = 32_000;

/** @param {Uint8Array} bytes */
function toBase64Url(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** @param {string} text */
function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** @param {Uint8Array} bytes @param {CompressionStream | DecompressionStream} stream */
async function through(bytes, stream) {
  const out = new Response(new Blob([/** @type {BlobPart} */ (bytes)]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/**
 * The fragment (without `#`) for `state`, or an error message when it is too long for a link.
 * @param {object} state
 * @returns {Promise<{ fragment: string } | { refused: string }>}
 */
export async function encodeShare(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const fragment = PREFIX + toBase64Url(await through(json, new CompressionStream('deflate-raw')));
  if (fragment.length > MAX_FRAGMENT) {
    return {
      refused: `This payload is too big for a share link: compressed, it takes ${fragment.length.toLocaleString('en')} characters, and a link holds at most ${MAX_FRAGMENT.toLocaleString('en')}. Share the payload as a file instead.`,
    };
  }
  return { fragment };
}

/**
 * The state in a fragment (with or without `#`), or null when it is not a share link.
 * @param {string} fragment
 * @returns {Promise<any>}
 */
export async function decodeShare(fragment) {
  const body = fragment.replace(/^#/, '');
  if (!body.startsWith(PREFIX)) return null;
  const bytes = await through(fromBase64Url(body.slice(PREFIX.length)), new DecompressionStream('deflate-raw'));
  return JSON.parse(new TextDecoder().decode(bytes));
}
