// Tag cache and collectTags: hits, misses, touched files, content changes, corrupt and old caches.
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectTags } from '../../src/repomap/collect-tags.js';
import type { CollectTagsStats } from '../../src/repomap/collect-tags.js';
import { findQueriesDir } from '../../src/repomap/extract-tags.js';
import { packTags, unpackTags } from '../../src/repomap/packed-tags.js';
import type { Tag } from '../../src/repomap/tag.js';
import { decodeCache, encodeCache, loadTagCache, TAG_CACHE_VERSION, tagCachePath, type TagCacheEntry } from '../../src/repomap/tag-cache.js';
import { createTagsPool } from '../../src/repomap/tags-pool.js';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function makeRepo(): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-'));
  temps.push(root);
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src/a.py'), 'def alpha():\n    return beta()\n');
  await writeFile(path.join(root, 'src/b.py'), 'def beta():\n    return 1\n');
  return root;
}

const pool = createTagsPool({ queriesDir: findQueriesDir(import.meta.url), threads: 0 });
const FILES = ['src/a.py', 'src/b.py'];

async function run(root: string): Promise<{ tags: Map<string, Tag[]>; stats: CollectTagsStats }> {
  const stats = { files: 0, hits: 0, parsed: 0, failed: 0 };
  const packed = await collectTags(root, FILES, { pool, cache: await loadTagCache(root) }, stats);
  const tags = new Map([...packed].map(([file, fileTags]): [string, Tag[]] => [file, unpackTags(file, fileTags)]));
  return { tags, stats };
}

