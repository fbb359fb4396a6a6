// Checked with `tsc --noEmit` (test/types.test.mjs): the hand-written index.d.ts describes a
// usable API, and every raw build (napi's generated binding.d.ts and each wasm module's
// wasm-bindgen .d.ts) has the one dispatch signature lib/boundary.js calls.

import {
  AgentwireError,
  backend,
  codecs,
  compact,
  errorCodes,
  gcb,
  gcf,
  events,
  gateway,
  gcx,
  init,
  tokens,
  toon,
  type CardReport,
  type ChoiceCard,
  type DecodeItem,
  type DecodedEventItem,
  type EventStreamVerdict,
  type GatewayErrorBody,
  type MetaToolReply,
  type ToolIdParts,
  type DecodedGraphPayload,
  type GcfDocument,
  type GcfEncodeOptions,
  type GcfGroupedOptions,
  type GcfGraphSession,
  type GraphPayload,
  type Section,
  type ToolLayout,
  type ToolEncoding,
  type CompactResult,
} from 'agentwire';
import * as tokensEntry from 'agentwire/tokens';
import * as wasmEntry from 'agentwire/wasm';
import type * as NativeRaw from '../../native/binding';
import type * as CoreRaw from '../../wasm/agentwire_core';
import type * as GcfRaw from '../../wasm/agentwire_gcf';
import type * as GatewayRaw from '../../wasm/agentwire_gateway';
import type * as EventsRaw from '../../wasm/agentwire_events';
import type * as ToonRaw from '../../wasm/agentwire_toon';
import type * as SchemaRaw from '../../packages/schema/wasm/agentwire_schema';
import type * as TokensRaw from '../../packages/tokens/wasm/agentwire_tokens';

type Main = string | undefined;
type Bytes = Uint8Array | undefined;
type Count = ((text: string) => number) | undefined;
type Validate = ((schema: string, args: string) => string) | undefined;

/**
 * What lib/boundary.js calls on a raw backend: the napi addon and every wasm module dispatch
 * through one export table (bindings/src/exports.rs). `session` tells Rust which object shapes
 * this JS side already knows. The addon writes value results into `scratch`; a wasm module keeps
 * them in its memory (`tapePointer`, `tapeLength`).
 */
interface RawNative {
  call(id: number, session: number, text: Main, bytes: Bytes, ops: Uint32Array, doubles: Float64Array, argText: string, scratch: Uint32Array, counter: Count, validator: Validate): unknown;
  Instance: new () => {
    init(id: number, session: number, text: Main, bytes: Bytes, ops: Uint32Array, doubles: Float64Array, argText: string): unknown;
    call(id: number, session: number, text: Main, bytes: Bytes, ops: Uint32Array, doubles: Float64Array, argText: string, scratch: Uint32Array, counter: Count, validator: Validate): unknown;
    free(): void;
  };
}

/**
 * A wasm module takes its arguments in its own memory: lib/boundary.js asks for room
 * (`argOps`, `argDoubles`, `argBytes`: where to write n items), writes the ops, the doubles, the
 * main input and the argument text there (strings as UTF-8, by TextEncoder.encodeInto), and
 * passes their lengths; `main` is 0 (none), 1 (text) or 2 (bytes).
 */
interface RawWasm {
  call(id: number, session: number, main: number, mainLength: number, opsLength: number, doublesLength: number, textLength: number, counter: Count, validator: Validate): unknown;
  Instance: new () => {
    init(id: number, session: number, main: number, mainLength: number, opsLength: number, doublesLength: number, textLength: number): unknown;
    call(id: number, session: number, main: number, mainLength: number, opsLength: number, doublesLength: number, textLength: number, counter: Count, validator: Validate): unknown;
    free(): void;
  };
  argOps(length: number): number;
  argDoubles(length: number): number;
  argBytes(length: number): number;
  tapePointer(): number;
  tapeLength(): number;
}

declare const nativeRaw: typeof NativeRaw;
export const fromNative: RawNative = nativeRaw;
declare const coreRaw: typeof CoreRaw;
export const fromCore: RawWasm = coreRaw;
declare const gcfRaw: typeof GcfRaw;
export const fromGcf: RawWasm = gcfRaw;
declare const gatewayRaw: typeof GatewayRaw;
export const fromGateway: RawWasm = gatewayRaw;
declare const eventsRaw: typeof EventsRaw;
export const fromEvents: RawWasm = eventsRaw;
declare const toonRaw: typeof ToonRaw;
export const fromToon: RawWasm = toonRaw;
declare const schemaRaw: typeof SchemaRaw;
export const fromSchema: RawWasm = schemaRaw;
declare const tokensRaw: typeof TokensRaw;
export const fromTokens: RawWasm = tokensRaw;

