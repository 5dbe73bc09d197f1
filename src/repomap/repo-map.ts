// The repo map service: lists files, collects tags, ranks, fits the budget and renders, caching
// maps per request inputs (in memory, and on disk across processes) and refreshing them per --map-refresh.

import { tagCount, type FileTags } from './packed-tags.js';
import { createRanker, type RankWork } from './rank.js';
import type { RankStore } from './rank-store.js';
import { createMapRenderer, type KeptView } from './render.js';
import { effectiveBudget, fitToBudget, type BudgetGrowth, type FitResult } from './budget.js';
import type { RankedItem, RankOptions } from './rank.js';
import type { StoredMap } from './map-store.js';
import { mentionedFiles } from './mentioned-files.js';

/**
 * auto: reuse a cached map when nothing outside the chat files changed since it was built (edits to
 * the chat files do not move the map, so consecutive prompts keep the same prefix), and when the
 * last build was slow and the file list is the same;
 * always: rebuild every time; files: rebuild when the repository's file list changed;
 * manual: keep the last map until a request asks for a refresh.
 * In every mode but an explicit refresh, a map kept on disk (`stored`) for the same files at the
 * same versions and the same request is shown as it is: building it again would give the same text.
 */
export type MapRefreshMode = 'auto' | 'always' | 'files' | 'manual';

export interface RepoMapDeps {
  /** Repository-relative paths the map may show (already filtered by ignore rules). */
  readonly listFiles: () => Promise<readonly string[]>;
  readonly collectTags: (files: readonly string[]) => Promise<ReadonlyMap<string, FileTags>>;
  /** File text by repository-relative path, undefined when unreadable. */
  readonly readFile: (path: string) => string | undefined;
  readonly countTokens: (text: string) => number;
  /**
   * Which tokenizer countTokens counts with now: with it, blocks' token counts are kept between
   * builds of this process (per tokenizer), so a new chat set or budget counts only new blocks.
   */
  readonly tokenizer?: () => string;
  /** Milliseconds, for deciding whether a build was fast. */
  readonly now: () => number;
  readonly refreshMode?: MapRefreshMode;
  readonly budgetGrowth?: BudgetGrowth;
  /** In auto mode, builds faster than this are simply redone (default 1000 ms). */
  readonly fastBuildMs?: number;
  /** Maps kept for different inputs (default 16). */
  readonly cacheEntries?: number;
  /** Maps kept across processes, looked up before any tag is collected. */
  readonly stored?: StoredMaps;
  /** Rankings kept across processes (rank-store.ts): a ranking of unchanged inputs takes their ranks. */
  readonly rankStore?: RankStore;
  /**
   * Called when a stored map answered this very request before some file was edited (see
   * StoredMaps.keptBeforeEdit): a parse is likely, so a parser thread may start before the tag cache
   * says which file needs it.
   */
  readonly expectParse?: () => void;
}

/** Rendered maps on disk (see map-store.ts), keyed by everything a map is built from. */
export interface StoredMaps {
  /** A digest of the repository's listed files as they are now (stats only, nothing read). */
  fingerprint(): Promise<string>;
  get(key: string): Promise<StoredMap | undefined>;
  /** Remembered and written in the background (the owner can wait for the write). */
  set(key: string, map: StoredMap): void;
  /**
   * Whether maps are kept for the same request as `key`, each over files of other names or sizes: the
   * request was answered before some file was edited. (Keys are JSON arrays led by a fingerprint().)
   * Files of the sizes some kept map saw (a checkout back, a touch) do not count: their contents are
   * likely known.
   */
  keptBeforeEdit?(key: string): Promise<boolean>;
}

export interface RepoMapRequest {
  readonly chatFiles: readonly string[];
  readonly readOnlyFiles?: readonly string[];
  /** --map-tokens; 0 turns the map off. */
  readonly budget: number;
  /** An explicit refresh (/map-refresh): always rebuilds. */
  readonly refresh?: boolean;
}

export interface RepoMapStats {
  readonly fromCache: boolean;
  readonly files: number;
  readonly tags: number;
  readonly definitions: number;
  readonly budget: number;
  readonly tokens: number;
  readonly buildMs: number;
  /** What the ranking computed afresh (absent when nothing was ranked: a map from a cache). */
  readonly ranking?: RankWork;
}

export interface RepoMap {
  get(request: RepoMapRequest): Promise<string>;
  /** Facts about the last get(), for /map and the benchmark. */
  lastStats(): RepoMapStats | undefined;
}

interface CachedMap {
  readonly text: string;
  readonly fileList: string;
  readonly stats: RepoMapStats;
  /** The tags it was built from: unchanged files keep the very same objects (the tag cache's). */
  readonly tagsByFile: ReadonlyMap<string, FileTags>;
}

