// Types of the `agentwire` package (every entry: Node native, Node wasm, browser). Written by
// hand; test/types checks them against the generated declarations of both builds with tsc,
// test/pack/types.test.mjs the packed package under the common tsconfigs.

// `Symbol.dispose` (the sessions' `[Symbol.dispose]()`) is in TypeScript's lib only from
// esnext.disposable on; declared here as @types/node does, so es2020/es2022 targets check too.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/**
 * Where a wasm module comes from: its URL, a fetch Response, its bytes or a compiled module.
 * Written without DOM-only names (BufferSource, the WebAssembly namespace), so Node projects
 * whose lib has no DOM check too.
 */
export type WasmInput = string | URL | Request | Response | ArrayBuffer | ArrayBufferView | CompiledWasmModule;

/** `WebAssembly.Module` where the lib in use declares it (never otherwise). */
export type CompiledWasmModule = typeof globalThis extends { WebAssembly: { Module: abstract new (...args: any[]) => infer M } }
  ? M
  : never;

/** Every error agentwire throws. `code` is stable and identical in Rust, native and wasm. */
export declare class AgentwireError extends Error {
  readonly name: 'AgentwireError';
  /** Stable code, e.g. `GCX_BAD_PREFIX`, `NON_FINITE_NUMBER`, `INVALID_ARGUMENT`. */
  readonly code: string;
  /** Format or layer: `gcx1`, `json`, `api`. */
  readonly format: string;
  /** 1-based line of the input, or null. */
  readonly line: number | null;
  /** 1-based column in characters (Unicode scalar values), or null. */
  readonly column: number | null;
  /** 1-based column in UTF-16 code units (a JavaScript string index + 1), or null. */
  readonly columnUtf16: number | null;
  /** Byte offset in the UTF-8 input, or null. */
  readonly offset: number | null;
}

/** A cell with an explicit type, as the GCX1 reference stringifies it. */
export type TypedCell =
  | { int: string | number | bigint }
  | { uint: string | number | bigint }
  /** Go `%g`: `{float64: "1e6"}` → `1e+06`; also `"NaN"`, `"+Inf"`, `"-Inf"`, `"-0"`. */
  | { float64: string | number }
  | { float32: string | number }
  /** Number text printed verbatim (Go `json.Number`). */
  | { json_number: string }
  | { bytes: string };

/**
 * One row value. A safe integer is an integer, any other number is a float (Go `%g`), a
 * BigInt is an exact 64-bit integer, null/undefined is an empty cell; NaN/±Infinity throw.
 */
export type Cell = string | number | bigint | boolean | null | undefined | TypedCell;

/** A row: cells in field order, or an object keyed by field name. */
export type Row = readonly Cell[] | { readonly [field: string]: Cell };

/** A section to encode. Give `rows`, or `ops` to put comments between rows. */
export interface SectionInput {
  tool: string;
  fields: readonly string[];
  meta?: { readonly [key: string]: string };
  rows?: readonly Row[];
  ops?: ReadonlyArray<{ row: Row } | { comment: string }>;
}

export interface EncodeOptions {
  /**
   * false (default): gcx-go's bytes, checked as `compat` says. true: decoders read back exactly
   * what was written (a first cell `#x` is written `\#x`, field names are escaped twice), or
   * encoding throws `GCX_NOT_LOSSLESS`.
   */
  lossless?: boolean;
  /**
   * Without `lossless`: `'checked'` (default) writes gcx-go's bytes but throws `GCX_UNDECODABLE`
   * instead of text GCX1 decoders reject or misread as another section (a space in a tool or
   * field name, an empty tool, a first cell starting with `GCX1`, a line of 4 MiB or more);
   * `'gcx-go'` writes gcx-go's bytes for every input (byte parity, as the conformance suite
   * checks).
   */
  compat?: 'checked' | 'gcx-go';
  /**
   * For JSON text input (`…Json`): keep numbers as written (`1.0` stays `1.0`, Go
   * `json.Number`), as the upstream benchmark did. Default: typed numbers (`1.0` → `1`).
   */
  literalNumbers?: boolean;
  /**
   * Deepest nesting of arrays and objects accepted in JSON input (default 512, at most 1024):
   * deeper input throws `JSON_DEPTH` at the bracket that crossed it. JS values are also refused
   * past 1024 levels before they cross (`JSON_DEPTH`, no position).
   */
  maxDepth?: number;
}

/** A column of a tool layout: a name, or a name read from other response keys. */
export type FieldLayout =
  | string
  | { name: string; from?: string[]; join?: string; optional?: boolean };

/** How a tool's JSON response maps onto GCX1 sections (see `gcx.layouts()`). */
export interface ToolLayout {
  tool: string;
  aliases?: string[];
  sections: Array<{
    /** Section tool name; `{tool}` stands for the requested tool. */
    name: string;
    /** Rows: an array at one of `keys` (or the response itself with `root`), or one object. */
    rows: { keys?: string[]; root?: boolean } | { object: string | null };
    fields: FieldLayout[];
    /** Response keys written as header metadata. */
    meta?: string[];
  }>;
}

