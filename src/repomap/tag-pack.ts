// A pack of the user's shared tag cache: many files' tags in one file, with one table of names, so
// a second clone reads its tags in a few reads instead of one small file per source file, and its
// name table takes the pack's names once instead of interning every file's names again.
import { isUtf8 } from 'node:buffer';
import { compactNameIds } from './name-table.js';
import { isWellFormed, type PackedTags } from './packed-tags.js';
import type { TagStore } from '../platform/tag-store.js';

const MAGIC = Buffer.from('TNDPACK1');
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
/** Bytes before the header: the magic and the header's length. */
export const PACK_PREFIX_BYTES = MAGIC.length + 4;

export interface PackEntry {
  readonly lang: string;
  readonly blob: string;
  /** Bytes of the content the tags were made from; -1 when not known. */
  readonly size: number;
  readonly packed: PackedTags;
}

/**
 * What the header (JSON) says: the tags version, the names (count and byte length, NUL-joined),
 * the distinct kind lists, and per entry [lang, blob, size, kinds index, first tuple, tuples].
 */
export interface PackHead {
  readonly version: string;
  readonly names: number;
  readonly namesBytes: number;
  readonly kinds: readonly (readonly string[])[];
  readonly entries: readonly (readonly [string, string, number, number, number, number])[];
  readonly tuples: number;
  /** Where the names start: after the prefix and the header. */
  readonly namesAt: number;
}

/**
 * Format: "TNDPACK1", u32 LE header length, the header (JSON, see PackHead), the names joined by
 * NUL, zero padding to a multiple of 4, then every entry's tuples (4 int32 LE each) back to back,
 * names numbered in the pack's table. Null when a name holds a NUL or there is nothing to pack.
 */
export function encodePack(version: string, entries: readonly PackEntry[]): Buffer | null {
  if (entries.length === 0) return null;
  // Names are renumbered into the pack's table as the tuples are written: no remapped copy of every file's tags.
  const { table, remapOf } = compactNameIds(entries.map((entry) => entry.packed));
  if (table.names.some((name) => name.includes('\0'))) return null;
  const kindLists = new Map<string, number>();
  let tuples = 0;
  const rows = entries.map((entry) => {
    const kinds = JSON.stringify(entry.packed.kinds);
    if (!kindLists.has(kinds)) kindLists.set(kinds, kindLists.size);
    const count = entry.packed.data.length / 4;
    const row = [entry.lang, entry.blob, entry.size, kindLists.get(kinds) ?? 0, tuples, count] as const;
    tuples += count;
    return row;
  });
  const names = Buffer.from(table.names.join('\0'));
  const head = Buffer.from(JSON.stringify({ version, names: table.names.length, namesBytes: names.length,
    kinds: [...kindLists.keys()].map((kinds) => JSON.parse(kinds) as string[]), entries: rows, tuples }));
  const dataAt = aligned(PACK_PREFIX_BYTES + head.length + names.length);
  const out = Buffer.alloc(dataAt + tuples * 16);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(head.length, MAGIC.length);
  head.copy(out, PACK_PREFIX_BYTES);
  names.copy(out, PACK_PREFIX_BYTES + head.length);
  let at = dataAt;
  for (const { packed } of entries) {
    const { data } = packed;
    const remap = remapOf(packed);
    for (let i = 0; i < data.length; i += 4, at += 16) {
      out.writeInt32LE(remap[data[i] ?? 0] ?? 0, at);
      out.writeInt32LE(data[i + 1] ?? 0, at + 4);
      out.writeInt32LE(data[i + 2] ?? 0, at + 8);
      out.writeInt32LE(data[i + 3] ?? 0, at + 12);
    }
  }
  return out;
}