/** Whether every file outside `hidden` has the same tags object in both maps (so the same text). */
function sameOutside(before: ReadonlyMap<string, FileTags>, after: ReadonlyMap<string, FileTags>, hidden: ReadonlySet<string>): boolean {
  if (before.size !== after.size) return false;
  for (const [path, tags] of after) {
    if (!hidden.has(path) && before.get(path) !== tags) return false;
  }
  return true;
}

function sorted(list: readonly string[] | undefined): string[] {
  return [...new Set(list ?? [])].sort();
}

function requestKey(request: RepoMapRequest): string {
  return JSON.stringify([
    sorted(request.chatFiles),
    sorted(request.readOnlyFiles),
    request.budget,
  ]);
}

/**
 * When everything fits in budget-many bytes it fits in budget-many tokens (a byte-level BPE token is
 * at least one byte), so a small repository's whole map needs no tokenizer at all: loading one costs
 * ~0.4 s per process. `tokens` is then the byte count, an upper bound.
 */
function fitAll(items: readonly RankedItem[], budget: number, renderBlocks: (items: readonly RankedItem[]) => string[]): FitResult | null {
  // A rendered item takes well over 8 bytes; more items than that cannot all fit, so don't render them.
  if (budget <= 0 || items.length === 0 || items.length > budget / 8) return null;
  const text = renderBlocks(items).join('');
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes <= budget ? { text, tokens: bytes, items: [...items], prefix: items.length } : null;
}

function storable({ text, stats }: CachedMap): StoredMap {
  const { files, tags, definitions, budget, tokens } = stats;
  return { text, files, tags, definitions, budget, tokens };
}

