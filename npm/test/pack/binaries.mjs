// Readers of the two executable formats the addons for Windows (PE) and macOS (Mach-O) come in,
// for the structural checks of platforms.test.mjs: what a loader would look at (machine,
// minimum OS version, exports, imported libraries) and, for Mach-O, the ad-hoc code signature,
// whose page hashes are recomputed. Only what those checks need; every read is bounds-checked.

import { createHash } from 'node:crypto';

class Reader {
  constructor(bytes, what) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.what = what;
  }

  need(offset, length) {
    if (!(offset >= 0 && length >= 0 && offset + length <= this.bytes.length)) {
      throw new Error(`${this.what}: truncated (${length} bytes at ${offset} of ${this.bytes.length})`);
    }
  }

  u8(offset) {
    this.need(offset, 1);
    return this.view.getUint8(offset);
  }

  u16(offset) {
    this.need(offset, 2);
    return this.view.getUint16(offset, true);
  }

  u32(offset, bigEndian = false) {
    this.need(offset, 4);
    return this.view.getUint32(offset, !bigEndian);
  }

  u64(offset) {
    this.need(offset, 8);
    return Number(this.view.getBigUint64(offset, true));
  }

  slice(offset, length) {
    this.need(offset, length);
    return this.bytes.subarray(offset, offset + length);
  }

  /** A NUL-terminated ASCII string at `offset` (at most `max` bytes). */
  cstring(offset, max = 4096) {
    this.need(offset, 1);
    const end = this.bytes.indexOf(0, offset);
    if (end < 0 || end - offset > max) throw new Error(`${this.what}: unterminated string at ${offset}`);
    return Buffer.from(this.bytes.subarray(offset, end)).toString('latin1');
  }
}

// ---- PE (Windows) ------------------------------------------------------------------------

export const PE_MACHINE = { 0x8664: 'x64', 0xaa64: 'arm64', 0x14c: 'ia32' };

/**
 * A PE image's header fields, exported names and imported DLLs (the import table and the
 * delay-load table).
 * @param {Uint8Array} bytes
 */
export function readPe(bytes) {
  const r = new Reader(bytes, 'PE');
  if (r.u16(0) !== 0x5a4d) throw new Error('PE: no MZ header');
  const pe = r.u32(0x3c);
  if (r.u32(pe) !== 0x4550) throw new Error('PE: no PE signature');
  const coff = pe + 4;
  const machine = r.u16(coff);
  const sectionCount = r.u16(coff + 2);
  const symbolTable = r.u32(coff + 8);
  const symbolCount = r.u32(coff + 12);
  const optionalSize = r.u16(coff + 16);
  const characteristics = r.u16(coff + 18);
  const opt = coff + 20;
  const magic = r.u16(opt);
  if (magic !== 0x20b) throw new Error(`PE: optional header magic ${magic.toString(16)}, not PE32+`);
  const osVersion = `${r.u16(opt + 40)}.${r.u16(opt + 42)}`;
  const subsystemVersion = `${r.u16(opt + 48)}.${r.u16(opt + 50)}`;
  const subsystem = r.u16(opt + 68);
  const dllCharacteristics = r.u16(opt + 70);
  const directoryCount = r.u32(opt + 108);
  const directory = (i) => (i < directoryCount ? { rva: r.u32(opt + 112 + 8 * i), size: r.u32(opt + 116 + 8 * i) } : { rva: 0, size: 0 });
  const sections = [];
  for (let i = 0, at = opt + optionalSize; i < sectionCount; i++, at += 40) {
    sections.push({
      name: Buffer.from(r.slice(at, 8)).toString('latin1').replace(/\0+$/, ''),
      virtualSize: r.u32(at + 8),
      rva: r.u32(at + 12),
      rawSize: r.u32(at + 16),
      rawOffset: r.u32(at + 20),
    });
  }
  const offsetOf = (rva) => {
    const s = sections.find((x) => rva >= x.rva && rva < x.rva + Math.max(x.virtualSize, x.rawSize));
    if (!s) throw new Error(`PE: address ${rva.toString(16)} is in no section`);
    return s.rawOffset + (rva - s.rva);
  };

  const exports = [];
  const exportDir = directory(0);
  if (exportDir.rva) {
    const at = offsetOf(exportDir.rva);
    const names = r.u32(at + 24);
    const namesAt = offsetOf(r.u32(at + 32));
    for (let i = 0; i < names; i++) exports.push(r.cstring(offsetOf(r.u32(namesAt + 4 * i))));
  }

  const imports = [];
  const importDir = directory(1);
  if (importDir.rva) {
    for (let at = offsetOf(importDir.rva); ; at += 20) {
      const name = r.u32(at + 12);
      if (name === 0 && r.u32(at) === 0) break;
      imports.push(r.cstring(offsetOf(name)));
    }
  }
  const delayDir = directory(13);
  if (delayDir.rva) {
    for (let at = offsetOf(delayDir.rva); ; at += 32) {
      const name = r.u32(at + 4);
      if (name === 0) break;
      imports.push(r.cstring(offsetOf(name)));
    }
  }
  return {
    machine: PE_MACHINE[machine] ?? `0x${machine.toString(16)}`,
    dll: (characteristics & 0x2000) !== 0,
    osVersion,
    subsystemVersion,
    subsystem,
    dllCharacteristics,
    coffSymbols: symbolTable !== 0 || symbolCount !== 0,
    sections: sections.map((s) => s.name),
    exports,
    imports,
  };
}

