// Checked with `tsc --noEmit` (test/types.test.mjs): the hand-written index.d.ts describes a
// usable API, and both raw builds (napi's generated binding.d.ts and wasm-bindgen's .d.ts)
// provide every function and method the JS layer (lib/api.js) calls, with these signatures.

import {
  AgentwireError,
  backend,
  codecs,
  errorCodes,
  gcb,
  gcf,
  events,
  gateway,
  gcx,
  init,
  tokens,
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
  type GcfGraphSession,
  type GraphPayload,
  type Section,
  type ToolLayout,
} from 'agentwire';
import * as tokensEntry from 'agentwire/tokens';
import * as wasmEntry from 'agentwire/wasm';
import type * as NativeRaw from '../../native/binding';
import type * as WasmRaw from '../../wasm/nodejs/agentwire_wasm';
import type * as WebRaw from '../../wasm/web/agentwire_wasm';
import type * as WasmGatewayRaw from '../../wasm/gateway/nodejs/agentwire_wasm_gateway';
import type * as WebGatewayRaw from '../../wasm/gateway/web/agentwire_wasm_gateway';
import type * as WasmEventsRaw from '../../wasm/events/nodejs/agentwire_wasm_events';
import type * as WasmGcfRaw from '../../wasm/gcf/nodejs/agentwire_wasm_gcf';
import type * as WebGcfRaw from '../../wasm/gcf/web/agentwire_wasm_gcf';

/** What lib/api.js calls on a raw backend. */
interface RawBackend {
  version(): string;
  __agentwireInternalPanicForTests(): void;
  errorCodes(): string;
  gcxEncode(document: string, options: string): string;
  gcxEncodeGeneric(tool: string, value: string, options: string): string;
  gcxDecode(payload: string, options: string): string;
  gcxDecodeBytes(payload: Uint8Array, options: string): string;
  gcxEscape(text: string): string;
  gcxUnescape(text: string): string;
  gcxCellText(cell: string): string;
  gcxEncodeTool(tool: string, response: string, options: string): string;
  gcxLayouts(): string;
  gcxParseFormat(text: string): string;
  gcxEncodeToolDefinitions(definitions: string, options: string): string;
  gcxDecodeToolDefinitions(payload: string): string;
  gcxEncodeToolRequest(request: string, options: string): string;
  gcxDecodeToolRequest(payload: string): string;
  gcxEncodeErrorEnvelope(envelope: string, options: string): string;
  gcxDecodeErrorEnvelope(payload: string): string;
  gcxCheckRequest(definitions: string, request: string, workspaceRepos: string): string;
  gcxErrorCodeConstants(): string;
  gcfEncode(payload: string): string;
  gcfDecode(text: string, options: string): string;
  gcfEncodeDelta(delta: string): string;
  gcbEncode(payload: string): Uint8Array;
  gcbDecode(bytes: Uint8Array, options: string): string;
  codecsList(): string;
  codecEncode(name: string, payload: string): Uint8Array;
  codecDecode(name: string, input: Uint8Array): string;
  GcfSession: new () => { encode(payload: string): string; size(): number; reset(): void };
  GcxEncoder: new (options: string) => {
    beginSection(section: string): void;
    writeRow(row: string): void;
    writeComment(text: string): void;
    take(): string;
  };
  GcxDecoder: new (options: string) => {
    pushStr(chunk: string): void;
    pushBytes(chunk: Uint8Array): void;
    finish(): void;
    nextItem(): string | null | undefined;
  };
}

/** Gateway functions both builds export with the same signature. */
interface RawGatewayCommon {
  __agentwireInternalPanicForTests(): void;
  gatewayToolIdDerivation(tool: string, options: string): string;
  gatewayToolId(tool: string, options: string): string;
  gatewayParseToolId(value: string): string;
  gatewayFormatToolId(parts: string): string;
  gatewayParsePath(value: string): string;
}

/** The event protocol: the addon and the events wasm module export the same functions. */
interface RawEvents {
  __agentwireInternalPanicForTests(): void;
  eventsParse(input: Uint8Array, options: string): string;
  eventsAccumulate(events: string): string;
  eventsSerialize(events: string, form: string): string;
  eventsMock(mode: string, echoText: string): string;
  eventsFromSse(text: string): string;
  eventsParseToolSpec(spec: string): string;
  eventsFunctionTool(name: string, schemaText: string): string;
  eventsFollowUp(context: string, calls: string, outputs: string): string;
  EventsDecoder: new (options: string) => { push(chunk: Uint8Array): string; finish(): string };
}

