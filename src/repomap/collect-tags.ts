// The one entry point the map uses for tags: stat every file, reuse cached tags, parse the
// misses (on the pool), and save the cache.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { hashBytes } from './parse-file.js';
import type { ParseJob } from './parse-file.js';
import type { PackedTags } from './packed-tags.js';
import type { TagCache, TagCacheEntry } from './tag-cache.js';
import type { ProgressCallback, TagsPool } from './tags-pool.js';

export interface CollectTagsOptions {
  readonly pool: TagsPool;
  /** Without a cache every file is parsed. */
  readonly cache?: TagCache;
  /** Called as files are parsed (cache hits are not counted): `(done, total)`. */
  readonly onProgress?: ProgressCallback;
  /** Sizes and mtimes already known (from listing the files): those files are not stat'ed again. */
  readonly stamps?: ReadonlyMap<string, Stamp>;
  /** Leave `cache.save()` to the caller (who may write it once the map is built). */
  readonly deferSave?: boolean;
}

export interface CollectTagsStats { files: number; hits: number; parsed: number; failed: number }

export interface Stamp { readonly size: number; readonly mtimeMs: number }

/**
 * Packed tags of `files` (repository-relative paths under `root`), keyed by path in the order given;
 * packed because a warm map of a big repository would otherwise spend its time making tag objects.
 * Files that cannot be read or parsed are left out. Cache entries of files not given are dropped.
 */
export async function collectTags(
  root: string,
  files: readonly string[],
  options: CollectTagsOptions,
  stats: CollectTagsStats = { files: 0, hits: 0, parsed: 0, failed: 0 },
): Promise<Map<string, PackedTags>> {
  const { cache, pool } = options;
  const found = new Map<string, PackedTags>();
  const stamps = new Map<string, Stamp>();
  const misses: ParseJob[] = [];
  // A warm request: stamps known from the listing and cache entries that match them. Those are
  // taken synchronously; thousands of promises per request showed in the chat's per-request time.
  const pending: string[] = [];
  for (const relPath of files) {
    const stamp = options.stamps?.get(relPath);
    const entry = stamp ? cache?.get(relPath) : undefined;
    if (stamp && entry && entry.size === stamp.size && entry.mtimeMs === stamp.mtimeMs) {
      stamps.set(relPath, stamp);
      found.set(relPath, entry.packed);
    } else pending.push(relPath);
  }
  await Promise.all(pending.map(async (relPath) => {
    const absPath = path.join(root, relPath);
    const stamp = options.stamps?.get(relPath) ?? await statStamp(absPath);
    if (!stamp) return;
    stamps.set(relPath, stamp);
    const cached = cache ? await lookup(cache, relPath, absPath, stamp) : undefined;
    if (cached) found.set(relPath, cached);
    else misses.push({ path: relPath, absPath });
  }));
  stats.files = stamps.size;
  stats.hits = found.size;

  misses.sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const outcome of await pool.parse(misses, options.onProgress)) {
    if (!outcome.ok) {
      stats.failed++;
      continue;
    }
    stats.parsed++;
    const stamp = stamps.get(outcome.path);
    // Stored tags name their names by the cache's shared ids, which is the form the ranking wants.
    const stored = cache && stamp ? cache.set(outcome.path, { ...stamp, hash: outcome.hash, packed: outcome.packed }) : undefined;
    found.set(outcome.path, stored?.packed ?? outcome.packed);
  }
  if (cache) {
    cache.retain(new Set(stamps.keys()));
    if (!options.deferSave) await cache.save();
  }
  const result = new Map<string, PackedTags>();
  for (const relPath of files) {
    const packed = found.get(relPath);
    if (packed) result.set(relPath, packed);
  }
  return result;
}

async function statStamp(absPath: string): Promise<Stamp | null> {
  const info = await stat(absPath).catch(() => null);
  return info?.isFile() ? { size: info.size, mtimeMs: info.mtimeMs } : null;
}

/**
 * A hit when size and mtime match. When only the mtime moved (checkout, touch) the bytes are
 * hashed: equal content keeps the tags and refreshes the stamp, saving a parse.
 */
async function lookup(cache: TagCache, relPath: string, absPath: string, stamp: Stamp): Promise<PackedTags | undefined> {
  const entry = cache.get(relPath);
  if (!entry || entry.size !== stamp.size) return undefined;
  if (entry.mtimeMs === stamp.mtimeMs) return entry.packed;
  const bytes = await readFile(absPath).catch(() => null);
  if (!bytes || hashBytes(bytes) !== entry.hash) return undefined;
  const refreshed: TagCacheEntry = { ...entry, mtimeMs: stamp.mtimeMs };
  cache.set(relPath, refreshed);
  return entry.packed;
}