export async function usage(): Promise<void> {
  await init();
  await gateway.load();
  const payload: string = gcx.encode(
    [{ tool: 'search_symbols', fields: ['id', 'line'], meta: { total: '1' }, rows: [['a.go::Foo', 10n], { id: 'b', line: { int: '3' } }] }],
    { lossless: true },
  );
  const sections: Section[] = gcx.decode(payload, {
    maxLineBytes: 1 << 20,
    maxSections: 10,
    maxRows: 1000,
    maxCells: 10_000,
    maxOutputBytes: 1 << 20,
  }).sections;
  const tool: string = sections[0].tool;
  const version: 1 = sections[0].version;
  const cell: string | undefined = sections[0].rows[0]['id'];
  const generic: string = gcx.encodeGeneric('t', { any: ['thing'] }) + gcx.encodeGenericJson('t', '[1]', { maxDepth: 8 });
  const enc = new gcx.Encoder();
  enc.beginSection({ tool: 't', fields: ['a'] });
  enc.writeRow([{ float64: '1e6' }]);
  const text: string = enc.take();
  const dec = new gcx.Decoder({ comments: true });
  dec.push(new Uint8Array([71]));
  dec.finish();
  for (const item of dec) {
    if (item.type === 'row') {
      const value: string | undefined = item.row['a'];
      void value;
    }
  }
  for await (const item of gcx.decodeStream(['GCX1 tool=t fields=a\n'])) {
    const kind: DecodeItem['type'] = item.type;
    void kind;
  }
  const b: 'native' | 'wasm' = backend;
  const w: 'native' | 'wasm' = wasmEntry.backend;
  const codes: string[] = errorCodes();
  try {
    gcx.decode('');
  } catch (e) {
    if (e instanceof AgentwireError) {
      const where: [string, number | null, number | null, number | null] = [e.code, e.line, e.column, e.offset];
      void where;
    }
  }
  const layout: ToolLayout = gcx.layouts()[0];
  const viaLayout: string = gcx.encodeTool('search_symbols', [], { strategy: 'bench', layouts: [layout], literalNumbers: true });
  const detailed: ToolEncoding = gcx.encodeToolDetailed('search_symbols', [], { strict: true, compat: 'gcx-go' });
  const why: string | undefined = gcx.encodeToolJsonDetailed('search_symbols', '[]').fallbackReason;
  const strategyUsed: 'layout' | 'generic' | 'bench' = detailed.strategy;
  const toonText: string = toon.encode({ a: [1, 2] }, { delimiter: '\t', indent: 4, keyFolding: 'safe', flattenDepth: 2 });
  const toonBack: unknown = toon.decode(toonText, { strict: false, expandPaths: 'safe', indent: 4 });
  const toonFromJson: string = toon.encodeJson('{"a":1}', { delimiter: 'pipe' });
  await toon.load();
  void [toonBack, toonFromJson];
  const compacted: CompactResult = compact.json('{"a":1}', { tool: 't', counter: (t) => t.length, minSavings: 0 });
  const compactedFormat: string = compact.json({ a: 1 }, { tokenizer: 'bytes' }).format;
  const decodedBack: unknown = compact.decode(compacted.text);
  const same: boolean = compact.equal(decodedBack, { a: 1 });
  const reason = compact.json('[9007199254740993]').reason;
  if (reason?.code === 'INEXACT_NUMBER') {
    const at: [string, string] = [reason.path, reason.numeral];
    void at;
  } else if (reason?.code === 'BELOW_MIN_SAVINGS') {
    const shares: [number, number] = [reason.savings, reason.minSavings];
    void shares;
  }
  void [why, strategyUsed, compactedFormat, same];
  const request = gcx.decodeToolRequest(gcx.encodeToolRequest({ tool: 't', scope: 'fan-out', repo: ['*'] }));
  const repo: string | string[] | null = request.repo;
  const envelope = gcx.checkRequest([{ name: 't', scope: 'repo' }], { tool: 't', scope: 'repo' }, ['a']);
  const code: string | undefined = envelope?.code;
  const constant: 'unknown_repo' = gcx.ERR_CODE_UNKNOWN_REPO;
  const format: 'gcx' | 'text' | 'json' = gcx.parseFormat('gcx');
  await tokens.load('o200k');
  const counted: number = tokens.count('text', 'o200k_base') + tokensEntry.count('text');
  const graph: GraphPayload = { tool: 't', symbols: [{ qualifiedName: 'a', kind: 'function', score: 0.5, provenance: 'lsp', distance: 0 }] };
  const gcfText: string = gcf.encode(graph);
  const decodedGraph: DecodedGraphPayload = gcf.decode(gcfText);
  const signature: string = decodedGraph.symbols[0].signature;
  const blast: number = decodedGraph.symbols[0].components.blastRadius;
  const session = gcf.createSession();
  const sessionText: string = session.encode(graph);
  const binary: Uint8Array = gcb.encode(graph);
  const back: DecodedGraphPayload = gcb.decode(binary, { maxPayloadBytes: 1 << 20 });
  const backText: string = gcf.decodeToJson(gcfText, { maxPayloadBytes: 1 << 20 });
  await gcf.load();
  const genericText: string = gcf.encodeGeneric({ rows: [{ id: 1 }, { id: 2 }] });
  const genericValue: unknown = gcf.decodeGeneric(genericText, { largeInt: 'string' });
  const document: GcfDocument = gcf.decodeAny(gcfText);
  const readVersion: '1.1' | '3.5.3' | '3.6.0' = document.version;
  const pinned: GcfEncodeOptions = { version: '3.5.3', lossless: true };
  const v3_5_3Text: string = gcf.encodeGeneric({ rows: [{ id: 1 }] }, pinned) + gcf.encodeGenericJson('[]', { version: '3.6.0' });
  const by: GcfGroupedOptions = { key: 'id', group: 'team' };
  const groupedText: string = gcf.encodeGenericGrouped([{ id: 1, team: 'a' }], by) + gcf.encodeGenericGroupedJson('[{"id":1,"team":"a"}]', by);
  const v3Text: string = gcf.encodeGraph(graph, { version: '3.5.3', stream: true, labeledCounts: true });
  const root: string = gcf.graphPackRoot({ symbols: [], edges: [] }).root;
  const graphSession: GcfGraphSession = gcf.createGraphSession();
  graphSession.encode(graph);
  graphSession.free();
  const keyedRoot: string = gcf.keyed.packRoot({ key: 'id', fields: ['id'], rows: [{ id: 1 }] }).root;
  const keyedSession = gcf.keyed.createSession({ tool: 't', policy: { mode: 'fixedN', n: 3 } });
  const emission: { isFull: boolean; wire: string } = keyedSession.emit({ key: 'id', fields: ['id'], rows: [] });
  void [genericValue, document, readVersion, v3_5_3Text, groupedText, v3Text, root, keyedRoot, emission];
  const viaCodec: string | Uint8Array = codecs.encode('gcf', graph);
  void [tool, version, cell, generic, text, b, w, codes, viaLayout, repo, code, constant, format, counted];
  void [signature, blast, sessionText, back, backText, viaCodec];

  const toolId: string = gateway.toolId({ name: 'gh.create_issue', description: 'Create.' }).tool_id;
  const parts: ToolIdParts = gateway.parseToolId(toolId);
  const cardReport: CardReport = gateway.card({ id: toolId, tags: ['mcp'] }, { score: 0.5 });
  const wire: string = cardReport.wire_json;
  const browser = new gateway.BrowseSession({ cacheStable: true, topK: 5, router: () => [{ id: toolId, score: 1 }] });
  const reply: MetaToolReply = browser.browse({ path: '/' });
  const cards: ChoiceCard[] = reply.isError ? [] : reply.kind === 'cards' ? reply.result : [];
  const errorBody: GatewayErrorBody | null = reply.isError ? reply.body : null;
  void [parts, wire, cards, errorBody];
  await events.load();
  const verdict: EventStreamVerdict = events.parse('{"type":"response.completed"}\n');
  const decoder = events.createDecoder({ maxLineBytes: 1 << 20 });
  const decoded: DecodedEventItem[] = decoder.push(new Uint8Array([123]));
  const status: string | null = decoder.finish().result.status;
  const jsonlText: string = events.serialize(events.mock('text') ? [] : [], { form: 'spec' });
  const stream: TransformStream = events.transformStream();
  void [verdict, decoded, status, jsonlText, stream];
  // @ts-expect-error forms are godex or spec
  events.serialize([], { form: 'yaml' });
  // @ts-expect-error card kinds are a closed set
  gateway.card({ id: 'x', kind: 'robot' });
  // @ts-expect-error onInvalid is skip or raise
  browser.register([], { onInvalid: 'ignore' });

  // @ts-expect-error limits are numbers
  gcx.decode('', { maxRows: '10' });
  // @ts-expect-error lossless is a boolean
  gcx.encode([], { lossless: 'yes' });
  // @ts-expect-error a section needs fields
  gcx.encode([{ tool: 't' }]);
  // @ts-expect-error payloads are text or bytes
  gcx.decode(42);
  // @ts-expect-error cells are not nested arrays
  gcx.encode([{ tool: 't', fields: ['a'], rows: [[['nested']]] }]);
  // @ts-expect-error scopes are repo, workspace or fan-out
  gcx.encodeToolRequest({ tool: 't', scope: 'global' });
  // @ts-expect-error unknown strategy
  gcx.encodeTool('t', {}, { strategy: 'fast' });
  // @ts-expect-error compat is 'checked' or 'gcx-go'
  gcx.encode([], { compat: 'go' });
  // @ts-expect-error unknown tokenizer
  compact.json('{}', { tokenizer: 'p50k' });
  // @ts-expect-error unknown encoding
  tokens.count('x', 'gpt2');
  // @ts-expect-error GCB1 decodes bytes, not text
  gcb.decode('GCB1');
  // @ts-expect-error a symbol needs a qualified name
  gcf.encode({ symbols: [{ kind: 'function', score: 1, provenance: 'x', distance: 0 }] });
}