export interface ToolOptions extends EncodeOptions {
  /**
   * `layout` (default): the tool's layout when the response fits it exactly, else the generic
   * fallback (never drops data). `generic`: always the fallback. `bench`: the upstream GCX1
   * benchmark's wrapper-recognising encoder.
   */
  strategy?: 'layout' | 'generic' | 'bench';
  /**
   * With `strategy: 'layout'`: a response that does not fit the tool's layout (or a tool
   * without one) throws `GCX_LAYOUT_MISMATCH`, saying why, instead of taking the generic
   * fallback.
   */
  strict?: boolean;
  /** Extra layouts, registered over the built-in ones. */
  layouts?: ToolLayout[];
  /** false: use only `layouts`. */
  builtinLayouts?: boolean;
}

/** What `gcx.encodeToolDetailed` returns. */
export interface ToolEncoding {
  /** The GCX1 text (the same as `encodeTool` returns). */
  text: string;
  /** The strategy that wrote it: `layout` falls back to `generic` when the response does not fit. */
  strategy: 'layout' | 'generic' | 'bench';
  /** Why the layout strategy fell back, e.g. `response member "took_ms" has no section, …`. */
  fallbackReason?: string;
}

export type Scope = 'repo' | 'workspace' | 'fan-out';

export interface ToolDefinition {
  name: string;
  scope: Scope;
}

export interface ToolRequest {
  tool: string;
  scope: Scope;
  /** A name for `repo`, absent for `workspace`, a list for `fan-out` (`["*"]` = every repo). */
  repo?: string | string[] | null;
}

export interface ErrorEnvelope {
  code: string;
  message: string;
  detail: string;
}

/** Limits of GCX1 decoding (see docs/limits.md in the repository); each has its own error code. */
export interface DecodeOptions {
  /**
   * A line (without its LF) must be shorter than this many bytes (default 4194304, gcx-go's
   * buffer: the longest accepted line is 4194303 bytes), else `GCX_LINE_TOO_LONG`.
   */
  maxLineBytes?: number;
  /** Most sections in the payload or stream (default 65536), else `GCX_TOO_MANY_SECTIONS`. */
  maxSections?: number;
  /** Most rows, all sections together (default 16777216), else `GCX_TOO_MANY_ROWS`. */
  maxRows?: number;
  /**
   * Most values, one per field for every row, padding included (default 16777216), else
   * `GCX_TOO_MANY_CELLS`.
   */
  maxCells?: number;
  /**
   * Longest JSON text `decode` builds (every row repeats its field names; default 268435456),
   * else `GCX_OUTPUT_TOO_LARGE`. Not used by the streaming decoder.
   */
  maxOutputBytes?: number;
  /** Also yield comment items from the streaming decoder. */
  comments?: boolean;
}

export interface SectionHeader {
  tool: string;
  fields: string[];
  meta: Record<string, string>;
  version: 1;
}

export interface Section extends SectionHeader {
  /** Rows keyed by field name (a repeated field name keeps its last value). */
  rows: Array<Record<string, string>>;
}

export interface DecodeResult {
  sections: Section[];
}

export type DecodeItem =
  | ({ type: 'section' } & SectionHeader)
  | { type: 'row'; row: Record<string, string> }
  | { type: 'comment'; text: string };

/** Streaming GCX1 encoder: write sections and rows, take() the text as it grows. */
export declare class GcxEncoder {
  constructor(options?: EncodeOptions);
  beginSection(section: SectionInput): void;
  writeRow(row: Row): void;
  writeComment(text: string): void;
  /** The text written since the last take(). */
  take(): string;
  /** Frees the encoder now (wasm memory); it is also freed when garbage-collected. */
  free(): void;
  [Symbol.dispose](): void;
}

/** Push decoder: push chunks (split anywhere), finish(), read items with next(). */
export declare class GcxDecoder implements Iterable<DecodeItem> {
  constructor(options?: DecodeOptions);
  push(chunk: string | Uint8Array): void;
  finish(): void;
  /** The next item, or null when no further complete item is available yet. */
  next(): DecodeItem | null;
  [Symbol.iterator](): Iterator<DecodeItem>;
  free(): void;
  [Symbol.dispose](): void;
}

