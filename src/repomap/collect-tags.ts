// The one entry point the map uses for tags: stat every file, reuse cached tags (the repository's
// cache by stat, then by content: its own and the user's shared one), parse the misses (on the
// pool), and save the cache.
import path from 'node:path';
import { readBytesSync, statRegularFile } from '../platform/tag-files.js';
import { languageForPath } from '../platform/tree-sitter.js';
import { blobId, type ParseJob, type ParseOutcome } from './parse-file.js';
import type { PackedTags } from './packed-tags.js';
import type { SharedTags } from './shared-tags.js';
import type { TagCache, TagCacheEntry } from './tag-cache.js';
import type { ProgressCallback, TagsPool } from './tags-pool.js';

export interface CollectTagsOptions {
  readonly pool: TagsPool;
  /** Without a cache every file is parsed. */
  readonly cache?: TagCache;
  /** The user's tag cache shared by all checkouts, looked up by content before parsing. */
  readonly shared?: SharedTags;
  /** Called as files are parsed (cache hits are not counted): `(done, total)`. */
  readonly onProgress?: ProgressCallback;
  /** Sizes and mtimes already known (from listing the files): those files are not stat'ed again. */
  readonly stamps?: ReadonlyMap<string, Stamp>;
  /**
   * Blob ids git's index holds for files its status found unchanged and that have not changed since
   * (see git/repo-listing.ts cleanBlobIds): looked up without reading the file.
   */
  readonly blobs?: ReadonlyMap<string, string>;
  /** Leave `cache.save()` to the caller (who may write it once the map is built). */
  readonly deferSave?: boolean;
}

export interface CollectTagsStats {
  files: number;
  /** Files whose tags came from a cache, of which `sharedHits` from the user's shared one. */
  hits: number;
  sharedHits?: number;
  /** Files read and hashed to look their content up (not counting the parses). */
  hashed?: number;
  parsed: number;
  failed: number;
}

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
    const stamp = options.stamps?.get(relPath) ?? await statRegularFile(path.join(root, relPath));
    if (stamp) stamps.set(relPath, stamp);
  }));
  let sharedHits = 0;
  for (const relPath of pending) {
    const stamp = stamps.get(relPath);
    if (!stamp) continue;
    const absPath = path.join(root, relPath);
    const cached = lookup(relPath, absPath, stamp, options, stats);
    if (cached === undefined) {
      misses.push({ path: relPath, absPath });
      continue;
    }
    found.set(relPath, cached.packed);
    if (cached.shared) sharedHits++;
  }
  stats.files = stamps.size;
  stats.hits = found.size;
  if (options.shared) stats.sharedHits = sharedHits;

  misses.sort((a, b) => (a.path < b.path ? -1 : 1));
  // Each outcome goes into the cache's table as it arrives, so the file's own copy can go.
  const take = (outcome: ParseOutcome): void => {
    if (!outcome.ok) {
      stats.failed++;
      return;
    }
    stats.parsed++;
    const stamp = stamps.get(outcome.path);
    const lang = languageForPath(outcome.path);
    // Stored tags name their names by the cache's shared ids, which is the form the ranking wants.
    const stored = cache && stamp ? cache.set(outcome.path, { ...stamp, hash: outcome.hash, packed: outcome.packed }) : undefined;
    const packed = stored?.packed ?? outcome.packed;
    if (lang) options.shared?.put(lang, outcome.hash, packed, outcome.size);
    found.set(outcome.path, packed);
  };
  if (pool.each) await pool.each(misses, take, options.onProgress);
  else for (const outcome of await pool.parse(misses, options.onProgress)) take(outcome);
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

/**
 * Tags for a file the stat did not match. By content: when the repository's entry has the same
 * size (only the mtime moved: checkout, touch) or the user's shared cache is there, the content's
 * blob id is compared, equal content keeping the tags (refreshing the stamp) and saving a parse.
 * The id comes from git's index when its status found the file unchanged (`options.blobs`), with
 * no read; when that id finds nothing, or git knows nothing of the file, the bytes are read and hashed.
 */
function lookup(relPath: string, absPath: string, stamp: Stamp, options: CollectTagsOptions, stats: CollectTagsStats): { packed: PackedTags; shared: boolean } | undefined {
  const { cache, shared } = options;
  const entry = cache?.get(relPath);
  const sameSize = entry !== undefined && entry.size === stamp.size;
  if (sameSize && entry.mtimeMs === stamp.mtimeMs) return { packed: entry.packed, shared: false };
  if (!sameSize && !shared) return undefined;
  const lang = languageForPath(relPath);
  if (!lang) return undefined;
  const byContent = (hash: string, size: number | undefined): { packed: PackedTags; shared: boolean } | undefined => {
    if (cache && entry && sameSize && entry.hash === hash) {
      const refreshed: TagCacheEntry = { ...entry, mtimeMs: stamp.mtimeMs };
      cache.set(relPath, refreshed);
      return { packed: entry.packed, shared: false };
    }
    const packed = shared?.get(lang, hash, size);
    if (!packed) return undefined;
    const stored = cache?.set(relPath, { ...stamp, hash, packed });
    return { packed: stored?.packed ?? packed, shared: true };
  };
  // The index's id stands for the bytes only when the sizes agree (no filter or eol conversion).
  const indexed = options.blobs?.get(relPath);
  const known = indexed === undefined ? undefined : byContent(indexed, stamp.size);
  if (known) return known;
  const bytes = readBytesSync(absPath);
  if (!bytes) return undefined;
  stats.hashed = (stats.hashed ?? 0) + 1;
  const hash = blobId(bytes);
  const found = byContent(hash, undefined);
  // The same content under an entry stored without its size (an older tandem's): store it with it.
  if (found?.shared && hash === indexed) shared?.put(lang, hash, found.packed, bytes.byteLength);
  return found;
}

/** Files a parse probe looks at before it judges by the share of misses it saw. */
export const PROBE_FILES = 64;

/**
 * For starting parser threads early: whether a file the listing found new will need a parse, or
 * its content is in the user's shared cache. Without one every new file needs a parse. Only the
 * first PROBE_FILES files are looked up (a read and a hash each); after them a file counts as a
 * parse when at least half of those probed did, so a second clone, whose contents are all known,
 * boots no thread for nothing, while a first clone boots them after its first few files. (Files
 * whose content the index's blob id already found in the shared cache never come here: the
 * listing counts them as known.)
 */
export function createParseProbe(root: string, shared?: SharedTags): (relPath: string) => boolean {
  if (!shared) return () => true;
  let probed = 0;
  let misses = 0;
  return (relPath) => {
    if (probed >= PROBE_FILES) return misses * 2 >= probed;
    const lang = languageForPath(relPath);
    const bytes = lang ? readBytesSync(path.join(root, relPath)) : null;
    if (!lang || !bytes) return false;
    probed++;
    const miss = shared.get(lang, blobId(bytes)) === null;
    if (miss) misses++;
    return miss;
  };
}
