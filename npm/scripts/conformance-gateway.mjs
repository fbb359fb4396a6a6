// The gateway suite of the JS fixture runner: the same checks as tests/runner/src/gateway.rs, through
// the public `gateway` API. Browser-safe.

import { Mismatch, fail, newReport, same, show } from './conformance-check.mjs';

/** The golden files, in run order (python_quirks.json is not golden). */
export const GATEWAY_FILES = [
  'tool_id.json',
  'tool_id_parse.json',
  'cards.json',
  'truncation.json',
  'browse_render.json',
  'paths.json',
  'path_browse.json',
  'cache_stable.json',
  'args.json',
  'catalog_ingest.json',
  'token_counts.json',
];

const sameKeys = (expected, got, skip = []) => {
  for (const [key, value] of Object.entries(expected)) {
    if (key === 'ok' || skip.includes(key)) continue;
    same(key, value, got?.[key] ?? null);
  }
};
const isOk = (expected) => expected.ok !== false;

/** The fixtures' `error_kind` tag of an agentwire error code. */
export function errorKindTag(code) {
  if (code === 'MCP_INVALID_TOOL') return 'other';
  if (code === 'CARD_HARD_CAP') return 'card_hard_cap';
  const prefix = ['TOOL_ID_', 'PATH_', 'MCP_', 'CATALOG_'].find((p) => code.startsWith(p));
  return (prefix ? code.slice(prefix.length) : code).toLowerCase();
}

function expectError(expected, fn) {
  let error;
  try {
    const got = fn();
    fail(`expected ${expected.error_kind} error, got ${show(got)}`);
  } catch (e) {
    if (e instanceof Mismatch) throw e;
    error = e;
  }
  if (typeof error?.code !== 'string') fail(`expected an AgentwireError, got ${error}`);
  same('error_kind', expected.error_kind, errorKindTag(error.code));
  // The core's message without the position suffix the JS error adds.
  const where = error.line != null ? ` at line ${error.line} column ${error.column}` : '';
  const message = where && error.message.endsWith(where) ? error.message.slice(0, -where.length) : error.message;
  if (expected.message != null) same('message', expected.message, message);
}

/** The tool definitions of the real catalogs in tool_id.json (`real/<server>/<tool>`). */
export function realCatalog(toolIds, name) {
  const layout = { flat13: [['time', 'filesystem'], false], grouped22: [['time', 'filesystem', 'everything'], true] }[name];
  if (!layout) fail(`unknown catalog ${show(name)}`);
  const [servers, prefixed] = layout;
  const defs = [];
  for (const c of toolIds.cases) {
    const m = /^real\/([^/]+)\//.exec(c.id);
    if (!m || !servers.includes(m[1])) continue;
    const tool = structuredClone(c.input.tool);
    if (prefixed) tool.name = `${m[1]}.${tool.name}`;
    defs.push(tool);
  }
  return defs;
}

const DERIVATION = ['upstream_name', 'inferred_namespace', 'derived_name', 'canonical_shape', 'hash_input', 'computed_hash8'];

