// The user's shared tag cache: a second checkout parses only new contents, the map stays the same,
// and an entry that is torn, garbage, of another version, a link, a FIFO or another user's reads as absent.
import { execFileSync } from 'node:child_process';
import { chown, cp, mkdir, readdir, readFile, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRepoMapPort } from '../../src/cli/repo-map-adapter.js';
import { collectTags, type CollectTagsStats } from '../../src/repomap/collect-tags.js';
import { findQueriesDir } from '../../src/repomap/extract-tags.js';
import { packTags, unpackTags } from '../../src/repomap/packed-tags.js';
import { blobId, createSharedTags, decodeEntry, encodeEntry, type SharedTags } from '../../src/repomap/shared-tags.js';
import { createMapSource, WARM_UP_MIN_FILES } from '../../src/repomap/map-source.js';
import { loadTagCache } from '../../src/repomap/tag-cache.js';
import { NameTable } from '../../src/repomap/name-table.js';
import { createTagsPool, type TagsPool } from '../../src/repomap/tags-pool.js';
import { createTagStore, defaultTagStoreDir } from '../../src/platform/tag-store.js';
import { tempDir } from '../support/temp-repo.js';



const queriesDir = findQueriesDir(import.meta.url);
const packageRoot = path.dirname(queriesDir);
const pool = createTagsPool({ queriesDir, threads: 0 });
const VERSION = 'test-version';

async function makeRepo(files: Record<string, string>): Promise<string> {
  const root = await tempDir('tandem-shared-repo-');
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), text);
  }
  return root;
}

const FILES: Record<string, string> = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [
  `pkg/m${i}.py`, `def f${i}(x):\n    return f${(i + 1) % 10}(x)\n\nclass C${i}:\n    def run(self):\n        return f${i}(1)\n`,
]));

async function collect(root: string, shared: SharedTags) {
  const stats: CollectTagsStats = { files: 0, hits: 0, parsed: 0, failed: 0 };
  const tags = await collectTags(root, Object.keys(FILES).sort(), { pool, cache: await loadTagCache(root), shared }, stats);
  await shared.flush();
  return { stats, tags: new Map([...tags].map(([file, packed]) => [file, unpackTags(file, packed)])) };
}

/** Every entry file under the store's folder. */
async function entryFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of (await readdir(dir)).filter((name) => /^[0-9a-f]{2}$/.test(name))) {
    for (const name of await readdir(path.join(dir, folder))) out.push(path.join(dir, folder, name));
  }
  return out.sort();
}

