// The persistent tag cache at <root>/.tandem/tags.cache, so a warm run parses nothing.
// Entries are keyed by path and checked against size and mtime; when only the mtime moved
// (checkout, touch) the caller compares a content hash before reparsing.
import path from 'node:path';
import { appendText, writeAtomically } from '../platform/tag-files.js';
// map-store.ts writes its file the same way.
import { createStateReader, readStateText, STATE_CAPS, type StateReader } from '../platform/state-files.js';
import { compactNames, NameTable } from './name-table.js';
import { isWellFormed, type PackedTags } from './packed-tags.js';

/**
 * Format (JSON lines):
 *   line 1: {"format":"tandem-tags","version":N,"endian":"le"|"be"}
 *   names: {"from":N,"names":["name", ...]}, names N, N+1, ... of the cache's one table of names
 *   per file: ["path", size, mtimeMs, "blob id", ["role:kind", ...], "base64"]
 *   or, for a file dropped since: ["path", null]
 * The base64 string holds the packed Int32Array (nameId, kindIndex, line, endLine per tag) in the
 * writer's byte order, name ids pointing into the table as read so far: decoding it is a copy, where
 * a JSON array of 2M numbers took longer to parse and check than the rest of the cache. One table
 * for all files means a load builds one array of names and hashes none, and the ranking groups by id.
 * A later line for a path replaces the earlier ones, so saving a few changed files appends a few
 * lines (one write: new names first, then entries) instead of re-encoding every tag of a big
 * repository, which took longer than the whole warm map. A names line whose `from` is not the
 * table's length (two processes appending at once) discards the cache, as does any line that fails
 * to parse (a torn append included) or a file of another version. When appended lines outnumber
 * half the entries the file is rewritten whole, atomically (temp file + rename), with a table of
 * only the names still used.
 */
export const TAG_CACHE_VERSION = 6;
const FORMAT = 'tandem-tags';
const ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 'le' : 'be';
const HEADER = JSON.stringify({ format: FORMAT, version: TAG_CACHE_VERSION, endian: ENDIAN });

export interface TagCacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  /** git's blob id of the file's bytes, hex (see shared-tags.ts). */
  readonly hash: string;
  readonly packed: PackedTags;
}

export interface TagCache {
  get(relPath: string): TagCacheEntry | undefined;
  /** Stores the entry with its names moved into the cache's table; returns what was stored. */
  set(relPath: string, entry: TagCacheEntry): TagCacheEntry;
  /** Drops entries for files no longer listed. */
  retain(relPaths: ReadonlySet<string>): void;
  readonly size: number;
  /** Writes what changed since load or the last save: appended, or the whole file atomically. */
  save(): Promise<void>;
}

export function tagCachePath(root: string): string {
  return path.join(root, '.tandem', 'tags.cache');
}

/** Loads the cache; a missing, corrupt or other-version file gives an empty cache. */
export async function loadTagCache(root: string, reader: StateReader = createStateReader(root)): Promise<TagCache> {
  const file = tagCachePath(root);
  const text = readStateText(reader, file, STATE_CAPS.tagsCache);
  const decoded = decodeCacheLines(text);
  const entries = decoded?.entries ?? new Map<string, TagCacheEntry>();
  let table = decoded?.table ?? new NameTable();
  // Entry lines and names in the file as it is; 0 lines means there is no usable file to append to.
  let linesOnDisk = decoded ? decoded.lines : 0;
  let namesOnDisk = table.names.length;
  let fileUsable = decoded !== null && text.length > 0;
  // Every name in the table is used by an entry: it started empty (or compacted) and no entry was
  // replaced or dropped since. A rewrite then writes the table as it is: compacting would copy
  // every file's tags and the table (the peak of a cold map of a big tree), to drop nothing.
  let tableExact = table.names.length === 0;
  const changed = new Set<string>();
  return {
    get: (relPath) => entries.get(relPath),
    set(relPath, entry) {
      if (entries.has(relPath)) tableExact = false;
      const stored = { ...entry, packed: table.adopt(entry.packed) };
      entries.set(relPath, stored);
      changed.add(relPath);
      return stored;
    },
    retain(relPaths) {
      for (const key of [...entries.keys()]) {
        if (!relPaths.has(key)) {
          tableExact = false;
          entries.delete(key);
          changed.add(key);
        }
      }
    },
    get size() {
      return entries.size;
    },
    async save() {
      if (changed.size === 0) return;
      const appended = linesOnDisk - entries.size + changed.size;
      const paths = [...changed].sort();
      changed.clear();
      if (fileUsable && appended <= Math.max(16, entries.size / 2)) {
        const lines = paths.map((relPath) => {
          const entry = entries.get(relPath);
          return entry ? encodeEntry(relPath, entry) : JSON.stringify([relPath, null]);
        });
        if (table.names.length > namesOnDisk) lines.unshift(encodeNames(namesOnDisk, table.names.slice(namesOnDisk)));
        namesOnDisk = table.names.length;
        linesOnDisk += paths.length;
        await appendText(file, `${lines.join('\n')}\n`);
        return;
      }
      // Entries move to the compacted table before the write, so later appends refer to its ids.
      const compact = tableExact ? { table, entries: sortedByPath(entries) } : compactEntries(entries);
      table = compact.table;
      tableExact = true;
      if (compact.entries !== entries) for (const [relPath, entry] of compact.entries) entries.set(relPath, entry);
      namesOnDisk = table.names.length;
      linesOnDisk = entries.size;
      await writeAtomically(file, encodeLines(table, compact.entries));
      fileUsable = true;
    },
  };
}

