// Where the map's files and tags come from in a real repository: the file listing and the tag
// cache, loaded once and shared, so a warm request neither re-reads file heads nor re-stats files.
import { collectTags, createParseProbe, type Stamp } from './collect-tags.js';
import { TAGLESS_LANGUAGES } from './extract-tags.js';
import { candidatesDigest, judgeMapFiles, statMapCandidates, type CandidatesDigest, type ListMapFilesOptions, type MapFile } from './list-files.js';
import type { PackedTags } from './packed-tags.js';
import { keepingFinds, type KeepingSharedTags, type SharedTags } from './shared-tags.js';
import { languageForPath, type LanguageId } from '../platform/tree-sitter.js';
import { loadTagCache, type TagCache, type TagCacheEntry } from './tag-cache.js';
import type { StateReader } from '../platform/state-files.js';
import { changedAfter } from '../platform/change-times.js';
import type { CleanBlobs } from '../git/repo-listing.js';
import { languagesOf, type ProgressCallback, type TagsPool } from './tags-pool.js';

export interface MapSourceOptions {
  readonly pool: TagsPool;
  readonly onProgress?: ProgressCallback;
  readonly listOptions?: Omit<ListMapFilesOptions, 'known'>;
  /** How `.tandem/tags.cache` is read (confined; files git tracks ignored). */
  readonly stateReader?: StateReader;
  /** The user's tag cache shared by every checkout (--tag-cache-dir); none: only the repository's. */
  readonly shared?: SharedTags;
  /**
   * The request listing's blob ids of files git's status found unchanged (git/repo-listing.ts): with
   * the shared cache, those files' contents are looked up by id, without reading them.
   */
  readonly cleanBlobs?: () => Promise<CleanBlobs | null>;
}

/**
 * The contents (language, blob id) of the files git vouches for that the repository's cache has no
 * tags for, neither by stat nor by content: what the shared cache's packs are read for.
 */
function notCached(candidates: readonly MapFile[], blobs: ReadonlyMap<string, string>, tags: TagCache): { lang: LanguageId; blob: string }[] {
  const wanted: { lang: LanguageId; blob: string }[] = [];
  for (const file of candidates) {
    const blob = blobs.get(file.path);
    const entry = tags.get(file.path);
    if (blob === undefined || (entry !== undefined && entry.size === file.size && (entry.mtimeMs === file.mtimeMs || entry.hash === blob))) continue;
    const lang = languageForPath(file.path);
    if (lang !== null) wanted.push({ lang, blob });
  }
  return wanted;
}

/**
 * When at least this many listed files need a parse (no cache entry, head judged a readable
 * source), the parser threads start while the listing goes on. Fewer new files parse in a fraction of a second anyway, and some
 * may yet be dropped by the listing (binary, generated), which would leave a thread started for nothing.
 */
export const WARM_UP_MIN_FILES = 16;

export interface MapSource {
  /**
   * Stats the files that may be listed, reading none and leaving the tag cache unloaded; returns
   * digests of them (names, sizes, mtimes). An unchanged `stamps` digest means an unchanged listing.
   */
  scan(): Promise<CandidatesDigest>;
  /** Lists the files (sorted) from the last scan, or a new one; remembers their stats for the next collectTags. */
  listFiles(): Promise<string[]>;
  collectTags(files: readonly string[]): Promise<Map<string, PackedTags>>;
  /** Resolves once the tag cache of the last collectTags is on disk. */
  flush(): Promise<void>;
  /**
   * Told, between a scan and its listing, that some file likely needs a parse: one parser thread
   * starts for the scan's most common language, before the tag cache is loaded to say which files.
   */
  expectParse(): void;
}

/**
 * The language most of `files` are in, leaving out those with no tags to parse for (null when none
 * is left); ties go to the first in name order.
 */
