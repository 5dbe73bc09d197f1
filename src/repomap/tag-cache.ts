// The persistent tag cache at <root>/.tandem/tags.cache, so a warm run parses nothing.
// Entries are keyed by path and checked against size and mtime; when only the mtime moved
// (checkout, touch) the caller compares a content hash before reparsing.
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { packTags, unpackTags } from './packed-tags.js';
import type { Tag } from './tag.js';

/**
 * Format (JSON lines):
 *   line 1: {"format":"tandem-tags","version":N}
 *   then per file: ["path", size, mtimeMs, "sha1", [names], ["role:kind", ...], [nameIndex, kindIndex, line, endLine, ...]]
 *   or, for a file dropped since: ["path", null]
 * A later line for a path replaces the earlier ones, so saving a few changed files appends a few
 * lines (one write) instead of re-encoding every tag of a big repository, which took longer than
 * the whole warm map. When appended lines outnumber half the entries the file is rewritten whole,
 * atomically (temp file + rename). A file of another version, or any line that fails to parse
 * (a torn append included), discards the whole cache.
 */
export const TAG_CACHE_VERSION = 2;
const FORMAT = 'tandem-tags';
const HEADER = JSON.stringify({ format: FORMAT, version: TAG_CACHE_VERSION });

export interface TagCacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  /** sha1 of the file's bytes, hex. */
  readonly hash: string;
  readonly tags: readonly Tag[];
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
  const packed = packTags(entry.tags);
  return JSON.stringify([relPath, entry.size, entry.mtimeMs, entry.hash, packed.names, packed.kinds, Array.from(packed.data)]);
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
    const header = JSON.parse(lines[0] ?? '') as { format?: unknown; version?: unknown };
    if (header.format !== FORMAT || header.version !== TAG_CACHE_VERSION) return null;
    const entries = new Map<string, TagCacheEntry>();
    let count = 0;
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (!line) continue;
      count++;
      const [relPath, size, mtimeMs, hash, names, kinds, flat] = JSON.parse(line) as unknown[];
      if (typeof relPath !== 'string') return null;
      if (size === null) {
        entries.delete(relPath);
        continue;
      }
      if (typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof hash !== 'string') return null;
      entries.set(relPath, { size, mtimeMs, hash, tags: decodeTags(relPath, names, kinds, flat) });
    }
    return { entries, lines: count };
  } catch {
    return null;
  }
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function decodeTags(relPath: string, names: unknown, kinds: unknown, flat: unknown): Tag[] {
  if (!isStringArray(names) || !isStringArray(kinds) || !Array.isArray(flat) || flat.length % 4 !== 0) throw new Error('bad entry');
  for (const kind of kinds) {
    const [role, name] = kind.split(':', 2);
    if ((role !== 'def' && role !== 'ref') || !name) throw new Error('bad kind');
  }
  for (let i = 0; i < flat.length; i += 4) {
    const [n, k, line, endLine] = [flat[i], flat[i + 1], flat[i + 2], flat[i + 3]];
    if (!Number.isInteger(n) || !Number.isInteger(k) || (n as number) < 0 || (n as number) >= names.length || (k as number) < 0 || (k as number) >= kinds.length ||
      typeof line !== 'number' || typeof endLine !== 'number') throw new Error('bad tag');
  }
  return unpackTags(relPath, { names, kinds, data: Int32Array.from(flat as number[]) });
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
