// The persistent tag cache at <root>/.tandem/tags.cache, so a warm run parses nothing.
// Entries are keyed by path and checked against size and mtime; when only the mtime moved
// (checkout, touch) the caller compares a content hash before reparsing.
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isWellFormed, type PackedTags } from './packed-tags.js';

/**
 * Format (JSON lines):
 *   line 1: {"format":"tandem-tags","version":N,"endian":"le"|"be"}
 *   then per file: ["path", size, mtimeMs, "sha1", [names], ["role:kind", ...], "base64"]
 *   or, for a file dropped since: ["path", null]
 * The base64 string holds the packed Int32Array (nameIndex, kindIndex, line, endLine per tag) in
 * the writer's byte order: decoding it is a copy, where a JSON array of 2M numbers took longer to
 * parse and check than the rest of the cache.
 * A later line for a path replaces the earlier ones, so saving a few changed files appends a few
 * lines (one write) instead of re-encoding every tag of a big repository, which took longer than
 * the whole warm map. When appended lines outnumber half the entries the file is rewritten whole,
 * atomically (temp file + rename). A file of another version, or any line that fails to parse
 * (a torn append included), discards the whole cache.
 */
export const TAG_CACHE_VERSION = 3;
const FORMAT = 'tandem-tags';
const ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 'le' : 'be';
const HEADER = JSON.stringify({ format: FORMAT, version: TAG_CACHE_VERSION, endian: ENDIAN });

export interface TagCacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  /** sha1 of the file's bytes, hex. */
  readonly hash: string;
  readonly packed: PackedTags;
}

export interface TagCache {
  get(relPath: string): TagCacheEntry | undefined;
  set(relPath: string, entry: TagCacheEntry): void;
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
export async function loadTagCache(root: string): Promise<TagCache> {
  const file = tagCachePath(root);
  const text = await readFile(file, 'utf8').catch(() => '');
  const decoded = decodeCacheLines(text);
  const entries = decoded?.entries ?? new Map<string, TagCacheEntry>();
  // Entry lines in the file as it is; 0 means there is no usable file to append to.
  let linesOnDisk = decoded ? decoded.lines : 0;
  let fileUsable = decoded !== null && text.length > 0;
  const changed = new Set<string>();
  return {
    get: (relPath) => entries.get(relPath),
    set(relPath, entry) {
      entries.set(relPath, entry);
      changed.add(relPath);
    },
    retain(relPaths) {
      for (const key of [...entries.keys()]) {
        if (!relPaths.has(key)) {
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
      if (fileUsable && appended <= Math.max(16, entries.size / 2)) {
        const lines = [...changed].sort().map((relPath) => {
          const entry = entries.get(relPath);
          return entry ? encodeEntry(relPath, entry) : JSON.stringify([relPath, null]);
        });
        await appendFile(file, `${lines.join('\n')}\n`, 'utf8');
        linesOnDisk += lines.length;
      } else {
        await writeAtomically(file, encodeCache(entries));
        linesOnDisk = entries.size;
        fileUsable = true;
      }
      changed.clear();
    },
  };
}

function encodeEntry(relPath: string, entry: TagCacheEntry): string {
  const { names, kinds, data } = entry.packed;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return JSON.stringify([relPath, entry.size, entry.mtimeMs, entry.hash, names, kinds, bytes.toString('base64')]);
}

export function encodeCache(entries: ReadonlyMap<string, TagCacheEntry>): string {
  const lines = [...entries.keys()].sort().map((relPath) => encodeEntry(relPath, entries.get(relPath) as TagCacheEntry));
  return `${[HEADER, ...lines].join('\n')}\n`;
}

/** null when the text is not a cache of this version or any part of it is malformed. */
export function decodeCache(text: string): Map<string, TagCacheEntry> | null {
  return decodeCacheLines(text)?.entries ?? null;
}

function decodeCacheLines(text: string): { entries: Map<string, TagCacheEntry>; lines: number } | null {
  const lines = text.split('\n');
  try {
    const header = JSON.parse(lines[0] ?? '') as { format?: unknown; version?: unknown; endian?: unknown };
    if (header.format !== FORMAT || header.version !== TAG_CACHE_VERSION || header.endian !== ENDIAN) return null;
    const entries = new Map<string, TagCacheEntry>();
    let count = 0;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (!line) continue;
      count++;
      const [relPath, size, mtimeMs, hash, names, kinds, base64] = JSON.parse(line) as unknown[];
      if (typeof relPath !== 'string') return null;
      if (size === null) {
        entries.delete(relPath);
        continue;
      }
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof hash !== 'string') return null;
      const packed = decodePacked(names, kinds, base64);
      if (!packed) return null;
      entries.set(relPath, { size, mtimeMs, hash, packed });
    }
    return { entries, lines: count };
  } catch {
    return null;
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function decodePacked(names: unknown, kinds: unknown, base64: unknown): PackedTags | null {
  if (!isStringArray(names) || !isStringArray(kinds) || typeof base64 !== 'string') return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.byteLength % 16 !== 0) return null;
  // A copy into a fresh buffer: the decoded bytes may sit at an offset an Int32Array cannot start at.
  const data = new Int32Array(bytes.byteLength / 4);
  new Uint8Array(data.buffer).set(bytes);
  const packed = { names, kinds, data };
  return isWellFormed(packed) ? packed : null;
}

/** Temp file in the same folder, then rename: readers see the old file or the new, never half. */
async function writeAtomically(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
