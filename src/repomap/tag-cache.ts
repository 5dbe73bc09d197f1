// The persistent tag cache at <root>/.tandem/tags.cache, so a warm run parses nothing.
// Entries are keyed by path and checked against size and mtime; when only the mtime moved
// (checkout, touch) the caller compares a content hash before reparsing.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tag } from './tag.js';

/**
 * Format (JSON lines, compact so 500k tags load and save in a fraction of a second):
 *   line 1: {"format":"tandem-tags","version":N,"kinds":["def:class","ref:call",...]}
 *   line 2: ["name", ...], every distinct tag name once
 *   then per file: ["path", size, mtimeMs, "sha1", [nameIndex, kindIndex, line, endLine, ...]]
 * A shared name table makes equal names one string in memory, so ranking's name lookups hit
 * strings whose hash V8 already knows; version 1 repeated each name per tag.
 * A file of another version, or any line that fails to parse, discards the whole cache.
 */
export const TAG_CACHE_VERSION = 2;
const FORMAT = 'tandem-tags';

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
  /** Writes the file atomically when something changed since load or the last save. */
  save(): Promise<void>;
}

export function tagCachePath(root: string): string {
  return path.join(root, '.tandem', 'tags.cache');
}

/** Loads the cache; a missing, corrupt or other-version file gives an empty cache. */
export async function loadTagCache(root: string): Promise<TagCache> {
  const file = tagCachePath(root);
  const text = await readFile(file, 'utf8').catch(() => '');
  const entries = decodeCache(text) ?? new Map<string, TagCacheEntry>();
  let dirty = false;
  return {
    get: (relPath) => entries.get(relPath),
    set(relPath, entry) {
      entries.set(relPath, entry);
      dirty = true;
    },
    retain(relPaths) {
      for (const key of [...entries.keys()]) {
        if (!relPaths.has(key)) {
          entries.delete(key);
          dirty = true;
        }
      }
    },
    get size() {
      return entries.size;
    },
    async save() {
      if (!dirty) return;
      await writeAtomically(file, encodeCache(entries));
      dirty = false;
    },
  };
}

export function encodeCache(entries: ReadonlyMap<string, TagCacheEntry>): string {
  const kinds: string[] = [];
  const kindIndex = new Map<string, number>();
  const names: string[] = [];
  const nameIndex = new Map<string, number>();
  const lines: string[] = [];
  for (const relPath of [...entries.keys()].sort()) {
    const entry = entries.get(relPath) as TagCacheEntry;
    const flat: number[] = [];
    for (const tag of entry.tags) {
      const key = `${tag.role}:${tag.kind}`;
      let kind = kindIndex.get(key);
      if (kind === undefined) {
        kind = kinds.length;
        kinds.push(key);
        kindIndex.set(key, kind);
      }
      let name = nameIndex.get(tag.name);
      if (name === undefined) {
        name = names.length;
        names.push(tag.name);
        nameIndex.set(tag.name, name);
      }
      flat.push(name, kind, tag.line, tag.endLine);
    }
    lines.push(JSON.stringify([relPath, entry.size, entry.mtimeMs, entry.hash, flat]));
  }
  const header = JSON.stringify({ format: FORMAT, version: TAG_CACHE_VERSION, kinds });
  return `${header}\n${JSON.stringify(names)}\n${lines.join('\n')}\n`;
}

/** null when the text is not a cache of this version or any part of it is malformed. */
export function decodeCache(text: string): Map<string, TagCacheEntry> | null {
  const lines = text.split('\n');
  try {
    const header = JSON.parse(lines[0] ?? '') as { format?: unknown; version?: unknown; kinds?: unknown };
    if (header.format !== FORMAT || header.version !== TAG_CACHE_VERSION || !Array.isArray(header.kinds)) return null;
    const kinds = (header.kinds as unknown[]).map(parseKind);
    const names = JSON.parse(lines[1] ?? '') as unknown;
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) return null;
    const entries = new Map<string, TagCacheEntry>();
    for (let i = 2; i < lines.length; i++) {
      const line = lines[i];
      if (!line) continue;
      const [relPath, size, mtimeMs, hash, flat] = JSON.parse(line) as unknown[];
      if (typeof relPath !== 'string' || typeof size !== 'number' || typeof mtimeMs !== 'number' ||
        typeof hash !== 'string' || !Array.isArray(flat) || flat.length % 4 !== 0) return null;
      entries.set(relPath, { size, mtimeMs, hash, tags: decodeTags(relPath, flat, kinds, names as string[]) });
    }
    return entries;
  } catch {
    return null;
  }
}

function parseKind(value: unknown): { role: Tag['role']; kind: string } {
  if (typeof value !== 'string') throw new Error('bad kind');
  const [role, kind] = value.split(':', 2);
  if ((role !== 'def' && role !== 'ref') || !kind) throw new Error('bad kind');
  return { role, kind };
}

function decodeTags(relPath: string, flat: unknown[], kinds: { role: Tag['role']; kind: string }[], names: string[]): Tag[] {
  const tags: Tag[] = [];
  for (let i = 0; i < flat.length; i += 4) {
    const [n, k, line, endLine] = [flat[i], flat[i + 1], flat[i + 2], flat[i + 3]];
    const name = typeof n === 'number' ? names[n] : undefined;
    const kind = typeof k === 'number' ? kinds[k] : undefined;
    if (name === undefined || !kind || typeof line !== 'number' || typeof endLine !== 'number') {
      throw new Error('bad tag');
    }
    tags.push({ path: relPath, name, role: kind.role, kind: kind.kind, line, endLine });
  }
  return tags;
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
