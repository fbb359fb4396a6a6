// @ts-check
// MCP results as they arrive: a pasted CallToolResult, or a JSON-RPC response carrying one,
// is reduced to the part agentwire-mcp compacts (mcp/src/result.js): each text item that holds
// a JSON object or array, else the structured content.

/**
 * @typedef {{ label: string, text: string, json: boolean }} ResultPart  one thing the model reads:
 *   where it is in the result (`result.content[0].text`), its text, and whether it is JSON that
 *   agentwire-mcp would compact
 * @typedef {{ envelope: 'CallToolResult' | 'JSON-RPC response', isError: boolean, parts: ResultPart[] }} McpResult
 */

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `value` has the shape of a CallToolResult (content[] of typed items, or structuredContent). */
function isCallToolResult(value) {
  if (!isObject(value)) return false;
  const content = value.content;
  const typedContent = Array.isArray(content) && content.length > 0 && content.every((item) => isObject(item) && typeof item.type === 'string');
  return typedContent || (Array.isArray(content) && 'structuredContent' in value);
}

/** JSON text that holds an object or array: what agentwire-mcp compacts (scalars it leaves). */
export function isJsonContainer(text) {
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The MCP result in a parsed JSON value, or null when it is not one.
 * @param {any} value  a parsed JSON value
 * @returns {McpResult | null}
 */
export function mcpResult(value) {
  let result = value;
  let prefix = '';
  /** @type {McpResult['envelope']} */
  let envelope = 'CallToolResult';
  if (isObject(value) && value.jsonrpc === '2.0' && 'result' in value) {
    result = value.result;
    prefix = 'result.';
    envelope = 'JSON-RPC response';
  }
  if (!isCallToolResult(result)) return null;
  const parts = [];
  result.content.forEach((item, i) => {
    if (item.type === 'text' && typeof item.text === 'string') {
      parts.push({ label: `${prefix}content[${i}].text`, text: item.text, json: isJsonContainer(item.text) });
    }
  });
  if (result.structuredContent !== undefined) {
    parts.push({ label: `${prefix}structuredContent`, text: JSON.stringify(result.structuredContent), json: true });
  }
  return { envelope, isError: result.isError === true, parts };
}

/** The part to inspect first: the first JSON text item, else the structured content, else the first part. */
export function defaultPart(result) {
  const index = result.parts.findIndex((p) => p.json && p.label.endsWith('.text'));
  if (index >= 0) return index;
  const structured = result.parts.findIndex((p) => p.json);
  return structured >= 0 ? structured : 0;
}