export declare const gcx: {
  /** Sections to GCX1 text. */
  encode(
    sections: readonly SectionInput[] | { sections: readonly SectionInput[] },
    options?: EncodeOptions,
  ): string;
  /** The generic fallback (gcx-go `EncodeAny`) for any JSON-like value. */
  encodeGeneric(tool: string, value: unknown, options?: EncodeOptions): string;
  /** The generic fallback for JSON text (exact for any integer; the fast path). */
  encodeGenericJson(tool: string, json: string, options?: EncodeOptions): string;
  /** GCX1 text (or its UTF-8 bytes) to sections. */
  decode(payload: string | Uint8Array, options?: DecodeOptions): DecodeResult;
  /** Decodes an (async) iterable of chunks, yielding items as they complete. */
  decodeStream(
    chunks: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
    options?: DecodeOptions,
  ): AsyncGenerator<DecodeItem, void, undefined>;
  /** The row escaper: `\` → `\\`, TAB → `\t`, LF → `\n`, CR dropped. */
  escape(text: string): string;
  /** The decoder's unescaper. */
  unescape(text: string): string;
  /** The text a cell is written as, before escaping (`{float64: 1e6}` → `1e+06`). */
  cellText(cell: Cell): string;
  /** A tool response by its layout (generic fallback when it does not fit), or another strategy. */
  encodeTool(tool: string, response: unknown, options?: ToolOptions): string;
  /** `encodeTool` for JSON text. */
  encodeToolJson(tool: string, json: string, options?: ToolOptions): string;
  /** `encodeTool`, also saying which strategy wrote the text and why a layout fell back. */
  encodeToolDetailed(tool: string, response: unknown, options?: ToolOptions): ToolEncoding;
  /** `encodeToolDetailed` for JSON text. */
  encodeToolJsonDetailed(tool: string, json: string, options?: ToolOptions): ToolEncoding;
  /** The built-in per-tool layouts of the GCX1 spec. */
  layouts(): ToolLayout[];
  /** gcx-go `ParseFormat`: `gcx` for gcx/gcx1, `text` for text/compact, else `json`. */
  parseFormat(format: string): 'gcx' | 'text' | 'json';
  /** The `tool_definitions` section (rows sorted by name). */
  encodeToolDefinitions(definitions: readonly ToolDefinition[], options?: EncodeOptions): string;
  decodeToolDefinitions(payload: string): ToolDefinition[];
  /** The `tool_request` section; the repo shape must match the scope. */
  encodeToolRequest(request: ToolRequest, options?: EncodeOptions): string;
  decodeToolRequest(payload: string): Required<ToolRequest>;
  /** The `error` section (`code` non-empty). */
  encodeErrorEnvelope(envelope: { code: string; message?: string; detail?: string }, options?: EncodeOptions): string;
  decodeErrorEnvelope(payload: string): ErrorEnvelope;
  /** null when the request is legal for the tool's declared scope, else the error envelope. */
  checkRequest(
    definitions: readonly ToolDefinition[],
    request: ToolRequest,
    workspaceRepos: readonly string[],
  ): ErrorEnvelope | null;
  readonly ERR_CODE_UNKNOWN_REPO: 'unknown_repo';
  readonly ERR_CODE_MISSING_REPO_LIST: 'missing_repo_list';
  readonly ERR_CODE_MISSING_REPO: 'missing_repo';
  readonly ERR_CODE_REPO_NOT_ALLOWED: 'repo_not_allowed';
  readonly ERR_CODE_WRONG_REPO_SHAPE: 'wrong_repo_shape';
  readonly Encoder: typeof GcxEncoder;
  readonly Decoder: typeof GcxDecoder;
};

/** A graph node (GCF, GCB1 and JSON payloads). */
export interface GraphSymbol {
  qualifiedName: string;
  /** `function`, `type`, … (GCF writes the 16 known kinds abbreviated). */
  kind: string;
  /** GCF keeps two decimals, GCB1 a float32. */
  score: number;
  provenance: string;
  /** 0 = target, 1 = related, 2 = extended, ≥ 3 = distance_N. */
  distance: number;
  /** GCB1 and JSON only. */
  signature?: string;
  /** GCB1 and JSON only. */
  components?: { blastRadius?: number; confidence?: number; recency?: number; distance?: number };
}

export interface GraphEdge {
  source: string;
  target: string;
  edgeType: string;
  /** `''`, `unchanged`, `added` or `removed`. */
  status?: string;
}

/** The graph payload (input: absent members default to empty/zero). */
export interface GraphPayload {
  tool?: string;
  tokenBudget?: number;
  tokensUsed?: number;
  packRoot?: string;
  symbols?: GraphSymbol[];
  edges?: GraphEdge[];
}

/** A decoded payload: every member present. */
export interface DecodedGraphPayload {
  tool: string;
  tokenBudget: number;
  tokensUsed: number;
  packRoot: string;
  symbols: Array<Required<GraphSymbol> & { components: Required<NonNullable<GraphSymbol['components']>> }>;
  edges: Array<Required<GraphEdge>>;
}

export interface GraphDelta {
  tool?: string;
  baseRoot?: string;
  newRoot?: string;
  removed?: GraphSymbol[];
  added?: GraphSymbol[];
  removedEdges?: GraphEdge[];
  addedEdges?: GraphEdge[];
  deltaTokens?: number;
  fullTokens?: number;
}

/** Limits of GCF and GCB1 decoding. */
export interface GraphDecodeOptions {
  /**
   * Most bytes of text in the decoded payload: tool, symbol names (and GCB1 signatures) and
   * every edge's source and target names (default 67108864), else `GCF_PAYLOAD_TOO_LARGE` /
   * `GCB_PAYLOAD_TOO_LARGE`. An edge decodes to its endpoints' full names, so a few bytes of
   * edges can stand for gigabytes.
   */
  maxPayloadBytes?: number;
}

/** GCF v1.1 session: symbols sent in an earlier call are written as bare references. */
export declare class GcfSession {
  encode(payload: GraphPayload): string;
  encodeJson(json: string): string;
  size(): number;
  reset(): void;
  free(): void;
  [Symbol.dispose](): void;
}

/** How decoded integers beyond ±(2^53 − 1) reach JavaScript (SPEC §2.3.2). */
export interface GcfDecodeOptions {
  /** `'error'` (default): `GCF_OUT_OF_RANGE`; `'string'`: decimal strings; `'number'`: approximate numbers. */
  largeInt?: 'error' | 'string' | 'number';
  /**
   * `decodeAny` only: read only this version (default: by the header, `GCF profile=` is v3).
   * `'3.6.0'` and `'3.5.3'` both read any v3 payload (one decoder reads both).
   */
  version?: 'auto' | '3.6.0' | '3.5.3' | '1.1';
}