function makeChecks(api, files, { validator }) {
  const { gateway } = api;
  const session = (options, defs) => {
    const s = new gateway.BrowseSession({ ...options, validator });
    s.register(defs);
    return s;
  };
  return {
    'tool_id.json'(c) {
      const options = { serverName: c.input.server_name ?? null };
      if (isOk(c.expected)) {
        const got = gateway.toolId(c.input.tool, options);
        sameKeys(c.expected, got, ['item']);
        sameKeys(c.expected.item, got.item);
        return;
      }
      expectError(c.expected, () => gateway.toolId(c.input.tool, options));
      if (DERIVATION.some((k) => k in c.expected)) {
        const got = gateway.toolIdDerivation(c.input.tool, options);
        for (const key of DERIVATION.filter((k) => k in c.expected)) same(key, c.expected[key], got[key]);
      }
    },
    'tool_id_parse.json'(c) {
      if (c.op === 'parse') {
        if (!isOk(c.expected)) return expectError(c.expected, () => gateway.parseToolId(c.input));
        const parts = gateway.parseToolId(c.input);
        same('parts', c.expected.parts, parts);
        same('formatted', c.expected.formatted, gateway.formatToolId(parts));
      } else if (c.op === 'format') {
        if (!isOk(c.expected)) return expectError(c.expected, () => gateway.formatToolId(c.input));
        same('tool_id', c.expected.tool_id, gateway.formatToolId(c.input));
      } else fail(`unknown op ${show(c.op)}`);
    },
    'cards.json'(c) {
      const options = { score: c.input.score, targetTokens: c.input.target_tokens, hardCapTokens: c.input.hard_cap_tokens };
      if (!isOk(c.expected)) return expectError(c.expected, () => gateway.card(c.input.item, options));
      sameKeys(c.expected, gateway.card(c.input.item, options));
    },
    'truncation.json'(c) {
      sameKeys(c.expected, gateway.truncate(c.input.text, c.input.budget), ['linear_scan_would_give_chars']);
    },
    'browse_render.json'(c) {
      const { mode, scores, max_cards: maxCards, items } = c.input;
      sameKeys(c.expected, gateway.browseCards(items, { mode, scores, maxCards }));
    },
    'paths.json'(c) {
      if (!isOk(c.expected)) return expectError(c.expected, () => gateway.parsePath(c.input));
      same('segments', c.expected.segments, gateway.parsePath(c.input));
    },
    'path_browse.json'(c) {
      if (!files['tool_id.json']) fail('path_browse.json needs tool_id.json in the same directory');
      const s = session({}, realCatalog(files['tool_id.json'], c.input.catalog));
      try {
        const reply = s.browse({ path: c.input.path });
        if (!isOk(c.expected)) {
          same('isError', true, reply.isError);
          return sameKeys(c.expected, reply.body);
        }
        if (reply.isError) fail(`unexpected error ${show(reply.body)}`);
        same('ids', c.expected.ids, reply.result.map((card) => card.id));
        c.expected.cards.forEach((want, i) => {
          // Group cards' name and description come from a keyword labeler: informative.
          sameKeys(want, reply.result[i], want.kind === 'internal' ? ['name', 'description'] : []);
        });
      } finally {
        s.free();
      }
    },
    'cache_stable.json'(c) {
      const s = session({ topK: c.input.top_k, cacheStable: true }, c.input.catalog);
      try {
        c.input.steps.forEach((step, n) => {
          const want = c.expected.steps[n];
          const at = (check) => {
            try {
              check();
            } catch (e) {
              if (e instanceof Mismatch) fail(`step ${n}: ${e.message}`);
              throw e;
            }
          };
          if (step.op === 'browse') {
            const reply = s.browseRanked(step.cards);
            const emitted = reply.result.map((card) => ({ id: card.id, score: card.score ?? null, kind: card.kind }));
            at(() => same('emitted', want.emitted, emitted));
          } else if (step.op === 'hydrate' || step.op === 'execute') {
            const reply = step.op === 'hydrate' ? s.view(step.tool_id) : s.execute(step.tool_id, step.args);
            at(() => same('ok', want.ok, !reply.isError));
            if (want.error) at(() => same('error', want.error, reply.body.error));
          } else if (step.op === 'refresh') {
            s.register(c.input.catalog);
          } else fail(`step ${n}: unknown op ${show(step.op)}`);
          at(() => same('seen_after', want.seen_after, s.seen()));
        });
      } finally {
        s.free();
      }
    },
    'args.json'(c) {
      const s = session({}, c.input.catalog);
      try {
        const reply = s.dispatch(c.input.meta_tool, c.input.arguments);
        same('isError', c.expected.isError, reply.isError);
        if ('ok_kind' in c.expected) return same('ok_kind', c.expected.ok_kind, reply.kind);
        const { body } = c.expected;
        for (const key of ['error', 'path', 'retryable']) same(key, body[key], reply.body[key]);
        // Schema failures: the messages are Python jsonschema's (informative).
        if (body.details) same('details.path', body.details.path, reply.body.details?.path);
        else same('message', body.message, reply.body.message);
      } finally {
        s.free();
      }
    },
    'catalog_ingest.json'(c) {
      const s = new gateway.BrowseSession({ validator });
      try {
        const register = () => s.register(c.input.tool_defs, { onInvalid: c.input.on_invalid });
        if (!isOk(c.expected)) return expectError(c.expected, register);
        const got = register();
        same('registered', c.expected.registered, got.registered);
        same('tool_ids_sorted', c.expected.tool_ids_sorted, got.tool_ids);
        if (c.expected.skipped) {
          const skipped = got.skipped.map((x) => ({ index: x.index, name: x.name, error_kind: errorKindTag(x.code) }));
          same('skipped', c.expected.skipped, skipped);
        }
      } finally {
        s.free();
      }
    },
    'token_counts.json'(c) {
      same('tokens', c.expected.tokens, api.tokens.count(c.input));
    },
  };
}

/**
 * Runs the gateway files present in `files` (name → parsed JSON). `options.validator` is the
 * JSON Schema validator for wasm sessions (agentwire/schema); the native addon has its own.
 */
export function runGatewaySuite(api, files, options = {}) {
  const { report, record } = newReport();
  const checks = makeChecks(api, files, options);
  const present = GATEWAY_FILES.filter((name) => files[name]);
  if (present.length === 0) throw new Error('no gateway vector file found');
  for (const name of present) {
    const { cases, count } = files[name];
    if (!Array.isArray(cases)) throw new Error(`${name}: no "cases" array`);
    if (typeof count === 'number' && count !== cases.length) throw new Error(`${name}: declares count ${count} but holds ${cases.length} cases`);
    for (const c of cases) record(`gateway/${name}::${c.id}`, () => checks[name](c));
  }
  if (files['python_quirks.json']) report.notes.push('python_quirks.json: not golden (documented deviations), not counted');
  return report;
}
