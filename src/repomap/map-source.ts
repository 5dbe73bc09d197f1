// Where the map's files and tags come from in a real repository: the file listing and the tag
// cache, loaded once and shared, so a warm request neither re-reads file heads nor re-stats files.
import { collectTags, type Stamp } from './collect-tags.js';
import { listMapFileStats, type ListMapFilesOptions } from './list-files.js';
import type { PackedTags } from './packed-tags.js';
import { loadTagCache, type TagCache } from './tag-cache.js';
import type { ProgressCallback, TagsPool } from './tags-pool.js';

export interface MapSourceOptions {
  readonly pool: TagsPool;
  readonly onProgress?: ProgressCallback;
  readonly listOptions?: Omit<ListMapFilesOptions, 'known'>;
}

export interface MapSource {
  /** Lists the files (sorted) and remembers their stats for the next collectTags. */
  listFiles(): Promise<string[]>;
  collectTags(files: readonly string[]): Promise<Map<string, PackedTags>>;
}

export function createMapSource(root: string, options: MapSourceOptions): MapSource {
  let cache: Promise<TagCache> | undefined;
  let stamps = new Map<string, Stamp>();
  const cacheOnce = (): Promise<TagCache> => (cache ??= loadTagCache(root));

  return {
    async listFiles() {
      const tags = await cacheOnce();
      // A file whose cached tags match its stat was a readable source when it was parsed.
      const known = (relPath: string, size: number, mtimeMs: number): boolean => {
        const entry = tags.get(relPath);
        return entry !== undefined && entry.size === size && entry.mtimeMs === mtimeMs;
      };
      const files = await listMapFileStats(root, { ...options.listOptions, known });
      stamps = new Map(files.map((file) => [file.path, { size: file.size, mtimeMs: file.mtimeMs }]));
      return files.map((file) => file.path);
    },
    async collectTags(files) {
      return collectTags(root, files, { pool: options.pool, cache: await cacheOnce(), onProgress: options.onProgress, stamps });
    },
  };
}