/** GCF v3 generic encoding options. */
export interface GcfEncodeOptions {
  /** `'3.6.0'` (default: constant columns factored, byte-identical to the gcf crate 3.1.0) or `'3.5.3'` (the previous bytes). */
  version?: '3.6.0' | '3.5.3';
  /** Never write what no decoder reads back (default false: byte parity with the gcf crate, which can, in a corner of shared array schemas). */
  lossless?: boolean;
}

/** The v3.6.0 grouped form: records clustered by one low-cardinality field. */
export interface GcfGroupedOptions {
  /** The records' unique key field (declared `@key`). */
  key: string;
  /** The field whose values group the records (`group=<field>`, one subheader per value). */
  group: string;
}

/** What `gcf.decodeAny` read. */
export interface GcfDocument {
  /** For v3: `'3.6.0'` when the payload uses a 3.6.0 form (a constant column or a grouped section), else `'3.5.3'`. */
  version: '1.1' | '3.5.3' | '3.6.0';
  profile: 'graph' | 'generic';
  kind: 'generic' | 'graph' | 'genericDelta' | 'graphDelta';
  value: unknown;
}

/** Graph encoding options: `version` is v3 by default (its graph profile is the same in 3.5.3 and 3.6.0); `stream` writes `## edges [?]` and the `##! summary` trailer. */
export interface GcfGraphEncodeOptions {
  version?: '3.6.0' | '3.5.3' | '1.1';
  stream?: boolean;
  /** The trailer's counts as `targets:2,edges:1` (stream only). */
  labeledCounts?: boolean;
}

/** A graph snapshot for pack roots and deltas. */
export interface GraphSnapshot {
  symbols: GraphSymbol[];
  edges?: GraphEdge[];
}

/** A keyed set (SPEC §10a): rows of scalars with one identity field. */
export interface KeyedSet {
  key: string;
  fields: string[];
  rows: Record<string, null | boolean | number | string>[];
  /** Table name in full payloads. */
  name?: string;
}

/** A generic delta between two keyed sets. */
export interface KeyedDelta {
  tool?: string;
  key: string;
  fields: string[];
  baseRoot: string;
  newRoot: string;
  added?: KeyedSet['rows'];
  changed?: KeyedSet['rows'];
  removed?: (null | boolean | number | string)[];
  deltaTokens?: number;
  fullTokens?: number;
}

/** GCF v3 graph session: stable ids across calls, already-sent symbols as bare references. */
export declare class GcfGraphSession {
  encode(payload: GraphPayload): string;
  size(): number;
  reset(): void;
  free(): void;
  [Symbol.dispose](): void;
}