// ---- Mach-O (macOS) ----------------------------------------------------------------------

export const MACHO_CPU = { 0x0100000c: 'arm64', 0x01000007: 'x64' };
const MH_MAGIC_64 = 0xfeedfacf;
const LC = {
  SYMTAB: 0x2,
  LOAD_DYLIB: 0xc,
  ID_DYLIB: 0xd,
  LOAD_WEAK_DYLIB: 0x80000018,
  REEXPORT_DYLIB: 0x8000001f,
  LAZY_LOAD_DYLIB: 0x20,
  LOAD_UPWARD_DYLIB: 0x80000023,
  CODE_SIGNATURE: 0x1d,
  VERSION_MIN_MACOSX: 0x24,
  BUILD_VERSION: 0x32,
  DYLD_INFO: 0x22,
  DYLD_INFO_ONLY: 0x80000022,
  DYLD_EXPORTS_TRIE: 0x80000033,
  DYLD_CHAINED_FIXUPS: 0x80000034,
  SEGMENT_64: 0x19,
};
const DYLIB_COMMANDS = new Set([LC.LOAD_DYLIB, LC.LOAD_WEAK_DYLIB, LC.REEXPORT_DYLIB, LC.LAZY_LOAD_DYLIB, LC.LOAD_UPWARD_DYLIB]);
const version = (v) => `${v >>> 16}.${(v >>> 8) & 0xff}.${v & 0xff}`;

/**
 * A 64-bit Mach-O image's header fields, minimum macOS version, linked dylibs, exported
 * symbols (from the export trie dyld reads) and its code signature, if any.
 * @param {Uint8Array} bytes
 */