export function mostCommonLanguage(files: readonly { readonly path: string }[]): LanguageId | null {
  const counts = new Map<LanguageId, number>();
  for (const file of files) {
    const lang = languageForPath(file.path);
    if (lang !== null && !TAGLESS_LANGUAGES.has(lang)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  let best: LanguageId | null = null;
  for (const [lang, count] of counts) {
    const bestCount = best === null ? 0 : (counts.get(best) ?? 0);
    if (count > bestCount || (count === bestCount && best !== null && lang < best)) best = lang;
  }
  return best;
}

export function createMapSource(root: string, options: MapSourceOptions): MapSource {
  let cache: Promise<TagCache> | undefined;
  let stamps = new Map<string, Stamp>();
  let blobs: ReadonlyMap<string, string> | undefined;
  // The shared entries the listing found by blob id, until the collection takes them.
  let shared: KeepingSharedTags | undefined;
  let saving: Promise<void> = Promise.resolve();
  // Files judged generated or binary in this process, by stat: later listings need not read them again.
  const skipped = new Map<string, string>();
  const knownSkipped = (relPath: string, size: number, mtimeMs: number): boolean => skipped.get(relPath) === `${size}:${mtimeMs}`;
  const onSkipped = (relPath: string, size: number, mtimeMs: number): void => void skipped.set(relPath, `${size}:${mtimeMs}`);
  const cacheOnce = (): Promise<TagCache> => (cache ??= loadTagCache(root, options.stateReader));

  /**
   * The index's blob ids of the candidates git's status found unchanged, leaving out those whose
   * stat shows a change at or after the status (it may have missed it); none without a stat's ctime.
   */
  const unchangedBlobs = async (candidates: readonly MapFile[]): Promise<ReadonlyMap<string, string> | undefined> => {
    const clean = await options.cleanBlobs?.();
    if (!clean) return undefined;
    const ids = new Map<string, string>();
    for (const file of candidates) {
      const id = clean.ids.get(file.path);
      if (id !== undefined && file.ctimeMs !== undefined && !changedAfter({ ctimeMs: file.ctimeMs, mtimeMs: file.mtimeMs }, clean.takenAt)) ids.set(file.path, id);
    }
    return ids;
  };

  let scanned: MapFile[] | undefined;
  const scan = async (): Promise<MapFile[]> => statMapCandidates(root, options.listOptions);

  return {
    async scan() {
      scanned = await scan();
      return candidatesDigest(scanned);
    },
    async listFiles() {
      const candidates = scanned ?? await scan();
      scanned = undefined;
      const tags = await cacheOnce();
      blobs = options.shared ? await unchangedBlobs(candidates) : undefined;
      if (blobs) options.shared?.prefetch?.(notCached(candidates, blobs, tags));
      shared?.forget();
      shared = options.shared ? keepingFinds(options.shared) : undefined;
      // Tags are stored only for files judged readable sources, and that judgement reads nothing
      // but the content: content with tags (by the index's blob id, of the same size) needs no head read.
      const knownContent = (relPath: string, size: number, entry: TagCacheEntry | undefined): boolean => {
        const blob = blobs?.get(relPath);
        if (blob === undefined) return false;
        if (entry !== undefined && entry.size === size && entry.hash === blob) return true;
        const lang = languageForPath(relPath);
        return lang !== null && shared !== undefined && shared.find(lang, blob, size);
      };
      // Edited files (their size changed) whose content git cannot vouch for will be parsed: start
      // their parser threads now, while the listing goes on, so neither a touched file nor a
      // branch switch waits for threads to boot afterwards.
      const edited = candidates.filter((file) => {
        const entry = tags.get(file.path);
        return entry !== undefined && entry.size !== file.size && !knownContent(file.path, file.size, entry);
      }).map((file) => file.path);
      if (edited.length > 0) options.pool.warmUp?.(languagesOf(edited), edited.length, edited);
      // A file whose cached tags match its stat was a readable source when it was parsed.
      const known = (relPath: string, size: number, mtimeMs: number): boolean => {
        const entry = tags.get(relPath);
        return (entry !== undefined && entry.size === size && entry.mtimeMs === mtimeMs) || knownContent(relPath, size, entry);
      };
      // Parser threads start once enough files are known to need a parse, while the heads are
      // read. Counting files that passed the head check (not raw candidates) keeps a warm run of a
      // tree with generated files (never cached, never parsed) from booting threads for nothing.
      const uncached = candidates.filter((file) => tags.get(file.path) === undefined).map((file) => file.path);
      let fresh = 0;
      // New to this checkout is not new to the user: contents in the shared cache need no thread.
      const needsParse = createParseProbe(root, options.shared);
      const onNewSource = (relPath: string): void => {
        if (fresh < WARM_UP_MIN_FILES && needsParse(relPath) && ++fresh === WARM_UP_MIN_FILES && uncached.length > 0) options.pool.warmUp?.(languagesOf(uncached), uncached.length, uncached);
      };
      const files = judgeMapFiles(root, candidates, { known, onNewSource, knownSkipped, onSkipped });
      stamps = new Map(files.map((file) => [file.path, { size: file.size, mtimeMs: file.mtimeMs }]));
      return files.map((file) => file.path);
    },
    async collectTags(files) {
      const cache = await cacheOnce();
      const tags = await collectTags(root, files, { pool: options.pool, cache, shared: shared ?? options.shared, onProgress: options.onProgress, stamps, blobs, deferSave: true });
      shared?.forget();
      // Encoding a big cache takes a fifth of a second: do it after the caller has built its map.
      // The cache is an optimisation, so a failed write only costs the next run a parse.
      const previous = saving;
      saving = new Promise<void>((resolve) => setImmediate(resolve)).then(() => previous).then(() => cache.save()).catch(() => {})
        .then(() => options.shared?.flush()).catch(() => {});
      return tags;
    },
    flush: () => saving,
    expectParse() {
      const lang = scanned ? mostCommonLanguage(scanned) : null;
      if (lang !== null) options.pool.warmUp?.([lang], 1);
    },
  };
}