/** A producer's keyed-set delta session. */
export declare class GcfKeyedSession {
  constructor(options?: { tool?: string; policy?: { mode: 'fixedN'; n: number } | { mode: 'sizeGuard' } });
  /** The next payload for the current set: the full payload or a delta. */
  emit(set: KeyedSet): { isFull: boolean; kind: "full" | "delta" | "unchanged"; wire: string };
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * GCF: v1.1 graph text (byte-identical to gcf-go v0.1.2: `encode`, `decode`, `encodeDelta`,
 * `createSession`) and GCF v3 (everything else: the generic profile, v3.6.0 by default and
 * v3.5.3 on request, the v3 graph profile, keyed-set deltas, and `decodeAny`, which reads every
 * version). In browsers call `await gcf.load()` before the v3 functions.
 */
export declare const gcf: {
  encode(payload: GraphPayload): string;
  encodeJson(json: string): string;
  decode(text: string, options?: GraphDecodeOptions): DecodedGraphPayload;
  decodeToJson(text: string, options?: GraphDecodeOptions): string;
  encodeDelta(delta: GraphDelta): string;
  encodeDeltaJson(json: string): string;
  createSession(): GcfSession;
  readonly Session: typeof GcfSession;
  /** Browsers: fetches the GCF v3 wasm module (Node: resolves at once). */
  load(input?: unknown): Promise<void>;
  /** Any JSON value → GCF v3 generic text (JS numbers are doubles); v3.6.0 unless `{version: '3.5.3'}`. */
  encodeGeneric(value: unknown, options?: GcfEncodeOptions): string;
  /** JSON text → generic text (integer lexemes are int64: `GCF_OUT_OF_RANGE` beyond). */
  encodeGenericJson(json: string, options?: GcfEncodeOptions): string;
  /** An array of flat records → the v3.6.0 grouped form (`## [N]{@key,…} group=<group>`). */
  encodeGenericGrouped(records: unknown[], options: GcfGroupedOptions): string;
  /** `encodeGenericGrouped` of JSON text (integer lexemes are int64). */
  encodeGenericGroupedJson(json: string, options: GcfGroupedOptions): string;
  decodeGeneric(text: string | Uint8Array, options?: GcfDecodeOptions): unknown;
  /** Generic text → JSON text, members in payload order. */
  decodeGenericToJson(text: string | Uint8Array, options?: GcfDecodeOptions): string;
  /** GCF v1.1 or v3, either profile: says which version and profile it read. */
  decodeAny(input: string | Uint8Array | ArrayBuffer, options?: GcfDecodeOptions): GcfDocument;
  decodeAnyToJson(input: string | Uint8Array | ArrayBuffer, options?: GcfDecodeOptions): string;
  encodeGraph(payload: GraphPayload, options?: GcfGraphEncodeOptions): string;
  decodeGraph(text: string | Uint8Array, options?: GcfDecodeOptions): DecodedGraphPayload;
  /** A v3 graph delta (`added` symbols carry their distance). */
  encodeGraphDelta(delta: GraphDelta): string;
  /** Applies a delta (GCF text) to a base snapshot atomically, verifying `new_root`. */
  applyGraphDelta(base: GraphSnapshot, delta: string): DecodedGraphPayload;
  /** The canonical `gcf-pack-root-v1` root and the records it hashes. */
  graphPackRoot(snapshot: GraphSnapshot): { root: string; canonical: string };
  createGraphSession(): GcfGraphSession;
  readonly GraphSession: typeof GcfGraphSession;
  readonly keyed: {
    packRoot(set: KeyedSet): { root: string; canonical: string };
    encodeFull(set: KeyedSet, options?: { tool?: string }): string;
    encodeDelta(delta: KeyedDelta): string;
    applyDelta(base: KeyedSet, delta: KeyedDelta | string): { set: KeyedSet; root: string };
    createSession(options?: ConstructorParameters<typeof GcfKeyedSession>[0]): GcfKeyedSession;
    readonly Session: typeof GcfKeyedSession;
  };
};

/** GCB1 binary (byte-identical to knowing's codec). */
export declare const gcb: {
  encode(payload: GraphPayload): Uint8Array;
  encodeJson(json: string): Uint8Array;
  decode(bytes: Uint8Array | ArrayBuffer, options?: GraphDecodeOptions): DecodedGraphPayload;
  decodeToJson(bytes: Uint8Array | ArrayBuffer, options?: GraphDecodeOptions): string;
};

/** The graph payload codecs by name: gcf, gcb (alias binary), json. */
export declare const codecs: {
  list(): Array<{ name: string; aliases: string[]; description: string; text: boolean }>;
  /** A string for text codecs, bytes for gcb. */
  encode(name: string, payload: GraphPayload): string | Uint8Array;
  decode(name: string, input: string | Uint8Array | ArrayBuffer): DecodedGraphPayload;
};

/** A token encoding name (the `_base` suffix may be left out). */
export type TokenEncoding = 'cl100k_base' | 'o200k_base' | 'cl100k' | 'o200k';

/**
 * Exact OpenAI token counts and ids (also `agentwire/tokens`), equal to tiktoken's ordinary
 * encoding. The native addon counts when it is loaded, else the wasm module of the optional
 * package agentwire-tokens, which also ships the vocabularies (`NOT_INSTALLED` without it).
 */
export declare const tokens: {
  readonly encodings: readonly ['cl100k_base', 'o200k_base'];
  /**
   * Makes an encoding countable. Browsers fetch the counter and the vocabulary (`input` gives
   * their URLs, Responses or bytes when they are served elsewhere); Node reads them on first
   * use anyway.
   */
  load(encoding?: TokenEncoding, input?: { wasm?: WasmInput; vocabulary?: string | URL | Response | Uint8Array | ArrayBuffer }): Promise<void>;
  /**
   * Exact token count of `text` (special-token text such as `<|endoftext|>` counts as text).
   * UTF-8 bytes are counted as their text; invalid UTF-8 throws `INVALID_UTF8` at its position.
   */
  count(text: string | Uint8Array, encoding?: TokenEncoding): number;
  /** The count if it is at most `limit`, else `null`: counting stops as soon as it passes. */
  countWithin(text: string, limit: number, encoding?: TokenEncoding): number | null;
  /** The token ids of `text`. */
  encode(text: string, encoding?: TokenEncoding): Uint32Array;
  /** The text of token ids (bytes that are not UTF-8, from a slice of ids, become U+FFFD). */
  decode(ids: Uint32Array | readonly number[], encoding?: TokenEncoding): string;
  /** The bytes of token ids (`TOKENS_UNKNOWN_ID` for an id past the vocabulary). */
  decodeBytes(ids: Uint32Array | readonly number[], encoding?: TokenEncoding): Uint8Array;
};

/** A catalog item (contextweaver's SelectableItem). */
export interface GatewayItem {
  id: string;
  kind?: 'tool' | 'agent' | 'skill' | 'internal' | 'flow' | 'resource' | 'prompt';
  name?: string;
  description?: string;
  tags?: string[];
  namespace?: string;
  has_schema?: boolean;
  args_schema?: Record<string, unknown>;
  side_effects?: boolean;
  cost_hint?: number;
}

/** The compact card a gateway shows for one item (no schema, examples or metadata). */
export interface ChoiceCard {
  id: string;
  name: string;
  description: string;
  tags: string[];
  kind: NonNullable<GatewayItem['kind']>;
  namespace: string;
  has_schema: boolean;
  cost_hint: number;
  side_effects: boolean;
  safety: '' | 'read_only' | 'destructive';
  score?: number;
}

/** An MCP tool definition as `tools/list` returns it. */
export interface McpToolDefinition {
  name: string;
  description: string;
  inputSchema?: Record<string, unknown> | null;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; costHint?: number; [key: string]: unknown } | null;
  _meta?: { version?: string | number; [key: string]: unknown } | null;
  [key: string]: unknown;
}

export interface ToolIdParts {
  namespace: string;
  name: string;
  version: string | null;
  hash8: string | null;
}

export interface ToolIdDerivation {
  upstream_name: string;
  inferred_namespace: string;
  derived_name: string;
  canonical_shape: string;
  hash_input: string;
  computed_hash8: string;
}

export interface ToolIdResult extends ToolIdDerivation, ToolIdParts {
  tool_id: string;
  item: Required<GatewayItem>;
}

