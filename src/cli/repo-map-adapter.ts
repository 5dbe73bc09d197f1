// Builds the real repository map (git file list, tag cache, worker pool, tiktoken) behind the small
// port the session uses, plus the terminal progress bar shown while many files are parsed.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { RepoMapPort, TokenCounter } from '../coders/ports.js';
import { createMapSource } from '../repomap/map-source.js';
import { budgetGrowthOf, storedMaps, type StoredMapShape } from '../repomap/map-policy.js';
import { createRepoMap, findMentions, type MapRefreshMode, type RepoMapStats } from '../repomap/repo-map.js';
import { openRankStore } from '../repomap/rank-store.js';
import { openSharedTags } from '../repomap/shared-tags.js';
import { createTagsPool, defaultTagThreads, type ProgressCallback } from '../repomap/tags-pool.js';
import { definitionKinds, type PackedTags } from '../repomap/packed-tags.js';
import { mentionedDefinitions } from '../repomap/mentioned.js';
import type { EmitEvent } from '../session/events.js';
import type { StateReader } from '../platform/state-files.js';
import type { CleanBlobs } from '../git/repo-listing.js';

export interface RepoMapHandle extends RepoMapPort {
  /** The next get() rebuilds whatever the refresh mode says. */
  refresh(): void;
  /** Names the repository defines, as far as the map has read them (for Tab completion). */
  identifiers(): readonly string[];
  /** Resolves once the tag cache write in progress (if any) is done: call it before the process exits. */
  flush(): Promise<void>;
  /** Facts about the last get() (for the benchmark). */
  lastStats(): RepoMapStats | undefined;
}

export interface RepoMapAdapterOptions {
  readonly root: string;
  readonly packageRoot: string;
  readonly tokens: TokenCounter;
  readonly refreshMode: MapRefreshMode;
  readonly emit: EmitEvent;
  /**
   * Parse progress `(done, total)`, called only when at least PROGRESS_MIN_FILES files must be
   * parsed (a warm run stays silent). Pass `createProgressBar(...)` when stderr is a terminal.
   */
  readonly progress?: ProgressCallback;
  /** The model's context window, which bounds how far the map may grow with no files in the chat. */
  readonly contextWindow?: number;
  /** --map-multiplier-no-files: the map's budget with no files in the chat, as a multiple of --map-tokens. */
  readonly noFilesMultiplier?: number;
  /**
   * Which tokenizer `tokens` counts with now (e.g. the main model's name): part of the key of the
   * maps kept on disk, whose fit depends on it. Without it no map is kept on disk.
   */
  readonly tokenizer?: () => string;
  /** Parser threads; default `defaultTagThreads` of the machine. */
  readonly threads?: number;
  /** --subtree-only: the map sees only the files under this repository-relative folder. */
  readonly subtree?: string | null;
  /** How the caches in `.tandem/` are read (confined; files git tracks ignored). */
  readonly stateReader?: StateReader;
  /** The user's tag cache shared by every checkout (--tag-cache-dir); without it only the repository's. */
  readonly tagCacheDir?: string;
  /** The request's listing of the repository's files (see git/repo-listing.ts); default the map's own git call. */
  readonly listFiles?: () => Promise<readonly string[] | null>;
  /** The same listing's blob ids of files git found unchanged: their tags are looked up without reading them. */
  readonly cleanBlobs?: () => Promise<CleanBlobs | null>;
}

/** Whether `path` (repository-relative) lies under `subtree` (every path when there is none). */
export function inSubtree(subtree: string | null | undefined, path: string): boolean {
  return !subtree || path.startsWith(`${subtree}/`);
}

/** Fewer files than this parse in a second or two: no bar. */
export const PROGRESS_MIN_FILES = 300;

