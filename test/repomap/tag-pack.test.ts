// Packs of the user's shared tag cache: a flush of many contents writes one, a second checkout reads
// its tags from it alone (same tags, same map), and a torn, padded, garbage, other-version, linked,
// FIFO or other user's pack reads as absent.
import { execFileSync } from 'node:child_process';
import { chown, cp, mkdir, readdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRepoMapPort } from '../../src/cli/repo-map-adapter.js';
import { findQueriesDir } from '../../src/repomap/extract-tags.js';
import { createMapSource } from '../../src/repomap/map-source.js';
import { NameTable } from '../../src/repomap/name-table.js';
import { packTags, unpackTags, type PackedTags } from '../../src/repomap/packed-tags.js';
import { blobId, createSharedTags, openSharedTags, PACK_MIN_ENTRIES } from '../../src/repomap/shared-tags.js';
import { encodePack } from '../../src/repomap/tag-pack.js';
import { createTagsPool, type TagsPool } from '../../src/repomap/tags-pool.js';
import { createTagStore, MAX_PACKS } from '../../src/platform/tag-store.js';
import type { CleanBlobs } from '../../src/git/repo-listing.js';
import { tempDir } from '../support/temp-repo.js';

const queriesDir = findQueriesDir(import.meta.url);
const packageRoot = path.dirname(queriesDir);
const pool = createTagsPool({ queriesDir, threads: 0 });
const VERSION = 'test-version';
const COUNT = PACK_MIN_ENTRIES + 8;

function tagsOf(i: number): PackedTags {
  return packTags([
    { path: 'f', name: `def_${i}`, role: 'def', kind: 'function', line: 0, endLine: 2 },
    { path: 'f', name: 'shared_name', role: 'ref', kind: 'call', line: 1, endLine: 1 },
    { path: 'f', name: `def_${(i + 1) % COUNT}`, role: 'ref', kind: 'call', line: 2, endLine: 2 },
  ]);
}

const blobOf = (i: number): string => blobId(Buffer.from(`content ${i}`));

/** Puts COUNT contents and flushes: one pack; then drops every entry's own file, so only the pack is left. */
async function packedStore(): Promise<string> {
  const dir = await tempDir('tandem-pack-store-');
  const shared = createSharedTags(createTagStore({ dir }), VERSION);
  for (let i = 0; i < COUNT; i++) shared.put('python', blobOf(i), tagsOf(i), 100 + i);
  await shared.flush();
  for (const name of await readdir(dir)) if (/^[0-9a-f]{2}$/.test(name)) await rm(path.join(dir, name), { recursive: true });
  return dir;
}

async function onlyPack(dir: string): Promise<string> {
  const packs = await readdir(path.join(dir, 'packs'));
  expect(packs).toHaveLength(1);
  return path.join(dir, 'packs', packs[0] ?? '');
}

/** How many of the COUNT contents a new process finds (through the packs only). */
function found(dir: string, version = VERSION): number {
  const shared = createSharedTags(createTagStore({ dir }), version);
  shared.prefetch?.(Array.from({ length: COUNT }, (_, i) => ({ lang: 'python' as const, blob: blobOf(i) })));
  return Array.from({ length: COUNT }, (_, i) => shared.get('python', blobOf(i), 100 + i)).filter((tags) => tags !== null).length;
}