describe('shared tag cache', () => {
  it('lets a second checkout parse only the contents it has not seen, with equal tags', async () => {
    const store = await tempDir('tandem-shared-store-');
    const first = await makeRepo(FILES);
    const cold = await collect(first, createSharedTags(createTagStore({ dir: store }), VERSION));
    expect(cold.stats).toMatchObject({ files: 10, hits: 0, sharedHits: 0, parsed: 10 });
    expect(await entryFiles(store)).toHaveLength(10);

    // A second clone: no .tandem/ of its own, every file's content known to the user's cache.
    const second = await makeRepo(FILES);
    const clone = await collect(second, createSharedTags(createTagStore({ dir: store }), VERSION));
    expect(clone.stats).toMatchObject({ files: 10, hits: 10, sharedHits: 10, parsed: 0 });
    expect(clone.tags).toEqual(cold.tags);

    // A branch switch changing one file: one parse; the others come from the repository's own cache.
    await writeFile(path.join(second, 'pkg/m3.py'), 'def switched():\n    return 3\n');
    const switched = await collect(second, createSharedTags(createTagStore({ dir: store }), VERSION));
    expect(switched.stats).toMatchObject({ files: 10, hits: 9, parsed: 1 });
    expect(switched.tags.get('pkg/m3.py')?.[0]?.name).toBe('switched');

    // Another grammar or query version finds nothing and parses everything.
    const third = await makeRepo(FILES);
    const other = await collect(third, createSharedTags(createTagStore({ dir: store }), 'another-version'));
    expect(other.stats).toMatchObject({ hits: 0, parsed: 10 });
  });

  it('reads a torn, garbage, foreign, linked or FIFO entry as absent and parses the file again', async () => {
    const store = await tempDir('tandem-shared-store-');
    const repo = await makeRepo({ 'a.py': FILES['pkg/m0.py'] ?? '' });
    const shared = (): SharedTags => createSharedTags(createTagStore({ dir: store }), VERSION);
    const collectOne = async (root: string) => {
      const stats: CollectTagsStats = { files: 0, hits: 0, parsed: 0, failed: 0 };
      const tags = await collectTags(root, ['a.py'], { pool, shared: shared() }, stats);
      return { stats, names: unpackTags('a.py', tags.get('a.py') ?? packTags([])).map((t) => t.name) };
    };
    const first = await collectOne(repo);
    const s = shared();
    // Parsed (no repository cache given), then stored by an explicit put and flush.
    const bytes = await readFile(path.join(repo, 'a.py'));
    const packed = (await collectTags(repo, ['a.py'], { pool })).get('a.py');
    s.put('python', blobId(bytes), packed ?? packTags([]));
    await s.flush();
    const [entry] = await entryFiles(store);
    expect(entry).toBeDefined();
    const good = await readFile(entry ?? '');
    expect(await collectOne(repo)).toEqual({ stats: { files: 1, hits: 1, sharedHits: 1, hashed: 1, parsed: 0, failed: 0 }, names: first.names });

    const absentEach = async (what: string, plant: (file: string) => Promise<void>): Promise<void> => {
      await rm(entry ?? '', { force: true });
      await plant(entry ?? '');
      const run = await collectOne(repo);
      expect(run.stats, what).toMatchObject({ hits: 0, parsed: 1 });
      expect(run.names, what).toEqual(first.names);
    };
    await absentEach('truncated', async (file) => {
      await writeFile(file, good);
      await truncate(file, good.length - 5);
    });
    await absentEach('garbage', (file) => writeFile(file, Buffer.from('TNDTAGS1\xff\xff\xff\xff not an entry')));
    await absentEach('another version', async (file) => {
      await writeFile(file, encodeEntry({ version: 'old', lang: 'python', blob: blobId(bytes) }, packed ?? packTags([])) ?? '');
    });
    await absentEach('another content', async (file) => {
      await writeFile(file, encodeEntry({ version: VERSION, lang: 'python', blob: blobId(Buffer.from('x')) }, packed ?? packTags([])) ?? '');
    });
    const target = path.join(await tempDir('tandem-shared-target-'), 'planted');
    await writeFile(target, good);
    await absentEach('symlink', (file) => symlink(target, file));
    // A FIFO must not block the read (O_NONBLOCK) nor be taken as an entry.
    await absentEach('fifo', async (file) => void execFileSync('mkfifo', [file]));
    if (process.getuid?.() === 0) {
      await absentEach('another user', async (file) => {
        await writeFile(file, good);
        await chown(file, 12345, 12345);
      });
    }
    // The good entry back: a hit again (so the refusals above were the entry's, not the setup's).
    await rm(entry ?? '', { force: true });
    await writeFile(entry ?? '', good);
    expect((await collectOne(repo)).stats).toMatchObject({ sharedHits: 1, parsed: 0 });
  });

  it('decodes only exactly what it encoded', () => {
    const packed = packTags([
      { path: 'a', name: 'alpha', role: 'def', kind: 'function', line: 0, endLine: 3 },
      { path: 'a', name: 'beta', role: 'ref', kind: 'call', line: 1, endLine: 1 },
      { path: 'a', name: 'beta', role: 'ref', kind: 'call', line: 2, endLine: 2 },
    ]);
    const header = { version: 'v', lang: 'python', blob: 'b' };
    const bytes = Buffer.from(encodeEntry(header, packed) ?? new Uint8Array());
    const decoded = decodeEntry(bytes, header);
    expect({ names: decoded?.names, kinds: decoded?.kinds, data: decoded?.data }).toEqual({ names: [...packed.names], kinds: [...packed.kinds], data: packed.data });
    // Names are handed on as bytes; a table interns them to the same ids as the strings.
    expect(decoded?.nameBytes?.count).toBe(2);
    const viaBytes = new NameTable(['beta']).adopt(decodeEntry(bytes, header) ?? packed);
    const viaStrings = new NameTable(['beta']).adopt(packed);
    expect(viaBytes.names).toEqual(['beta', 'alpha']);
    expect(viaBytes.data).toEqual(viaStrings.data);
    // Names that are not UTF-8, or fewer or more of them than the header says: not this entry.
    const at = bytes.indexOf(Buffer.from('alpha'));
    const badUtf8 = Buffer.from(bytes);
    badUtf8[at] = 0xff;
    expect(decodeEntry(badUtf8, header)).toBeNull();
    const extraName = Buffer.from(bytes);
    extraName[at + 2] = 0;
    expect(decodeEntry(extraName, header)).toBeNull();
    expect(decodeEntry(Buffer.concat([bytes, Buffer.alloc(16)]), header)).toBeNull();
    expect(decodeEntry(bytes, { ...header, lang: 'ruby' })).toBeNull();
    // A name holding a NUL cannot be stored (the names are NUL-separated).
    expect(encodeEntry(header, packTags([{ path: 'a', name: 'a\0b', role: 'def', kind: 'function', line: 0, endLine: 0 }]))).toBeNull();
  });

  it('drops the least recently used entries past the size cap', async () => {
    const dir = await tempDir('tandem-shared-store-');
    let now = Date.now();
    const store = createTagStore({ dir, maxBytes: 2500, now: () => now });
    const key = (i: number): string => i.toString(16).padStart(40, '0');
    await store.write(Array.from({ length: 4 }, (_, i) => ({ key: key(i), bytes: Buffer.alloc(1000, i) })));
    // Entry 0 is the oldest by write, but read two hours later it becomes the most recent.
    for (const [i, age] of [[0, 5], [1, 4], [2, 3], [3, 2]] as const) {
      const when = new Date(now - age * 3_600_000);
      await utimes(path.join(dir, key(i).slice(0, 2), key(i).slice(2)), when, when);
    }
    now += 60_000;
    expect(store.read(key(0))?.length).toBe(1000);
    await store.write([]);
    await store.prune(true);
    expect(store.read(key(0))).not.toBeNull();
    expect(store.read(key(1))).toBeNull();
    expect(store.read(key(2))).toBeNull();
    expect(store.read(key(3))).not.toBeNull();
    expect((await stat(dir)).isDirectory()).toBe(true);
  });

  it('defaults to the XDG cache folder, else ~/.cache', () => {
    expect(defaultTagStoreDir({ XDG_CACHE_HOME: '/x/cache' }, '/home/u')).toBe(path.join('/x/cache', 'tandem', 'tags'));
    expect(defaultTagStoreDir({ XDG_CACHE_HOME: 'relative' }, '/home/u')).toBe(path.join('/home/u', '.cache', 'tandem', 'tags'));
    expect(defaultTagStoreDir({}, '/home/u')).toBe(path.join('/home/u', '.cache', 'tandem', 'tags'));
  });

  it('renders the same map in a second clone from the shared cache as in the first', async () => {
    const store = await tempDir('tandem-shared-store-');
    const first = await makeRepo(FILES);
    const second = await tempDir('tandem-shared-clone-');
    await cp(first, second, { recursive: true });
    const tokens = { count: (text: string) => Math.ceil(text.length / 4) };
    const mapOf = async (root: string): Promise<string> => {
      const port = createRepoMapPort({ root, packageRoot, tokens, refreshMode: 'always', emit: () => {}, threads: 0, tagCacheDir: store });
      const text = await port.get({ chatFiles: ['pkg/m0.py'], readOnlyFiles: [], requestText: '', budget: 1024 });
      await port.flush();
      return text;
    };
    const before = await mapOf(first);
    expect(before).toContain('class C1');
    expect(await entryFiles(store)).toHaveLength(10);
    expect(await mapOf(second)).toBe(before);
  });

  it('starts no parser thread early for a checkout whose contents the shared cache holds', async () => {
    const store = await tempDir('tandem-shared-store-');
    const many = Object.fromEntries(Array.from({ length: WARM_UP_MIN_FILES + 4 }, (_, i) => [`m${i}.py`, `def g${i}():\n    return ${i}\n`]));
    const warmUps: number[] = [];
    const spying: TagsPool = { parse: pool.parse, warmUp: (_languages, expected) => void warmUps.push(expected) };
    const mapOnce = async (root: string) => {
      const source = createMapSource(root, { pool: spying, shared: createSharedTags(createTagStore({ dir: store }), VERSION) });
      const tags = await source.collectTags(await source.listFiles());
      await source.flush();
      return tags;
    };
    const first = await mapOnce(await makeRepo(many));
    expect(first.size).toBe(WARM_UP_MIN_FILES + 4);
    expect(warmUps).toEqual([WARM_UP_MIN_FILES + 4]);
    warmUps.length = 0;
    const second = await mapOnce(await makeRepo(many));
    expect(second.size).toBe(WARM_UP_MIN_FILES + 4);
    expect(warmUps).toEqual([]);
  });
});