export function createRepoMapPort(options: RepoMapAdapterOptions): RepoMapHandle {
  // Absolute: the state reader confines reads to <root>/.tandem/, and a relative root made it refuse
  // the repository's own ranks.cache and tags.cache, so every map ranked and hashed afresh.
  const root = resolve(options.root);
  const readFile = (path: string): string | undefined => {
    try {
      return readFileSync(join(root, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  const pool = createTagsPool({ queriesDir: join(options.packageRoot, 'queries'), threads: options.threads ?? defaultTagThreads(availableParallelism()) });
  const onProgress = options.progress ? onlyWhenMany(options.progress) : undefined;
  // One source per port: the tag cache is loaded on the first request and kept for the next ones.
  const shared = options.tagCacheDir ? openSharedTags(options.tagCacheDir, join(options.packageRoot, 'queries')) : undefined;
  const source = createMapSource(root, { pool, onProgress, stateReader: options.stateReader, shared,
    cleanBlobs: options.cleanBlobs, listOptions: options.listFiles ? { listFiles: options.listFiles } : undefined });
  let files: readonly string[] | undefined;
  const listed = async (): Promise<readonly string[]> => (files ??= (await source.listFiles()).filter((path) => inSubtree(options.subtree, path)));
  let refreshNext = false;
  // The names for Tab completion are worked out only when completion asks, not on every build.
  let lastTags: ReadonlyMap<string, PackedTags> | undefined;
  let identifiers: { from: ReadonlyMap<string, PackedTags>; names: readonly string[] } | null = null;
  const collect = async (paths: readonly string[]): Promise<ReadonlyMap<string, PackedTags>> => (lastTags = await source.collectTags(paths));
  // A map shown from disk collected no tags: mentions and completion collect them when they need them.
  const tagsNow = async (): Promise<ReadonlyMap<string, PackedTags>> => lastTags ?? collect(await listed());
  let collecting: Promise<void> | undefined;
  const version = options.tokenizer ? packageVersion(options.packageRoot) : '';
  const { tokenizer } = options;
  const shape = (): StoredMapShape => ({ version, tokenizer: tokenizer?.() ?? '', noFilesMultiplier: options.noFilesMultiplier, contextWindow: options.contextWindow, subtree: options.subtree });
  const stored = tokenizer ? storedMaps(root, source, shape, options.stateReader) : undefined;
  // Read only when a ranking is needed (a map shown from maps.cache ranks nothing).
  const rankStore = openRankStore(root, options.stateReader);
  const map = createRepoMap({
    listFiles: listed,
    collectTags: collect,
    readFile,
    countTokens: (text) => options.tokens.count(text),
    ...(tokenizer ? { tokenizer } : {}),
    now: () => performance.now(),
    refreshMode: options.refreshMode,
    budgetGrowth: budgetGrowthOf(options.noFilesMultiplier, options.contextWindow),
    stored: stored?.maps,
    rankStore,
    expectParse: () => source.expectParse(),
  });
  return {
    async get(request) {
      files = undefined;
      lastTags = undefined;
      const refresh = refreshNext;
      refreshNext = false;
      // The request's words do not shape the shared map (it must stay put for prompt caches):
      // the names it mentions go into that request's message through mentionedDefinitions().
      return map.get({ chatFiles: request.chatFiles, readOnlyFiles: request.readOnlyFiles, budget: request.budget, refresh });
    },
    async mentionedDefinitions(request) {
      const { idents } = findMentions(request.requestText, await listed());
      if (idents.length === 0) return '';
      const lines = new Map<string, string[] | undefined>();
      const lineOf = (path: string, line: number): string | undefined => {
        if (!lines.has(path)) lines.set(path, readFile(path)?.split(/\r?\n/));
        return lines.get(path)?.[line];
      };
      return mentionedDefinitions(await tagsNow(), idents, { exclude: new Set(request.chatFiles), lineOf });
    },
    refresh() {
      refreshNext = true;
    },
    identifiers() {
      // After a map shown from disk no tags are loaded yet: start loading them for the next ask.
      if (lastTags === undefined) {
        collecting ??= tagsNow().then(() => undefined, () => undefined).finally(() => (collecting = undefined));
      }
      const tags = lastTags ?? new Map<string, PackedTags>();
      if (identifiers?.from !== tags) identifiers = { from: tags, names: definedNames(tags) };
      return identifiers.names;
    },
    flush: async () => {
      await source.flush();
      await stored?.save();
      await rankStore.flush();
    },
    lastStats: () => map.lastStats(),
  };
}

/** tandem's version: a new version may rank or render differently, so it keys the stored maps. */
function packageVersion(packageRoot: string): string {
  try {
    return String((JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version?: unknown }).version ?? '');
  } catch {
    return '';
  }
}

function definedNames(tagsByFile: ReadonlyMap<string, PackedTags>): string[] {
  const names = new Set<string>();
  for (const packed of tagsByFile.values()) {
    const isDef = definitionKinds(packed);
    const { names: fileNames, data } = packed;
    for (let i = 0; i < data.length; i += 4) {
      const name = fileNames[data[i] ?? 0] ?? '';
      if (isDef[data[i + 1] ?? 0] === true && name.length > 2) names.add(name);
    }
  }
  return [...names].sort();
}

function onlyWhenMany(progress: ProgressCallback): ProgressCallback {
  return (done, total) => {
    if (total >= PROGRESS_MIN_FILES) progress(done, total);
  };
}

export interface ProgressBarOptions {
  /** Raw terminal output, e.g. `(text) => process.stderr.write(text)`. */
  readonly write: (text: string) => void;
  /** Terminal width; the bar fits in it. */
  readonly columns?: number;
  readonly label?: string;
}

/**
 * A one-line bar redrawn in place (carriage return), at most once per percent, cleared when done
 * so the map or the prompt starts on a clean line.
 */
export function createProgressBar(options: ProgressBarOptions): ProgressCallback {
  const label = options.label ?? 'Scanning repository';
  let lastPercent = -1;
  return (done, total) => {
    const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
    if (percent === lastPercent && done < total) return;
    lastPercent = percent;
    if (done >= total) {
      lastPercent = -1;
      options.write('\r\x1b[2K');
      return;
    }
    const counts = `${done}/${total} files`;
    const room = (options.columns ?? 80) - label.length - counts.length - 6;
    const width = Math.max(10, Math.min(40, room));
    const filled = Math.round((width * done) / Math.max(1, total));
    options.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}`);
  };
}