describe('tag packs', () => {
  it('writes one pack for a flush of many contents and gives back the same tags from it alone', async () => {
    const dir = await packedStore();
    await onlyPack(dir);
    const shared = createSharedTags(createTagStore({ dir }), VERSION);
    shared.prefetch?.(Array.from({ length: COUNT }, (_, i) => ({ lang: 'python' as const, blob: blobOf(i) })));
    const table = new NameTable();
    const other = new NameTable(['shared_name', 'unrelated']);
    for (let i = 0; i < COUNT; i++) {
      const tags = shared.get('python', blobOf(i), 100 + i);
      expect(tags && unpackTags('f', tags)).toEqual(unpackTags('f', tagsOf(i)));
      // Into an empty table (names moved whole) and into one with names of its own: the same tags.
      expect(unpackTags('f', table.adopt(tags ?? packTags([])))).toEqual(unpackTags('f', tagsOf(i)));
      expect(unpackTags('f', other.adopt(tags ?? packTags([])))).toEqual(unpackTags('f', tagsOf(i)));
    }
    // Another size is another content (a converted file), another language another entry.
    expect(shared.get('python', blobOf(0), 1)).toBeNull();
    expect(shared.get('ruby', blobOf(0), 100)).toBeNull();
    // A flush that took everything from the pack writes no new one.
    await shared.flush();
    await onlyPack(dir);
  });

  it('reads a torn, padded, garbage, other-version, linked, FIFO or other user\'s pack as absent', async () => {
    const dir = await packedStore();
    const file = await onlyPack(dir);
    const good = await readFile(file);
    expect(found(dir)).toBe(COUNT);
    expect(found(dir, 'another-version')).toBe(0);
    const absent = async (what: string, plant: () => Promise<void>): Promise<void> => {
      await rm(file, { force: true });
      await plant();
      expect(found(dir), what).toBe(0);
    };
    await absent('truncated', async () => {
      await writeFile(file, good);
      await truncate(file, good.length - 16);
    });
    await absent('padded', () => writeFile(file, Buffer.concat([good, Buffer.alloc(16)])));
    await absent('garbage', () => writeFile(file, Buffer.from('TNDPACK1\x10\x00\x00\x00{"version":"x"}')));
    await absent('another version', () => writeFile(file, encodePack('old', [{ lang: 'python', blob: blobOf(0), size: 100, packed: tagsOf(0) }]) ?? ''));
    const target = path.join(await tempDir('tandem-pack-target-'), 'planted');
    await writeFile(target, good);
    await absent('symlink', () => symlink(target, file));
    await absent('fifo', async () => void execFileSync('mkfifo', [file]));
    if (process.getuid?.() === 0) {
      await absent('another user', async () => {
        await writeFile(file, good);
        await chown(file, 12345, 12345);
      });
    }
    await rm(file, { force: true });
    await writeFile(file, good);
    expect(found(dir)).toBe(COUNT);
  });

  it('keeps at most MAX_PACKS packs and counts them toward the size cap', async () => {
    const dir = await tempDir('tandem-pack-store-');
    let now = Date.now();
    const store = createTagStore({ dir, maxBytes: 3 * 1000 + 500, now: () => now });
    for (let i = 0; i < MAX_PACKS + 2; i++) {
      await store.writePack(Buffer.alloc(100, i));
      now += 1000;
    }
    expect(store.packs()).toHaveLength(MAX_PACKS);
    expect(await readdir(path.join(dir, 'packs'))).toHaveLength(MAX_PACKS);
    await store.write([{ key: 'a'.repeat(40), bytes: Buffer.alloc(3000) }]);
    await store.prune(true);
    // 3,000 bytes of entry and 8 x 100 of packs over a 3,500-byte cap: the oldest go first.
    const left = await readdir(path.join(dir, 'packs'));
    expect(left.length).toBeLessThan(MAX_PACKS);
    expect(left.length).toBeGreaterThan(0);
  });

  it('does not pack a name holding a NUL', () => {
    expect(encodePack(VERSION, [{ lang: 'python', blob: 'b', size: 1, packed: packTags([{ path: 'f', name: 'a\0b', role: 'def', kind: 'function', line: 0, endLine: 0 }]) }])).toBeNull();
  });

  it('maps a second checkout from the first one\'s pack with no parse and the same map', async () => {
    const store = await tempDir('tandem-pack-store-');
    const first = await tempDir('tandem-pack-first-');
    await mkdir(path.join(first, 'pkg'));
    for (let i = 0; i < COUNT; i++) {
      await writeFile(path.join(first, 'pkg', `m${i}.py`), `def f${i}(x):\n    return f${(i + 1) % COUNT}(x)\n\nclass C${i}:\n    def run(self):\n        return f${i % 7}(1)\n`);
    }
    const second = await tempDir('tandem-pack-second-');
    await cp(first, second, { recursive: true });
    // As git's status would vouch for every file: its blob id, taken after the files were written.
    const cleanBlobs = (root: string) => async (): Promise<CleanBlobs> => {
      const ids = new Map<string, string>();
      for (const name of await readdir(path.join(root, 'pkg'))) ids.set(`pkg/${name}`, blobId(await readFile(path.join(root, 'pkg', name))));
      return { ids, takenAt: Date.now() + 60_000 };
    };
    const tokens = { count: (text: string) => Math.ceil(text.length / 4) };
    const mapOf = async (root: string): Promise<string> => {
      const port = createRepoMapPort({ root, packageRoot, tokens, refreshMode: 'always', emit: () => {}, threads: 0, tagCacheDir: store, cleanBlobs: cleanBlobs(root) });
      const text = await port.get({ chatFiles: ['pkg/m0.py'], readOnlyFiles: [], requestText: '', budget: 1024 });
      await port.flush();
      return text;
    };
    const before = await mapOf(first);
    expect(before).toContain('def f1(x)');
    for (const name of await readdir(store)) if (/^[0-9a-f]{2}$/.test(name)) await rm(path.join(store, name), { recursive: true });
    await onlyPack(store);

    let parsed = 0;
    const counting: TagsPool = { parse: (jobs, progress) => ((parsed += jobs.length), pool.parse(jobs, progress)) };
    const source = createMapSource(second, { pool: counting, shared: openSharedTags(store, queriesDir), cleanBlobs: cleanBlobs(second) });
    expect((await source.collectTags(await source.listFiles())).size).toBe(COUNT);
    expect(parsed).toBe(0);
    await source.flush();
    await rm(path.join(second, '.tandem'), { recursive: true, force: true });
    expect(await mapOf(second)).toBe(before);
  });
});