/** GCF v3.5.3: the addon and the gcf wasm module export the same functions. */
interface RawGcf3 {
  __agentwireInternalPanicForTests(): void;
  gcf3EncodeGeneric(json: string, options: string): string;
  gcf3Decode(input: Uint8Array, options: string): string;
  gcf3EncodeGraph(payload: string, options: string): string;
  gcf3EncodeGraphDelta(delta: string): string;
  gcf3GraphPackRoot(snapshot: string): string;
  gcf3ApplyGraphDelta(base: string, delta: string): string;
  gcf3KeyedPackRoot(set: string): string;
  gcf3KeyedEncodeFull(set: string, options: string): string;
  gcf3KeyedEncodeDelta(delta: string): string;
  gcf3KeyedApplyDelta(base: string, delta: string): string;
  Gcf3GraphSession: new () => { encode(payload: string): string; size(): number; reset(): void };
  Gcf3KeyedSession: new (options: string) => { emit(set: string): string };
}

/** The addon also counts tokens (the default wasm module does not), and measures cards itself. */
interface NativeOnly extends RawGatewayCommon, RawEvents, RawGcf3 {
  tokensCount(text: string, encoding: string): number;
  gatewayCard(item: string, options: string): string;
  gatewayTruncate(text: string, budget: number): string;
  gatewayBrowseCards(items: string, options: string): string;
  GatewaySession: new (options: string) => {
    register(toolDefs: string, options: string): string;
    browseRanked(ranked: string, options: string): string;
    dispatch(metaTool: string, args: string, ranked: string): string;
    seen(): string;
    reset(): void;
  };
}

type Count = (text: string) => number;
type Validate = (schema: string, args: string) => string;

/** The gateway wasm module takes the token counter and the schema validator as functions. */
interface WasmGateway extends RawGatewayCommon {
  gatewayCard(item: string, options: string, count: Count): string;
  gatewayTruncate(text: string, budget: number, count: Count): string;
  gatewayBrowseCards(items: string, options: string, count: Count): string;
  GatewaySession: new (options: string) => {
    register(toolDefs: string, options: string): string;
    browseRanked(ranked: string, options: string, count: Count): string;
    dispatch(metaTool: string, args: string, ranked: string, count: Count, validate?: Validate | null): string;
    seen(): string;
    reset(): void;
  };
}

declare const nativeRaw: typeof NativeRaw;
declare const wasmRaw: typeof WasmRaw;
declare const webRaw: typeof WebRaw;
export const fromNative: RawBackend & NativeOnly = nativeRaw;
export const fromWasm: RawBackend = wasmRaw;
export const fromWeb: RawBackend = webRaw;
declare const wasmGatewayRaw: typeof WasmGatewayRaw;
declare const webGatewayRaw: typeof WebGatewayRaw;
export const fromWasmGateway: WasmGateway = wasmGatewayRaw;
export const fromWebGateway: WasmGateway = webGatewayRaw;
declare const wasmEventsRaw: typeof WasmEventsRaw;
export const fromWasmEvents: RawEvents = wasmEventsRaw;
declare const wasmGcfRaw: typeof WasmGcfRaw;
declare const webGcfRaw: typeof WebGcfRaw;
export const fromWasmGcf: RawGcf3 = wasmGcfRaw;
export const fromWebGcf: RawGcf3 = webGcfRaw;

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
  const v3Text: string = gcf.encodeGraph(graph, { version: '3.5.3', stream: true, labeledCounts: true });
  const root: string = gcf.graphPackRoot({ symbols: [], edges: [] }).root;
  const graphSession: GcfGraphSession = gcf.createGraphSession();
  graphSession.encode(graph);
  graphSession.free();
  const keyedRoot: string = gcf.keyed.packRoot({ key: 'id', fields: ['id'], rows: [{ id: 1 }] }).root;
  const keyedSession = gcf.keyed.createSession({ tool: 't', policy: { mode: 'fixedN', n: 3 } });
  const emission: { isFull: boolean; wire: string } = keyedSession.emit({ key: 'id', fields: ['id'], rows: [] });
  void [genericValue, document, v3Text, root, keyedRoot, emission];
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
  // @ts-expect-error unknown encoding
  tokens.count('x', 'gpt2');
  // @ts-expect-error GCB1 decodes bytes, not text
  gcb.decode('GCB1');
  // @ts-expect-error a symbol needs a qualified name
  gcf.encode({ symbols: [{ kind: 'function', score: 1, provenance: 'x', distance: 0 }] });
}