/** `(text) => tokens`; the wasm build defaults to agentwire's exact cl100k count. */
export type TokenCounterFn = (text: string) => number;

export interface CardBudgetOptions {
  targetTokens?: number;
  hardCapTokens?: number;
  /** wasm only (native counts with exact cl100k). */
  counter?: TokenCounterFn;
}

export interface CardReport {
  card: ChoiceCard;
  truncated: boolean;
  untruncated_budget_line_tokens: number;
  fixed_overhead_tokens?: number;
  description_budget?: number;
  budget_line: string;
  budget_line_tokens: number;
  prompt_text: string;
  prompt_text_tokens: number;
  wire_json: string;
}

export interface TruncationReport {
  output: string;
  branch: 'empty' | 'verbatim' | 'sentence' | 'hard_cut';
  input_tokens: number;
  output_tokens: number;
  boundary_ends?: number[];
  chosen_boundary_end?: number;
  hard_cut_chars?: number;
}

export interface BrowseCardsReport {
  ids: string[];
  cards: ChoiceCard[];
  rendered: string;
  rendered_tokens: number;
  per_card_budget_line_tokens: number[];
  response_cap_tokens: number;
  wire_json: string;
}

/** The §3.4 error body of a failed meta-tool call. */
export interface GatewayErrorBody {
  error: 'PATH_INVALID' | 'PATH_NOT_FOUND' | 'ARGS_INVALID' | 'SCHEMA_INVALID' | 'HYDRATE_FAILED' | 'CARD_HARD_CAP';
  message: string;
  path: string;
  retryable: boolean;
  details?: { path: Array<string | number> };
}

export type MetaToolReply =
  | { isError: false; kind: 'cards'; result: ChoiceCard[]; text: string }
  | { isError: false; kind: 'envelope'; result: { tool_id: string; args: Record<string, unknown>; dry_run: boolean }; text: string }
  | { isError: false; kind: 'view'; result: { tool_id: string; args_schema: Record<string, unknown>; examples: unknown[]; constraints: Record<string, unknown> }; text: string }
  | { isError: true; body: GatewayErrorBody; text: string };

export interface BrowseSessionOptions extends CardBudgetOptions {
  /** Cards per query browse and the cache-stable cap (default 5). */
  topK?: number;
  /** Keep earlier-seen cards first and frozen (§5). */
  cacheStable?: boolean;
  /** wasm only: `validator` from `agentwire/schema` (native has its own). */
  validator?: (schemaJson: string, argsJson: string) => string;
  /** Ranks a `tool_browse` query; without one, query browse is ARGS_INVALID. */
  router?: (query: string, topK: number) => Array<{ id: string; score: number | null }>;
}

export interface IngestReport {
  registered: number;
  tool_ids: string[];
  skipped: Array<{ index: number; name: string; code: string; message: string }>;
}

/** A gateway over one catalog: meta-tool dispatch and cache-stable browsing. */
export declare class BrowseSession {
  constructor(options?: BrowseSessionOptions);
  register(toolDefs: McpToolDefinition[], options?: { onInvalid?: 'skip' | 'raise'; serverName?: string }): IngestReport;
  browseRanked(ranked: Array<{ id: string; score: number | null }> | Record<string, number>, options?: { maxCards?: number }): MetaToolReply;
  dispatch(metaTool: 'tool_browse' | 'tool_execute' | 'tool_view' | string, args?: Record<string, unknown>): MetaToolReply;
  browse(args: { path: string } | { query: string; top_k?: number }): MetaToolReply;
  view(toolId: string): MetaToolReply;
  execute(toolId: string, args?: Record<string, unknown>, options?: { dryRun?: boolean }): MetaToolReply;
  seen(): string[];
  reset(): void;
  free(): void;
  [Symbol.dispose](): void;
}

/** Gateway contracts of contextweaver 0.18.1: tool ids, ChoiceCards, budgets, browse paths. */
export declare const gateway: {
  /** Browsers: fetch the gateway's own wasm module first (Node: resolves at once). */
  load(input?: WasmInput): Promise<void>;
  toolId(tool: McpToolDefinition, options?: { serverName?: string | null }): ToolIdResult;
  toolIdDerivation(tool: McpToolDefinition, options?: { serverName?: string | null }): ToolIdDerivation;
  parseToolId(id: string): ToolIdParts;
  formatToolId(parts: { namespace: string; name: string; version?: string | null; hash8?: string | null }): string;
  card(item: GatewayItem, options?: CardBudgetOptions & { score?: number | null }): CardReport;
  truncate(text: string, budget: number, options?: { counter?: TokenCounterFn }): TruncationReport;
  browseCards(
    items: GatewayItem[],
    options?: CardBudgetOptions & { mode?: 'query' | 'path'; scores?: Record<string, number> | null; maxCards?: number },
  ): BrowseCardsReport;
  parsePath(path: string): string[];
  readonly BrowseSession: typeof BrowseSession;
};

/** One problem in an event stream (`line` is null at end of input). */
export interface EventDiagnostic {
  line: number | null;
  code:
    | 'invalid_json' | 'not_object' | 'missing_type' | 'bad_field_type' | 'missing_field' | 'unknown_type'
    | 'unknown_item' | 'item_closed' | 'duplicate_item' | 'done_before_added' | 'item_mismatch'
    | 'arguments_mismatch' | 'duplicate_done' | 'event_after_terminal' | 'item_not_done' | 'missing_terminal';
  severity: 'error' | 'warning';
  field?: string;
  item_id?: string;
  message: string;
}

