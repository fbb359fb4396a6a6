// Compaction of one MCP tool result: JSON text blocks (and structuredContent under `strip`)
// become the compactJson winner; everything else is left exactly as the upstream sent it.

import { count } from 'agentwire/tokens';
import { compact } from 'agentwire';

const { json: compactJson, equal: deepEqual } = compact;

const byteLength = (s) => Buffer.byteLength(s, 'utf8');

/**
 * @typedef {{ tool?: string, tokenizer?: 'cl100k_base' | 'o200k_base', minSavings?: number, structured?: 'keep' | 'strip',
 *   measure?: boolean }} CompactOptions `measure: false` skips counting what compaction leaves
 *   alone (the report then counts only the JSON it compacted).
 * @typedef {{ bytesBefore: number, bytesAfter: number, tokensBefore: number, tokensAfter: number,
 *   formats: string[], kept: Array<{ code: string, message: string }> }} CompactReport `kept`: why
 *   each text block left as it was was kept (compact.json's reason: NOT_JSON for prose)
 */

/**
 * The result with its JSON text compacted, and what it saved. Input and output are what the
 * model reads: the text blocks, plus `JSON.stringify(structuredContent)` when present.
 *
 * @param {any} result a CallToolResult
 * @param {CompactOptions} [options]
 * @returns {{ result: any, report: CompactReport }}
 */
export function compactResultDetailed(result, options = {}) {
  const { tokenizer = 'cl100k_base', structured = 'keep', measure = true } = options;
  const tokensOf = (text) => (measure ? count(text, tokenizer) : 0);
  /** @type {CompactReport} */
  const report = { bytesBefore: 0, bytesAfter: 0, tokensBefore: 0, tokensAfter: 0, formats: [], kept: [] };
  const tally = (text, tokens, before, after) => {
    if (before) {
      report.bytesBefore += byteLength(text);
      report.tokensBefore += tokens;
    }
    if (after) {
      report.bytesAfter += byteLength(text);
      report.tokensAfter += tokens;
    }
  };
  if (!result || typeof result !== 'object' || result.isError || !Array.isArray(result.content)) {
    return { result, report };
  }

  const hasStructured = result.structuredContent !== undefined;
  // Only `strip` asks whether a text block already carries the structured content.
  const askCarried = hasStructured && structured === 'strip';
  /** @type {string | undefined} */
  let scText;
  let structuredCarried = false;
  const content = result.content.map((block) => {
    if (block?.type !== 'text' || typeof block.text !== 'string') return block;
    if (askCarried && wrapsText(result.structuredContent, block.text)) structuredCarried = true;
    // Every text block goes to the core, which parses it once and says why it keeps one (prose
    // is NOT_JSON): no guess from the first character.
    const out = compactJson(block.text, options);
    tally(block.text, out.inputTokens, true, false);
    tally(out.text, out.tokens, false, true);
    report.formats.push(out.format);
    if (out.reason !== null) report.kept.push({ code: out.reason.code, message: out.reason.message });
    if (askCarried && !structuredCarried && out.reason?.code !== 'NOT_JSON') {
      scText ??= JSON.stringify(result.structuredContent);
      structuredCarried = carries(block.text, scText, result.structuredContent);
    }
    return out.format === 'input' ? block : { ...block, text: out.text };
  });

  const next = { ...result, content };
  if (hasStructured) {
    scText ??= JSON.stringify(result.structuredContent);
    tally(scText, tokensOf(scText), true, structured === 'keep');
    if (structured === 'strip') {
      // The model must still get the data: carry it as a compact text block if no text does.
      if (!structuredCarried) {
        const out = compactJson(scText, { ...options, minSavings: 0 });
        content.push({ type: 'text', text: out.text });
        report.formats.push(out.format);
        tally(out.text, out.tokens, false, true);
      }
      delete next.structuredContent;
    }
  }
  return { result: next, report };
}

/**
 * A tool result with its JSON compacted: for MCP server authors, `return compactResult(result,
 * { tool: 'my_tool' })` at the end of a tool handler.
 *
 * @param {any} result
 * @param {CompactOptions} [options]
 */
export function compactResult(result, options) {
  return compactResultDetailed(result, options).result;
}

/**
 * Whether a JSON text block holds the structured content: the text as `JSON.stringify` writes the
 * content (compact or indented by 2, as most servers do) needs no parse; anything else is
 * parsed and compared.
 */
function carries(/** @type {string} */ text, /** @type {string} */ scText, /** @type {unknown} */ sc) {
  if (text === scText || (text.length >= scText.length && text === JSON.stringify(sc, null, 2))) return true;
  try {
    return deepEqual(JSON.parse(text), sc);
  } catch {
    return false;
  }
}

/**
 * `{content: text}`-style structured content (server-filesystem and others): one member holding
 * exactly a text block's text, so the text block already carries it.
 */
function wrapsText(sc, text) {
  if (sc === null || typeof sc !== 'object' || Array.isArray(sc)) return false;
  const values = Object.values(sc);
  return values.length === 1 && values[0] === text;
}
