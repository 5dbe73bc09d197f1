// Rendered maps kept on disk at <root>/.tandem/maps.cache, so a new process on an unchanged
// repository shows its map without loading tags or ranking anything.
import { createStateReader, readStateText, STATE_CAPS, type StateReader } from '../platform/state-files.js';
import path from 'node:path';
import { writeAtomically } from '../platform/tag-files.js';

/**
 * Bump when what a map looks like for the same inputs changes (ranking, rendering, fitting, tags):
 * a map stored by another version is never shown.
 */
export const MAP_STORE_VERSION = 1;
const FORMAT = 'tandem-maps';
/** A few request shapes (with and without chat files, after a /drop...) per repository. */
export const MAP_STORE_ENTRIES = 8;

export interface StoredMap {
  readonly text: string;
  readonly tokens: number;
  readonly files: number;
  readonly tags: number;
  readonly definitions: number;
  readonly budget: number;
}

export interface MapStore {
  get(key: string): StoredMap | undefined;
  /** The keys kept, oldest first. */
  keys(): string[];
  /** Remembered now; written by the next save(). */
  set(key: string, map: StoredMap): void;
  save(): Promise<void>;
}

export function mapStorePath(root: string): string {
  return path.join(root, '.tandem', 'maps.cache');
}

/**
 * A missing, torn or other-version file is an empty store. Keys are opaque (the caller's digest of
 * everything the map is built from); the newest entries are kept, the oldest dropped.
 */
export async function loadMapStore(root: string, reader: StateReader = createStateReader(root)): Promise<MapStore> {
  const file = mapStorePath(root);
  const entries = decode(readStateText(reader, file, STATE_CAPS.mapsCache));
  let dirty = false;
  return {
    get: (key) => entries.get(key),
    keys: () => [...entries.keys()],
    set(key, map) {
      entries.delete(key);
      entries.set(key, map);
      while (entries.size > MAP_STORE_ENTRIES) entries.delete(entries.keys().next().value ?? '');
      dirty = true;
    },
    async save() {
      if (!dirty) return;
      dirty = false;
      await writeAtomically(file, JSON.stringify({ format: FORMAT, version: MAP_STORE_VERSION, entries: [...entries] }));
    },
  };
}

function decode(text: string): Map<string, StoredMap> {
  const entries = new Map<string, StoredMap>();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    return entries;
  }
  if (!isRecord(parsed) || parsed.format !== FORMAT || parsed.version !== MAP_STORE_VERSION || !Array.isArray(parsed.entries)) return entries;
  for (const entry of parsed.entries.slice(-MAP_STORE_ENTRIES)) {
    if (Array.isArray(entry) && typeof entry[0] === 'string' && isStoredMap(entry[1])) entries.set(entry[0], entry[1]);
  }
  return entries;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStoredMap(value: unknown): value is StoredMap {
  if (!isRecord(value) || typeof value.text !== 'string') return false;
  return ['tokens', 'files', 'tags', 'definitions', 'budget'].every((field) => Number.isInteger(value[field]));
}