function encodeNames(from: number, names: readonly string[]): string {
  return JSON.stringify({ from, names });
}

function encodeEntry(relPath: string, entry: TagCacheEntry): string {
  const { kinds, data } = entry.packed;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return JSON.stringify([relPath, entry.size, entry.mtimeMs, entry.hash, kinds, bytes.toString('base64')]);
}

/** The same entries (not copies), in path order. */
function sortedByPath(entries: ReadonlyMap<string, TagCacheEntry>): Map<string, TagCacheEntry> {
  return new Map([...entries.keys()].sort().map((relPath) => [relPath, entries.get(relPath) as TagCacheEntry]));
}

/** The entries, sorted by path, with one table of the names they use. */
function compactEntries(entries: ReadonlyMap<string, TagCacheEntry>): { table: NameTable; entries: Map<string, TagCacheEntry> } {
  const sorted = sortedByPath(entries);
  const list = [...sorted.values()];
  const { table, packs } = compactNames(list.map((entry) => entry.packed));
  return { table, entries: new Map([...sorted.keys()].map((relPath, i) => [relPath, { ...(list[i] as TagCacheEntry), packed: packs[i] as PackedTags }])) };
}

function encodeTable(table: NameTable, entries: ReadonlyMap<string, TagCacheEntry>): string {
  return [...encodeLines(table, entries)].join('');
}

/**
 * The file's lines one by one, each with its newline: a big cache is written without one string of
 * all. The names line is made now, since the table may grow while the lines are being written.
 */
function encodeLines(table: NameTable, entries: ReadonlyMap<string, TagCacheEntry>): Iterable<string> {
  const names = `${encodeNames(0, table.names)}\n`;
  const list = [...entries];
  return (function* lines(): Generator<string> {
    yield `${HEADER}\n`;
    yield names;
    for (const [relPath, entry] of list) yield `${encodeEntry(relPath, entry)}\n`;
  })();
}

/** The whole cache file for `entries`, whatever tables their names come from. */
export function encodeCache(entries: ReadonlyMap<string, TagCacheEntry>): string {
  const compact = compactEntries(entries);
  return encodeTable(compact.table, compact.entries);
}

/** null when the text is not a cache of this version or any part of it is malformed. */
export function decodeCache(text: string): Map<string, TagCacheEntry> | null {
  return decodeCacheLines(text)?.entries ?? null;
}

interface DecodedCache {
  readonly entries: Map<string, TagCacheEntry>;
  readonly table: NameTable;
  readonly lines: number;
}

function decodeCacheLines(text: string): DecodedCache | null {
  const lines = text.split('\n');
  try {
    const header = JSON.parse(lines[0] ?? '') as { format?: unknown; version?: unknown; endian?: unknown };
    if (header.format !== FORMAT || header.version !== TAG_CACHE_VERSION || header.endian !== ENDIAN) return null;
    const entries = new Map<string, TagCacheEntry>();
    const table = new NameTable();
    let count = 0;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (!line) continue;
      const value = JSON.parse(line) as unknown;
      if (!Array.isArray(value)) {
        if (!appendNames(table, value)) return null;
        continue;
      }
      count++;
      const [relPath, size, mtimeMs, hash, kinds, base64] = value as unknown[];
      if (typeof relPath !== 'string') return null;
      if (size === null) {
        entries.delete(relPath);
        continue;
      }
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof hash !== 'string') return null;
      const packed = decodePacked(table, kinds, base64);
      if (!packed) return null;
      entries.set(relPath, { size, mtimeMs, hash, packed });
    }
    return { entries, table, lines: count };
  } catch {
    return null;
  }
}

/** Adds a names line to the table; false when it is malformed or does not continue the table. */
function appendNames(table: NameTable, value: unknown): boolean {
  const { from, names } = (value ?? {}) as { from?: unknown; names?: unknown };
  if (from !== table.names.length || !isStringArray(names)) return false;
  table.append(names);
  return true;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function decodePacked(table: NameTable, kinds: unknown, base64: unknown): PackedTags | null {
  if (!isStringArray(kinds) || typeof base64 !== 'string') return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.byteLength % 16 !== 0) return null;
  // A view of the decoded bytes (Node's buffer pool hands out 8-byte aligned slices); a copy
  // only should they sit at an offset an Int32Array cannot start at.
  const data = bytes.byteOffset % 4 === 0 ? new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4) : copied(bytes);
  const packed = { names: table.names, kinds, data };
  return isWellFormed(packed) ? packed : null;
}

function copied(bytes: Buffer): Int32Array {
  const data = new Int32Array(bytes.byteLength / 4);
  new Uint8Array(data.buffer).set(bytes);
  return data;
}