export function createRepoMap(deps: RepoMapDeps): RepoMap {
  const mode = deps.refreshMode ?? 'auto';
  const fastBuildMs = deps.fastBuildMs ?? 1000;
  const capacity = Math.max(1, deps.cacheEntries ?? 16);
  const cache = new Map<string, CachedMap>();
  let last: CachedMap | undefined;
  let stats: RepoMapStats | undefined;
  // Keeps the file graph and its ranks between builds: a touched file or a new chat set re-ranks what changed.
  const ranker = createRanker({ store: deps.rankStore });
  // The files the last build rendered: the next one reads only those whose tags changed.
  let rendered: ReadonlyMap<string, KeptView> | undefined;
  // Token counts of rendered blocks, for the tokenizer they were counted with.
  let blockTokens: { tokenizer: string; counts: Map<string, number> } | undefined;
  const blockTokensNow = (): Map<string, number> | undefined => {
    if (deps.tokenizer === undefined) return undefined;
    const tokenizer = deps.tokenizer();
    if (blockTokens?.tokenizer !== tokenizer) blockTokens = { tokenizer, counts: new Map() };
    return blockTokens.counts;
  };

  const remember = (key: string, entry: CachedMap): void => {
    cache.delete(key);
    cache.set(key, entry);
    while (cache.size > capacity) cache.delete(cache.keys().next().value ?? '');
    last = entry;
  };

  const reuse = (entry: CachedMap): string => {
    stats = { ...entry.stats, fromCache: true };
    return entry.text;
  };

  const rankOptions = (request: RepoMapRequest, budget: number): RankOptions => ({
    chatFiles: [...request.chatFiles, ...(request.readOnlyFiles ?? [])],
    // Each shown definition costs at least a token or shares a line already shown: twice the
    // budget, plus the fitting's look-ahead, is more than any map of that budget can hold.
    limit: budget * 2 + 256,
  });

  /**
   * While the listing's git process runs, ranks the last build's files for a request no kept map
   * answers (a new chat set or budget): the files are mostly unchanged, and the ranker then hands
   * build() this very ranking. Yields a turn first, so the listing's process has started.
   */
  const rankAhead = async (request: RepoMapRequest, budget: number, key: string): Promise<void> => {
    if (last === undefined || last.tagsByFile.size === 0 || request.refresh || cache.has(key)) return;
    const { tagsByFile } = last;
    await new Promise<void>((resolve) => setImmediate(resolve));
    ranker.rank(tagsByFile, rankOptions(request, budget));
  };

  const build = async (request: RepoMapRequest, budget: number, files: readonly string[], tagsByFile: ReadonlyMap<string, FileTags>, started: number): Promise<CachedMap> => {
    const ranked = ranker.rank(tagsByFile, rankOptions(request, budget));
    const texts = new Map<string, string | undefined>();
    const readOnce = (path: string): string | undefined => {
      if (!texts.has(path)) texts.set(path, deps.readFile(path));
      return texts.get(path);
    };
    const renderer = createMapRenderer({ readFile: readOnce, tagsByFile, previous: rendered });
    const fit = fitAll(ranked.items, budget, renderer.blocks) ?? fitToBudget(ranked.items, { budget, count: deps.countTokens, renderBlocks: renderer.blocks, blockTokens: blockTokensNow() });
    rendered = renderer.kept();
    let tags = 0;
    for (const fileTags of tagsByFile.values()) tags += tagCount(fileTags);
    const entryStats: RepoMapStats = {
      fromCache: false,
      files: tagsByFile.size,
      tags,
      definitions: fit.items.filter((item) => item.kind === 'def').length,
      budget,
      tokens: fit.tokens,
      buildMs: deps.now() - started,
      ranking: ranker.lastWork(),
    };
    return { text: fit.text, fileList: files.join('\0'), stats: entryStats, tagsByFile };
  };

  return {
    async get(request) {
      if (request.budget <= 0) {
        stats = undefined;
        return '';
      }
      if (mode === 'manual' && !request.refresh && last !== undefined) return reuse(last);
      const started = deps.now();
      const budget = effectiveBudget(request.budget, request.chatFiles.length, deps.budgetGrowth);
      const key = requestKey(request);
      // Same files at the same versions, same request: the same map, whatever the mode says.
      const fingerprint = deps.stored?.fingerprint();
      if (fingerprint !== undefined) {
        // Handled here too: a listing that fails while the ranking runs must not count as unhandled.
        fingerprint.catch(() => {});
        await rankAhead(request, budget, key);
      }
      const storedKey = fingerprint ? JSON.stringify([await fingerprint, key, budget]) : '';
      const stored = deps.stored && !request.refresh ? await deps.stored.get(storedKey) : undefined;
      if (stored) {
        const { text, ...facts } = stored;
        // Remembered like a build (with no tags): manual mode keeps it, the other modes rebuild it
        // once the files change, as they would a map built here.
        const entry: CachedMap = { text, fileList: '', stats: { ...facts, fromCache: false, buildMs: deps.now() - started }, tagsByFile: new Map() };
        remember(key, entry);
        return reuse(entry);
      }
      if (deps.expectParse && !request.refresh && await deps.stored?.keptBeforeEdit?.(storedKey)) deps.expectParse();
      const files = sorted(await deps.listFiles());
      const cached = cache.get(key);
      const sameFiles = cached !== undefined && cached.fileList === files.join('\0');
      if (cached !== undefined && !request.refresh && sameFiles) {
        if (mode === 'files' || mode === 'manual') return reuse(cached);
        if (mode === 'auto' && cached.stats.buildMs >= fastBuildMs) return reuse(cached);
      }
      const tagsByFile = await deps.collectTags(files);
      if (cached !== undefined && !request.refresh && sameFiles && mode === 'auto') {
        const hidden = new Set([...request.chatFiles, ...(request.readOnlyFiles ?? [])]);
        if (sameOutside(cached.tagsByFile, tagsByFile, hidden)) {
          remember(key, { ...cached, tagsByFile });
          deps.stored?.set(storedKey, storable(cached));
          return reuse(cached);
        }
      }
      const entry = await build(request, budget, files, tagsByFile, started);
      remember(key, entry);
      stats = entry.stats;
      deps.stored?.set(storedKey, storable(entry));
      return entry.text;
    },
    lastStats: () => stats,
  };
}

export interface Mentions {
  readonly files: string[];
  readonly idents: string[];
}

const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** Words this long are specific enough to boost even without `_` or an inner capital. */
const IDENT_MIN_PLAIN_LENGTH = 8;

/**
 * Whether a word of a request looks like an identifier rather than English: it contains `_`, or a
 * capital after its first character next to a lowercase letter (camelCase, HTTPServer), or it is at
 * least IDENT_MIN_PLAIN_LENGTH characters. "add" or "map" in a request must not boost every `add`.
 */
function looksLikeIdentifier(word: string): boolean {
  if (word.includes('_')) return /[A-Za-z0-9]/.test(word);
  if (/.[A-Z]/.test(word) && /[a-z]/.test(word)) return true;
  return word.length >= IDENT_MIN_PLAIN_LENGTH;
}

function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return (dot > 0 ? base.slice(0, dot) : base).toLowerCase();
}

/**
 * Identifiers and repository files named in a request. A word counts as an identifier when it looks
 * like one (looksLikeIdentifier) or is the name of a repository file without its extension ("fix the
 * parser" with parser.py). Files follow the one rule of mentioned-files.ts.
 */
export function findMentions(text: string, files: readonly string[]): Mentions {
  const stems = new Set(files.map(stemOf));
  const idents = [...new Set(text.match(IDENT) ?? [])].filter(
    (word) => word.length >= 3 && (looksLikeIdentifier(word) || stems.has(word.toLowerCase())),
  );
  return { files: mentionedFiles(text, files), idents };
}