describe('tag cache', () => {
  it('parses on the cold run and hits on the warm run with equal tags', async () => {
    const root = await makeRepo();
    const cold = await run(root);
    expect(cold.stats).toEqual({ files: 2, hits: 0, parsed: 2, failed: 0 });
    expect(cold.tags.get('src/a.py')?.map((t) => `${t.role} ${t.name}`)).toEqual(['def alpha', 'ref beta']);
    const warm = await run(root);
    expect(warm.stats).toEqual({ files: 2, hits: 2, parsed: 0, failed: 0 });
    expect(warm.tags).toEqual(cold.tags);
  });

  it('keeps a touched file with unchanged content and reparses a changed one', async () => {
    const root = await makeRepo();
    await run(root);
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(root, 'src/a.py'), later, later);
    await writeFile(path.join(root, 'src/b.py'), 'def gamma():\n    return 2\n'); // same size
    const next = await run(root);
    expect(next.stats).toEqual({ files: 2, hits: 1, hashed: 1, parsed: 1, failed: 0 });
    expect(next.tags.get('src/b.py')?.[0]?.name).toBe('gamma');
    // The touched file's new mtime was saved: the next run hits both.
    expect((await run(root)).stats.hits).toBe(2);
  });

  it('ignores a corrupt or other-version cache file and rewrites it', async () => {
    const root = await makeRepo();
    await run(root);
    const file = tagCachePath(root);
    const good = await readFile(file, 'utf8');
    await writeFile(file, good.slice(0, good.length - 20));
    expect((await run(root)).stats.parsed).toBe(2);
    await writeFile(file, good.replace(`"version":${TAG_CACHE_VERSION}`, '"version":1'));
    expect((await run(root)).stats.parsed).toBe(2);
    expect(await readFile(file, 'utf8')).toBe(good);
  });

  it('drops entries of files that are gone and skips missing files', async () => {
    const root = await makeRepo();
    await run(root);
    await rm(path.join(root, 'src/b.py'));
    const after = await run(root);
    expect([...after.tags.keys()]).toEqual(['src/a.py']);
    expect([...(decodeCache(await readFile(tagCachePath(root), 'utf8'))?.keys() ?? [])]).toEqual(['src/a.py']);
  });

  it('appends the entries of changed files, and rewrites the file whole when appends pile up', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-'));
    temps.push(root);
    const tag = (file: string, name: string): Tag => ({ path: file, name, role: 'def', kind: 'function', line: 0, endLine: 1 });
    const entry = (file: string, name: string) => ({ size: 1, mtimeMs: 2, hash: 'h', packed: packTags([tag(file, name)]) });
    const first = await loadTagCache(root);
    for (let i = 0; i < 40; i++) first.set(`f${i}.py`, entry(`f${i}.py`, `name${i}`));
    await first.save();
    const lineCount = async (): Promise<number> => (await readFile(tagCachePath(root), 'utf8')).trim().split('\n').length;
    const firstName = (entry: TagCacheEntry | undefined): string | undefined => (entry ? unpackTags('', entry.packed)[0]?.name : undefined);
    expect(await lineCount()).toBe(42); // header, names, 40 entries

    const second = await loadTagCache(root);
    second.set('f3.py', entry('f3.py', 'renamed'));
    second.retain(new Set([...Array.from({ length: 40 }, (_, i) => `f${i}.py`)].filter((f) => f !== 'f7.py')));
    await second.save();
    expect(await lineCount()).toBe(45); // + the new name, f3.py, f7.py dropped
    const reloaded = decodeCache(await readFile(tagCachePath(root), 'utf8'));
    expect(reloaded?.size).toBe(39);
    expect(firstName(reloaded?.get('f3.py'))).toBe('renamed');
    expect(firstName(reloaded?.get('f4.py'))).toBe('name4');
    expect(reloaded?.has('f7.py')).toBe(false);

    const third = await loadTagCache(root);
    for (let i = 0; i < 30; i++) third.set(`f${i + 8}.py`, entry(`f${i + 8}.py`, `again${i}`));
    await third.save();
    expect(await lineCount()).toBe(41);
    const rewritten = await readFile(tagCachePath(root), 'utf8');
    expect(firstName(decodeCache(rewritten)?.get('f8.py'))).toBe('again0');
    // The rewrite keeps only names still in use, and later appends go on from that table.
    expect((JSON.parse(rewritten.split('\n')[1] ?? '') as { names: string[] }).names).toHaveLength(39);
    third.set('f0.py', entry('f0.py', 'latest'));
    await third.save();
    expect(firstName(decodeCache(await readFile(tagCachePath(root), 'utf8'))?.get('f0.py'))).toBe('latest');
    expect(firstName(decodeCache(await readFile(tagCachePath(root), 'utf8'))?.get('f9.py'))).toBe('again1');
  });

  it('writes a new cache\'s table as it is, and compacts once an entry was replaced', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-'));
    temps.push(root);
    const entry = (name: string) => ({ size: 1, mtimeMs: 2, hash: 'h', packed: packTags([{ path: '', name, role: 'def', kind: 'function', line: 0, endLine: 1 }]) });
    const namesOnDisk = async (): Promise<string[]> => (JSON.parse((await readFile(tagCachePath(root), 'utf8')).split('\n')[1] ?? '') as { names: string[] }).names;
    const cache = await loadTagCache(root);
    // Set out of path order (as parser threads answer): the file is in path order, the table in first-use order.
    for (const [file, name] of [['c.py', 'gamma'], ['a.py', 'alpha'], ['b.py', 'beta']] as const) cache.set(file, entry(name));
    const stored = cache.get('a.py');
    await cache.save();
    // Every name was in use: no copy of any file's tags was made to write them.
    expect(cache.get('a.py')).toBe(stored);
    expect(await namesOnDisk()).toEqual(['gamma', 'alpha', 'beta']);
    const decoded = decodeCache(await readFile(tagCachePath(root), 'utf8'));
    expect([...(decoded?.keys() ?? [])]).toEqual(['a.py', 'b.py', 'c.py']);
    expect([...(decoded?.entries() ?? [])].map(([file, e]) => [file, unpackTags(file, e.packed)[0]?.name])).toEqual([['a.py', 'alpha'], ['b.py', 'beta'], ['c.py', 'gamma']]);

    // A replaced entry leaves its old name unused: the next whole rewrite drops it.
    const fresh = await loadTagCache(await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-')).then((dir) => (temps.push(dir), dir)));
    fresh.set('a.py', entry('old'));
    fresh.set('a.py', entry('new'));
    fresh.set('b.py', entry('beta'));
    const before = fresh.get('b.py');
    await fresh.save();
    expect(fresh.get('b.py')).not.toBe(before);
    expect(unpackTags('a.py', fresh.get('a.py')?.packed ?? packTags([])).map((t) => t.name)).toEqual(['new']);
    expect(fresh.get('a.py')?.packed.names).toEqual(['new', 'beta']);
  });

  it('keeps an entry set while an earlier save is still writing', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-'));
    temps.push(root);
    const entry = (name: string) => ({ size: 1, mtimeMs: 2, hash: 'h', packed: packTags([{ path: '', name, role: 'def', kind: 'function', line: 0, endLine: 1 }]) });
    const cache = await loadTagCache(root);
    cache.set('a.py', entry('first'));
    const writing = cache.save();
    cache.set('a.py', entry('second'));
    await writing;
    await cache.save();
    const reloaded = decodeCache(await readFile(tagCachePath(root), 'utf8'));
    const stored = reloaded?.get('a.py');
    expect(stored && unpackTags('a.py', stored.packed)[0]?.name).toBe('second');
  });

  it('discards the cache when two processes appended names at once', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-'));
    temps.push(root);
    const entry = (name: string) => ({ size: 1, mtimeMs: 2, hash: 'h', packed: packTags([{ path: '', name, role: 'def', kind: 'function', line: 0, endLine: 1 }]) });
    const first = await loadTagCache(root);
    first.set('a.py', entry('alpha'));
    await first.save();
    const [one, two] = [await loadTagCache(root), await loadTagCache(root)];
    one.set('b.py', entry('beta'));
    two.set('c.py', entry('gamma'));
    await one.save();
    await two.save();
    // Both appended name 1: ids in two's entry would name beta. Nothing is trusted instead.
    expect(decodeCache(await readFile(tagCachePath(root), 'utf8'))).toBeNull();
    expect((await loadTagCache(root)).size).toBe(0);
  });

  it('gives every loaded entry the one table of names, and stores new tags onto it', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-cache-'));
    temps.push(root);
    const tagsOf = (names: string[]): Tag[] => names.map((name, line) => ({ path: '', name, role: 'ref', kind: 'call', line, endLine: line }));
    const first = await loadTagCache(root);
    first.set('a.py', { size: 1, mtimeMs: 2, hash: 'h', packed: packTags(tagsOf(['x', 'y'])) });
    first.set('b.py', { size: 1, mtimeMs: 2, hash: 'h', packed: packTags(tagsOf(['y', 'z'])) });
    await first.save();
    const loaded = await loadTagCache(root);
    const stored = loaded.set('c.py', { size: 1, mtimeMs: 2, hash: 'h', packed: packTags(tagsOf(['z', 'w'])) });
    const names = loaded.get('a.py')?.packed.names;
    expect(names).toEqual(['x', 'y', 'z', 'w']);
    expect(loaded.get('b.py')?.packed.names).toBe(names);
    expect(stored.packed.names).toBe(names);
    expect(loaded.get('c.py')).toBe(stored);
    expect(unpackTags('', stored.packed).map((tag) => tag.name)).toEqual(['z', 'w']);
  });

  it('rejects a cache whose packed numbers point past its names or kinds, or are cut short', () => {
    const good = new Map([['a.ts', { size: 1, mtimeMs: 2, hash: 'h', packed: packTags([
      { path: 'a.ts', name: 'run', role: 'def', kind: 'function', line: 3, endLine: 9 },
      { path: 'a.ts', name: 'other', role: 'ref', kind: 'call', line: 5, endLine: 5 },
    ]) }]]);
    const text = encodeCache(good);
    expect(decodeCache(text)).toEqual(good);
    const [header, names, entryLine] = text.split('\n');
    const line = JSON.parse(entryLine ?? '') as unknown[];
    const withData = (data: Int32Array | Buffer): string => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer);
      return [header, names, JSON.stringify([...line.slice(0, 5), bytes.toString('base64')])].join('\n');
    };
    expect(names).toBe('{"from":0,"names":["run","other"]}');
    expect(decodeCache([header, entryLine, names].join('\n'))).toBeNull(); // names used before they are read
    expect(decodeCache(text.replace('"from":0', '"from":1'))).toBeNull(); // not continuing the table
    expect(decodeCache(text.replace('"other"', '7'))).toBeNull();
    expect(decodeCache(withData(new Int32Array([0, 0, 3, 9, 2, 1, 5, 5])))).toBeNull(); // name 2 of 2
    expect(decodeCache(withData(new Int32Array([0, 0, 3, 9, 1, -1, 5, 5])))).toBeNull(); // kind -1
    expect(decodeCache(withData(Buffer.alloc(10)))).toBeNull(); // not whole tags
    expect(decodeCache(text.replace('"def:function"', '"def:"'))).toBeNull();
    expect(decodeCache(text.replace('"def:function"', '"use:function"'))).toBeNull();
    expect(decodeCache(text.replace(/"[^"]*"\]$/m, '[0,0,3,9]]'))).toBeNull(); // the old number-array form
    expect(decodeCache(text.replace(`"version":${TAG_CACHE_VERSION}`, '"version":3'))).toBeNull(); // per-file names
  });

  // Its speed is the bench's business (npm run bench, repomap warm rows); here only what comes back.
  it('round-trips 100k tags', () => {
    const tags: Tag[] = Array.from({ length: 100_000 }, (_, i) => ({
      path: `f${i % 1000}.ts`, name: `name${i}`, role: i % 3 ? 'ref' : 'def', kind: i % 2 ? 'call' : 'function', line: i, endLine: i % 3 ? i : i + 2,
    }));
    const byFile = new Map<string, Tag[]>();
    for (const tag of tags) byFile.set(tag.path, [...(byFile.get(tag.path) ?? []), tag]);
    const entries = new Map([...byFile].map(([file, fileTags]) => [file, { size: 1, mtimeMs: 2.5, hash: 'h', packed: packTags(fileTags) }]));
    const decoded = decodeCache(encodeCache(entries));
    expect(decoded?.get('f7.ts')?.packed.names).toHaveLength(100_000);
    expect(decoded?.get('f7.ts')?.packed.kinds).toEqual(entries.get('f7.ts')?.packed.kinds);
    expect(unpackTags('f7.ts', decoded?.get('f7.ts')?.packed ?? packTags([]))).toEqual(byFile.get('f7.ts'));
  });
});