export function readMachO(bytes) {
  const r = new Reader(bytes, 'Mach-O');
  if (r.u32(0) !== MH_MAGIC_64) throw new Error(`Mach-O: magic ${r.u32(0).toString(16)}, not a 64-bit little-endian image`);
  const cpu = r.u32(4);
  const fileType = r.u32(12);
  const commandCount = r.u32(16);
  const flags = r.u32(24);
  const out = {
    cpu: MACHO_CPU[cpu] ?? `0x${cpu.toString(16)}`,
    fileType: { 6: 'dylib', 8: 'bundle' }[fileType] ?? fileType,
    flags,
    minos: null,
    platform: null,
    sdk: null,
    dylibs: [],
    commands: [],
    segments: [],
    exports: [],
    imports: [],
    signature: null,
  };
  let trie = null;
  const bindTables = [];
  for (let i = 0, at = 32; i < commandCount; i++) {
    const cmd = r.u32(at);
    const size = r.u32(at + 4);
    if (size < 8) throw new Error(`Mach-O: load command ${i} has size ${size}`);
    out.commands.push(cmd);
    if (cmd === LC.BUILD_VERSION) {
      out.platform = { 1: 'macos' }[r.u32(at + 8)] ?? r.u32(at + 8);
      out.minos = version(r.u32(at + 12));
      out.sdk = version(r.u32(at + 16));
    } else if (cmd === LC.VERSION_MIN_MACOSX) {
      out.platform = 'macos';
      out.minos = version(r.u32(at + 8));
      out.sdk = version(r.u32(at + 12));
    } else if (DYLIB_COMMANDS.has(cmd)) {
      out.dylibs.push(r.cstring(at + r.u32(at + 8)));
    } else if (cmd === LC.DYLD_INFO || cmd === LC.DYLD_INFO_ONLY) {
      if (r.u32(at + 44)) trie = { offset: r.u32(at + 40), size: r.u32(at + 44) };
      // bind, weak bind and lazy bind opcodes
      for (const field of [16, 24, 32]) bindTables.push({ offset: r.u32(at + field), size: r.u32(at + field + 4) });
    } else if (cmd === LC.DYLD_EXPORTS_TRIE) {
      trie = { offset: r.u32(at + 8), size: r.u32(at + 12) };
    } else if (cmd === LC.CODE_SIGNATURE) {
      out.signature = { offset: r.u32(at + 8), size: r.u32(at + 12) };
    } else if (cmd === LC.SEGMENT_64) {
      out.segments.push(Buffer.from(r.slice(at + 8, 16)).toString('latin1').replace(/\0+$/, ''));
    }
    at += size;
  }
  if (trie) out.exports = readExportTrie(r, trie.offset, trie.size);
  const imports = new Map();
  for (const table of bindTables) for (const [name, ordinal] of readBinds(r, table.offset, table.size)) imports.set(name, ordinal);
  out.imports = [...imports].map(([name, ordinal]) => ({ name, from: ordinal === -2 ? 'flat lookup' : ordinal === -1 ? 'main executable' : ordinal === 0 ? 'self' : out.dylibs[ordinal - 1] }));
  if (out.signature) out.signature = readCodeSignature(r, out.signature.offset, out.signature.size);
  return out;
}

function uleb(r, at, end) {
  let value = 0;
  let shift = 0;
  for (;;) {
    if (at >= end) throw new Error('Mach-O: ULEB128 runs past its table');
    const byte = r.u8(at++);
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [value, at];
    if (shift > 63) throw new Error('Mach-O: ULEB128 too long');
  }
}

/**
 * The symbols a bind opcode stream binds, with the dylib ordinal each is looked up in (1-based
 * into the dylib list; -2: flat lookup in every loaded image, as `-undefined dynamic_lookup`
 * leaves the symbols the linker did not find; -1: the main executable).
 */
function readBinds(r, offset, size) {
  const binds = [];
  if (size === 0) return binds;
  const end = offset + size;
  r.need(offset, size);
  let ordinal = 0;
  let symbol = null;
  for (let at = offset; at < end; ) {
    const byte = r.u8(at++);
    const op = byte & 0xf0;
    const imm = byte & 0x0f;
    const skipUleb = (n = 1) => {
      for (let i = 0; i < n; i++) [, at] = uleb(r, at, end);
    };
    switch (op) {
      case 0x00: // DONE (lazy bind streams go on after it)
        break;
      case 0x10: // SET_DYLIB_ORDINAL_IMM
        ordinal = imm;
        break;
      case 0x20: // SET_DYLIB_ORDINAL_ULEB
        [ordinal, at] = uleb(r, at, end);
        break;
      case 0x30: // SET_DYLIB_SPECIAL_IMM: 0, -1, -2
        ordinal = imm === 0 ? 0 : (0xf0 | imm) - 0x100;
        break;
      case 0x40: // SET_SYMBOL_TRAILING_FLAGS_IMM, then the name
        symbol = r.cstring(at);
        at += symbol.length + 1;
        break;
      case 0x50: // SET_TYPE_IMM
      case 0xb0: // DO_BIND_ADD_ADDR_IMM_SCALED
        if (op === 0xb0) binds.push([symbol, ordinal]);
        break;
      case 0x60: // SET_ADDEND_SLEB
      case 0x70: // SET_SEGMENT_AND_OFFSET_ULEB
      case 0x80: // ADD_ADDR_ULEB
        skipUleb();
        break;
      case 0x90: // DO_BIND
        binds.push([symbol, ordinal]);
        break;
      case 0xa0: // DO_BIND_ADD_ADDR_ULEB
        binds.push([symbol, ordinal]);
        skipUleb();
        break;
      case 0xc0: // DO_BIND_ULEB_TIMES_SKIPPING_ULEB
        binds.push([symbol, ordinal]);
        skipUleb(2);
        break;
      default:
        throw new Error(`Mach-O: bind opcode 0x${byte.toString(16)} is not supported`);
    }
  }
  return binds;
}