/** The header's length from the pack's first PACK_PREFIX_BYTES bytes; null when they are not a pack's. */
export function packHeadLength(prefix: Buffer): number | null {
  if (prefix.length < PACK_PREFIX_BYTES || !prefix.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  return prefix.readUInt32LE(MAGIC.length);
}

/** The header when it is well formed and of `version`; else null. */
export function decodePackHead(headBytes: Buffer, version: string): PackHead | null {
  try {
    const head = JSON.parse(headBytes.toString('utf8')) as Record<string, unknown>;
    const { names, namesBytes, kinds, entries, tuples } = head;
    if (head['version'] !== version || !isCount(names) || !isCount(namesBytes) || !isCount(tuples)) return null;
    if (!Array.isArray(kinds) || !kinds.every((list) => Array.isArray(list) && list.every((kind) => typeof kind === 'string'))) return null;
    if (!Array.isArray(entries) || !entries.every((row) => isRow(row, kinds.length, tuples))) return null;
    return { version, names, namesBytes, kinds: kinds as string[][], entries: entries as PackHead['entries'], tuples, namesAt: PACK_PREFIX_BYTES + headBytes.length };
  } catch {
    return null;
  }
}

/** The pack's byte length as its header describes it (a torn or padded file is not that pack). */
export function packLength(head: PackHead): number {
  return aligned(head.namesAt + head.namesBytes) + head.tuples * 16;
}

/**
 * The tags of the entries `take` wants from the whole pack's bytes, by blob id, all naming one
 * array of names; null when the bytes are not exactly what the header describes. Each entry's
 * tags are checked when they are used (checkedEntry), not here.
 */
export function decodePack(head: PackHead, bytes: Buffer, take: (lang: string, blob: string) => boolean): PackedByContent | null {
  if (bytes.length !== packLength(head)) return null;
  const nameBytes = bytes.subarray(head.namesAt, head.namesAt + head.namesBytes);
  if (!isUtf8(nameBytes)) return null;
  const names = head.names === 0 ? [] : nameBytes.toString('utf8').split('\0');
  if (names.length !== head.names) return null;
  const dataAt = aligned(head.namesAt + head.namesBytes);
  const data = viewOrCopy(bytes, dataAt, head.tuples * 4);
  const found: PackedByContent = new Map();
  for (const [lang, blob, size, kinds, first, count] of head.entries) {
    if (!take(lang, blob)) continue;
    const packed: PackedTags = { names, kinds: head.kinds[kinds] ?? [], data: data.subarray(first * 4, (first + count) * 4) };
    found.set(blob, { lang, size, packed });
  }
  return found;
}

/** A pack is read only when it holds at least this many of the wanted contents (else the entries' own files are). */
export const PACK_MIN_USE = 64;

/** Tags by blob id, with the language they were made in and the content's size. */
export type PackedByContent = Map<string, { lang: string; size: number; packed: PackedTags }>;

/**
 * The wanted contents (blob id to language) found in the store's packs, most recently used first:
 * a pack is read whole only when it holds at least PACK_MIN_USE of those still missing and an
 * eighth of its own entries are wanted (a big pack is not read for a few files). A pack that is
 * torn, foreign or of another version is passed over.
 */
export function readPacks(store: TagStore, version: string, wanted: ReadonlyMap<string, string>): PackedByContent {
  const found: PackedByContent = new Map();
  const missing = (lang: string, blob: string): boolean => wanted.get(blob) === lang && !found.has(blob);
  for (const name of store.packs()) {
    if (wanted.size - found.size < PACK_MIN_USE) break;
    const pack = store.openPack(name);
    if (pack === null) continue;
    try {
      const headLength = packHeadLength(pack.read(0, PACK_PREFIX_BYTES) ?? Buffer.alloc(0));
      if (headLength === null || PACK_PREFIX_BYTES + headLength > pack.size) continue;
      const head = decodePackHead(pack.read(PACK_PREFIX_BYTES, headLength) ?? Buffer.alloc(0), version);
      if (head === null || packLength(head) !== pack.size) continue;
      let useful = 0;
      for (const [lang, blob] of head.entries) if (missing(lang, blob)) useful++;
      if (useful < Math.max(PACK_MIN_USE, head.entries.length / 8)) continue;
      const entries = decodePack(head, pack.read(0, pack.size) ?? Buffer.alloc(0), missing);
      for (const [blob, entry] of entries ?? []) found.set(blob, entry);
    } finally {
      pack.close();
    }
  }
  return found;
}

/** An entry's tags once checked (indices in range, kinds well formed): null when they are not. */
export function checkedEntry(packed: PackedTags): PackedTags | null {
  return isWellFormed(packed) ? packed : null;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isRow(row: unknown, kindLists: number, tuples: number): boolean {
  if (!Array.isArray(row) || row.length !== 6) return false;
  const [lang, blob, size, kinds, first, count] = row as unknown[];
  return typeof lang === 'string' && typeof blob === 'string' && typeof size === 'number' && Number.isInteger(size)
    && isCount(kinds) && kinds < kindLists && isCount(first) && isCount(count) && first + count <= tuples;
}

function aligned(offset: number): number {
  return offset + ((4 - (offset % 4)) % 4);
}

function viewOrCopy(bytes: Buffer, at: number, length: number): Int32Array {
  if (LITTLE_ENDIAN && (bytes.byteOffset + at) % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset + at, length);
  const data = new Int32Array(length);
  for (let i = 0; i < length; i++) data[i] = bytes.readInt32LE(at + i * 4);
  return data;
}