/** A wire event: a JSON object with a string `type` (unknown members are kept). */
export type WireEvent = { type: string; [member: string]: unknown };

export interface EventStreamResult {
  status: 'completed' | 'failed' | 'incomplete' | null;
  text: string;
  function_calls: Array<{ id: string; call_id: string; name: string; arguments: string }>;
  usage: { input_tokens: number; output_tokens: number; cached_tokens: number; total_tokens: number } | null;
  errors: Array<{ message: string; code: string | null }>;
}

export interface EventStreamVerdict {
  valid: boolean;
  result: EventStreamResult;
  diagnostics: EventDiagnostic[];
}

export type DecodedEventItem =
  | { kind: 'event'; line: number; event: WireEvent }
  | { kind: 'diagnostic'; diagnostic: EventDiagnostic };

/** Parses a JSONL event stream pushed in chunks (text or bytes, split anywhere). */
export declare class EventStreamDecoder {
  constructor(options?: { maxLineBytes?: number });
  push(chunk: string | Uint8Array | ArrayBuffer): DecodedEventItem[];
  finish(): EventStreamVerdict & { items: DecodedEventItem[] };
  free(): void;
  [Symbol.dispose](): void;
}

/** The JSONL event protocol of `godex exec --json` (a Responses-API subset). */
export declare const events: {
  /** Browsers: fetch the events wasm module first (Node: resolves at once). */
  load(input?: WasmInput): Promise<void>;
  parse(input: string | Uint8Array | ArrayBuffer, options?: { maxLineBytes?: number }): EventStreamVerdict & {
    events: Array<{ line: number; event: WireEvent }>;
  };
  createDecoder(options?: { maxLineBytes?: number }): EventStreamDecoder;
  readonly EventStreamDecoder: typeof EventStreamDecoder;
  transformStream(options?: { maxLineBytes?: number }): TransformStream<
    string | Uint8Array | ArrayBuffer,
    DecodedEventItem | ({ kind: 'end' } & EventStreamVerdict)
  >;
  accumulate(events: WireEvent[]): EventStreamVerdict;
  serialize(events: WireEvent[], options?: { form?: 'godex' | 'spec' }): string;
  mock(mode?: 'echo' | 'text' | 'tool-call' | 'tool-loop' | string, options?: { echoText?: string }): string;
  fromSse(sse: string): EventStreamVerdict & {
    frames: Array<{ line: number; data: WireEvent }>;
    framing_diagnostics: EventDiagnostic[];
    converted: WireEvent[];
  };
  parseToolSpec(spec: string): { kind: 'web_search'; tool: { type: 'web_search'; external_web_access: true } } | { kind: 'function'; name: string; path: string };
  functionTool(name: string, schemaText: string): { type: 'function'; name: string; parameters: Record<string, unknown> };
  followUp(input: {
    context?: unknown[];
    calls: Array<{ call_id: string; name: string; arguments: string }>;
    outputs: Record<string, string>;
  }): Array<Record<string, unknown>>;
};

/** TOON encode options: those of `@toon-format/toon` (spec 4.0). */
export interface ToonEncodeOptions {
  /** Spaces per indentation level, 1 to 64 (default 2). */
  indent?: number;
  /** The delimiter of inline arrays and table rows (default `','`). */
  delimiter?: ',' | '\t' | '|' | 'comma' | 'tab' | 'pipe';
  /** `'safe'` folds chains of single-key objects into dotted keys (`a.b.c: 1`; default `'off'`). */
  keyFolding?: 'off' | 'safe';
  /** With key folding, the most keys folded along one path (default `Infinity`). */
  flattenDepth?: number;
}

/** TOON decode options. */
export interface ToonDecodeOptions {
  /** Spaces per indentation level, 1 to 64 (default 2). */
  indent?: number;
  /** Every check of spec §14: counts, widths, indentation, duplicate keys (default true). */
  strict?: boolean;
  /** `'safe'` expands dotted keys into nested objects (default `'off'`). */
  expandPaths?: 'off' | 'safe';
  /** Deepest nesting of the decoded value (default 512, at most 1024). */
  maxDepth?: number;
}

/**
 * TOON (Token-Oriented Object Notation, spec 4.0), byte for byte what `@toon-format/toon`
 * writes; decode errors are `AgentwireError`s with a `TOON_` code, line and column.
 */
export declare const toon: {
  /** Browsers: fetch the TOON wasm module first (Node: resolves at once). */
  load(input?: WasmInput): Promise<void>;
  /** A JSON value → TOON text. */
  encode(value: unknown, options?: ToonEncodeOptions): string;
  /** JSON text → TOON text (numbers exactly as written, integers past 2^53 too). */
  encodeJson(json: string, options?: ToonEncodeOptions): string;
  /** TOON text → the JSON value. */
  decode(text: string, options?: ToonDecodeOptions): unknown;
};

/** The form `compact.json` chose. */
export type CompactFormat = 'gcx1-layout' | 'gcx1-generic' | 'gcf-generic' | 'toon' | 'toon-tab' | 'json-min' | 'input';

