// The map's policy, apart from how it is built: how far its budget grows with no files in the chat,
// and what keys the maps kept on disk (.tandem/maps.cache), so a map is reused only when nothing that
// shapes it changed.
import type { StateReader } from '../platform/state-files.js';
import { DEFAULT_NO_CHAT_MULTIPLIER, type BudgetGrowth } from './budget.js';
import type { MapSource } from './map-source.js';
import { loadMapStore, MAP_STORE_VERSION, type MapStore } from './map-store.js';
import type { StoredMaps } from './repo-map.js';
import { TAG_CACHE_VERSION } from './tag-cache.js';

/**
 * With no files in the chat the map is all the model sees of the code, so its budget grows to
 * --map-multiplier-no-files x --map-tokens (default DEFAULT_NO_CHAT_MULTIPLIER), hard-capped at an
 * eighth of the context window, and at NO_CHAT_MAX_TOKENS when the window is unknown.
 */
export const NO_CHAT_MAX_TOKENS = 8192;
const NO_CHAT_WINDOW_SHARE = 1 / 8;

export function noChatMaxBudget(contextWindow: number | undefined): number {
  return contextWindow !== undefined && contextWindow > 0 ? Math.floor(contextWindow * NO_CHAT_WINDOW_SHARE) : NO_CHAT_MAX_TOKENS;
}

/** The budget's growth with no chat files, from --map-multiplier-no-files and the model's window. */
export function budgetGrowthOf(noFilesMultiplier: number | undefined, contextWindow: number | undefined): BudgetGrowth {
  return { noChatMultiplier: noFilesMultiplier ?? DEFAULT_NO_CHAT_MULTIPLIER, maxBudget: noChatMaxBudget(contextWindow) };
}

/** Everything besides the files and the request that shapes a rendered map. */
export interface StoredMapShape {
  /** tandem's version: a new version may rank or render differently. */
  readonly version: string;
  /** Which tokenizer counts the map's fit now (the main model's name). */
  readonly tokenizer: string;
  readonly noFilesMultiplier: number | undefined;
  readonly contextWindow: number | undefined;
  readonly subtree: string | null | undefined;
}

/**
 * The maps kept in .tandem/maps.cache, keyed by the listing's digest and what else shapes a map:
 * the versions of the tag and map formats and `shape()` (tandem's version, tokenizer, budget settings).
 */
export function storedMaps(root: string, source: MapSource, shape: () => StoredMapShape, reader?: StateReader): { maps: StoredMaps; save: () => Promise<void> } {
  let store: Promise<MapStore> | undefined;
  const loaded = (): Promise<MapStore> => (store ??= loadMapStore(root, reader));
  // Written after each build, one write after another; the map is an optimisation, so a failed
  // write only costs the next process a build.
  let saving: Promise<void> = Promise.resolve();
  const key = (): unknown[] => {
    const { version, tokenizer, noFilesMultiplier, contextWindow, subtree } = shape();
    return [version, tokenizer, noFilesMultiplier, contextWindow, subtree ?? ''];
  };
  const maps: StoredMaps = {
    fingerprint: async () => {
      const { sizes, stamps } = await source.scan();
      return JSON.stringify([TAG_CACHE_VERSION, MAP_STORE_VERSION, ...key(), sizes, stamps]);
    },
    get: async (storedKey) => (await loaded()).get(storedKey),
    keptBeforeEdit: async (storedKey) => {
      const mine = splitStoredKey(storedKey);
      if (mine === null) return false;
      const sameRequest = (await loaded()).keys().map(splitStoredKey).filter((theirs) => theirs?.rest === mine.rest);
      return sameRequest.length > 0 && sameRequest.every((theirs) => theirs?.sizes !== mine.sizes);
    },
    set: (storedKey, map) => {
      saving = saving.then(loaded).then((s) => {
        s.set(storedKey, map);
        return s.save();
      }).catch(() => {});
    },
  };
  return { maps, save: () => saving };
}

/**
 * A stored map's key (a JSON array whose first item is a fingerprint(), itself a JSON array ending with
 * the listing's sizes and stamps digests) as the sizes digest and everything but the digests; null for
 * a key of another form.
 */
function splitStoredKey(key: string): { sizes: string; rest: string } | null {
  try {
    const [fingerprint, ...request] = JSON.parse(key) as unknown[];
    if (typeof fingerprint !== 'string') return null;
    const parts = JSON.parse(fingerprint) as unknown[];
    const [sizes, stamps] = parts.splice(-2, 2);
    return typeof sizes === 'string' && typeof stamps === 'string' ? { sizes, rest: JSON.stringify([parts, request]) } : null;
  } catch {
    return null;
  }
}