/** The symbol names of an export trie (every terminal node, depth first). */
function readExportTrie(r, offset, size) {
  const names = [];
  const end = offset + size;
  r.need(offset, size);
  const seen = new Set();
  const walk = (node, prefix) => {
    if (seen.has(node) || node >= end) throw new Error('Mach-O: export trie loops or points outside itself');
    seen.add(node);
    let [terminal, at] = uleb(r, node, end);
    if (terminal > 0) names.push(prefix);
    at += terminal;
    const children = r.u8(at++);
    for (let i = 0; i < children; i++) {
      const label = r.cstring(at);
      at += label.length + 1;
      let child;
      [child, at] = uleb(r, at, end);
      walk(offset + child, prefix + label);
    }
  };
  walk(offset, '');
  return names;
}

// Code signing blobs are big-endian (xnu's cs_blobs.h).
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSSLOT_CODEDIRECTORY = 0;
const CS_ADHOC = 0x2;
const CS_LINKER_SIGNED = 0x20000;
const HASH = { 1: ['sha1', 20], 2: ['sha256', 32] };

/**
 * The embedded signature's code directory, with every page hash and special slot it holds
 * checked against the bytes it covers: `valid` is true only when all match.
 */
function readCodeSignature(r, offset, size) {
  const be = (at) => r.u32(at, true);
  if (be(offset) !== CSMAGIC_EMBEDDED_SIGNATURE) throw new Error('Mach-O: LC_CODE_SIGNATURE does not point to an embedded signature');
  const length = be(offset + 4);
  if (length > size) throw new Error('Mach-O: signature longer than its load command says');
  const count = be(offset + 8);
  const blobs = [];
  for (let i = 0; i < count; i++) blobs.push({ type: be(offset + 12 + 8 * i), at: offset + be(offset + 16 + 8 * i) });
  const cdBlob = blobs.find((b) => b.type === CSSLOT_CODEDIRECTORY);
  if (!cdBlob) throw new Error('Mach-O: the signature has no code directory');
  const cd = cdBlob.at;
  if (be(cd) !== CSMAGIC_CODEDIRECTORY) throw new Error('Mach-O: bad code directory magic');
  const cdLength = be(cd + 4);
  const flags = be(cd + 12);
  const hashOffset = be(cd + 16);
  const identOffset = be(cd + 20);
  const specialSlots = be(cd + 24);
  const codeSlots = be(cd + 28);
  const codeLimit = be(cd + 32);
  const hashSize = r.u8(cd + 36);
  const hashType = r.u8(cd + 37);
  const pageSize = 2 ** r.u8(cd + 39);
  const [algorithm, expectedSize] = HASH[hashType] ?? [];
  if (!algorithm || hashSize !== expectedSize) throw new Error(`Mach-O: hash type ${hashType} of size ${hashSize} is not supported`);
  r.need(cd, cdLength);
  const hashOf = (data) => createHash(algorithm).update(data).digest();
  const slot = (i) => Buffer.from(r.slice(cd + hashOffset + i * hashSize, hashSize));
  let badPages = 0;
  for (let i = 0; i < codeSlots; i++) {
    const start = i * pageSize;
    const page = r.slice(start, Math.min(pageSize, codeLimit - start));
    if (!hashOf(page).equals(slot(i))) badPages++;
  }
  // Special slot -n holds the hash of the blob of type n (requirements = 2, …); zero = absent.
  let badSpecial = 0;
  for (let n = 1; n <= specialSlots; n++) {
    const expected = slot(-n);
    const blob = blobs.find((b) => b.type === n);
    if (!blob) {
      if (expected.some((x) => x !== 0)) badSpecial++;
      continue;
    }
    if (!hashOf(r.slice(blob.at, be(blob.at + 4))).equals(expected)) badSpecial++;
  }
  const pagesNeeded = Math.ceil(codeLimit / pageSize);
  return {
    identifier: r.cstring(cd + identOffset),
    adhoc: (flags & CS_ADHOC) !== 0,
    linkerSigned: (flags & CS_LINKER_SIGNED) !== 0,
    hash: algorithm,
    pageSize,
    codeSlots,
    codeLimit,
    covers: codeLimit === offset,
    badPages,
    badSpecial,
    valid: badPages === 0 && badSpecial === 0 && codeSlots === pagesNeeded && codeLimit === offset,
  };
}