export interface CompactOptions {
  /** The MCP tool the JSON came from: selects a GCX1 per-tool layout (default `result`). */
  tool?: string;
  /**
   * How to count tokens: `cl100k_base` (default) or `o200k_base` (exact; needs the optional
   * package agentwire-tokens, else `NOT_INSTALLED`; in browsers `await tokens.load(encoding)`
   * first), or `bytes` (UTF-8 bytes, no package needed). Ignored when `counter` is given.
   */
  tokenizer?: 'cl100k_base' | 'o200k_base' | 'cl100k' | 'o200k' | 'bytes';
  /** Your own token counter (it must return a non-negative integer); it replaces `tokenizer`. */
  counter?: (text: string) => number;
  /** A candidate replaces the input only when it saves this fraction of its tokens (default 0.1). */
  minSavings?: number;
  /**
   * Count and read back every candidate (default false: a candidate is counted only as far as
   * it can still win, its `tokens` is then a lower bound with `tokensExact: false`, and it is
   * not read back: `lossless: null`).
   */
  exactCounts?: boolean;
  /** Put each candidate's text in `candidates[].text` (default false). */
  candidateTexts?: boolean;
}

/** One candidate `compact.json` weighed. */
export interface CompactCandidate {
  format: CompactFormat;
  /** UTF-8 bytes of its text. */
  bytes: number;
  /** Whether decoding it gives back the input; null when it was not read back (it had more tokens than the best so far, so it could not win). */
  lossless: boolean | null;
  /** Why it is not lossless (a codec error, or a value that reads back differently). */
  reason?: string;
  /** Its tokens: null when it is not lossless; a lower bound when `tokensExact` is false. */
  tokens: number | null;
  tokensExact: boolean;
  /** Its text, with `candidateTexts: true`. */
  text?: string;
}

/** Why `compact.json` kept its input: a stable `code`, a `message`, and what the code has. */
export type CompactReason =
  | {
      /** Not JSON, or nested deeper than the parser's limit: the parser's error and where. */
      code: 'NOT_JSON';
      message: string;
      /** The parser's error code: `JSON_SYNTAX`, `JSON_DEPTH`, `INVALID_UTF8`. */
      errorCode: string;
      line?: number;
      column?: number;
      offset?: number;
    }
  | {
      /** A numeral (outside strings) that no double holds: a reader would change it. */
      code: 'INEXACT_NUMBER';
      message: string;
      /** JSONPath of the number (`$.items[3].id`). */
      path: string;
      /** The numeral as the input has it. */
      numeral: string;
      /** Where it starts (absent for a value input). */
      line?: number;
      column?: number;
      offset?: number;
    }
  | {
      /** A key repeated in one object: every other form keeps one value per key. */
      code: 'DUPLICATE_KEY';
      message: string;
      /** JSONPath of the object. */
      path: string;
      key: string;
      line?: number;
      column?: number;
      offset?: number;
    }
  | {
      /** A `\u` escape of a lone surrogate, which UTF-8 text cannot carry. */
      code: 'LONE_SURROGATE';
      message: string;
      path: string;
      escape: string;
      line?: number;
      column?: number;
      offset?: number;
    }
  | {
      /** No candidate decodes back to the input: each candidate's `reason` says why. */
      code: 'NO_LOSSLESS_CANDIDATE';
      message: string;
    }
  | {
      /** The fewest-token candidate saves less than `minSavings` of the input's tokens. */
      code: 'BELOW_MIN_SAVINGS';
      message: string;
      best: CompactFormat;
      bestTokens: number;
      /** The share it saves (negative when it has more tokens than the input). */
      savings: number;
      minSavings: number;
    };

export interface CompactResult {
  /** `input`: the input text is kept; `reason` says why. */
  format: CompactFormat;
  /** The chosen text: never more tokens than the input. */
  text: string;
  tokens: number;
  inputTokens: number;
  /** Every candidate tried, in the order json-min, gcx1-generic, gcx1-layout, gcf-generic, toon, toon-tab. */
  candidates: CompactCandidate[];
  /** Why the input was kept; `null` when a candidate replaced it. */
  reason: CompactReason | null;
}

/** The most compact lossless encoding of a JSON document, never worse than the input. */
export declare const compact: {
  /**
   * Tries GCX1 (the tool's layout and the generic encoder), GCF v3 generic (v3.6.0), TOON (comma
   * and tab) and minified JSON; keeps only candidates that decode back to the input; returns the one with the
   * fewest tokens, or the input itself when none saves `minSavings` (`reason` says why it was
   * kept). `input` is JSON text (a string, or UTF-8 bytes: invalid UTF-8 throws
   * `INVALID_UTF8`) or a value (measured as `JSON.stringify(value)`). One call into
   * agentwire's Rust core (`agentwire::compact`), which parses, encodes, checks and counts.
   */
  json(input: unknown, options?: CompactOptions): CompactResult;
  /** The JSON value of a text `json` chose (undefined for a GCX1 per-tool layout). */
  decode(text: string): unknown;
  /** JSON structural equality (object member order ignored). */
  equal(a: unknown, b: unknown): boolean;
};

/** Every stable error code the core can report. */
export declare function errorCodes(): string[];

/** Version of the Rust core behind the loaded build. */
export declare function coreVersion(): string;

/** Which build is in use. */
export declare const backend: 'native' | 'wasm';

/** Why the native addon was not used (Node only; null when it was, and in browsers). */
export declare const nativeLoadError: Error | null;

/**
 * Loads the wasm module (browsers and bundlers; a resolved no-op in Node). Call once before
 * anything else; pass a URL, Response, bytes or compiled module to load the .wasm yourself.
 */
export declare function init(
  input?: WasmInput,
): Promise<void>;
