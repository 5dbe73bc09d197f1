// Tags looked up by the blob ids git's index holds for files its status found unchanged: a second
// clone reads and hashes none of its clean files, the map stays the same, and whatever git does not
// vouch for (changed, untracked, skip-worktree, converted, changed after the status) is read and hashed.
import { rename, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRepoMapPort } from '../../src/cli/repo-map-adapter.js';
import { cleanBlobIds, RequestListing, type CleanBlobs } from '../../src/git/repo-listing.js';
import { parseIndexListing } from '../../src/git/ls-files.js';
import { parseStatusV2 } from '../../src/git/status.js';
import { collectTags, type CollectTagsStats } from '../../src/repomap/collect-tags.js';
import { findQueriesDir } from '../../src/repomap/extract-tags.js';
import { createMapSource } from '../../src/repomap/map-source.js';
import { packTags, unpackTags } from '../../src/repomap/packed-tags.js';
import { blobId, createSharedTags, tagsVersion, type SharedTags } from '../../src/repomap/shared-tags.js';
import { loadTagCache } from '../../src/repomap/tag-cache.js';
import { createTagsPool } from '../../src/repomap/tags-pool.js';
import { nodeFileSystem } from '../../src/platform/file-system.js';
import { createTagStore } from '../../src/platform/tag-store.js';
import { makeFixture, userCommit, type Fixture } from '../git/git-fixture.js';
import { tempDir } from '../support/temp-repo.js';

const fixtures: Fixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fx) => fx.cleanup()));
});


const queriesDir = findQueriesDir(import.meta.url);
const packageRoot = path.dirname(queriesDir);
const pool = createTagsPool({ queriesDir, threads: 0 });
/** The version the CLI's adapter keys its entries by, so the maps below and the counted lookups share entries. */
const VERSION = tagsVersion(queriesDir);

const FILES: Record<string, string> = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [
  `pkg/m${i}.py`, `def f${i}(x):\n    return f${(i + 1) % 8}(x)\n\nclass C${i}:\n    def run(self):\n        return f${i}(1)\n`,
]));

/** The user's shared cache, counting its lookups by an index id (with a size) and by a hash of read bytes. */
function countingShared(dir: string): { shared: SharedTags; byIndex: () => number; byRead: () => number } {
  const inner = createSharedTags(createTagStore({ dir }), VERSION);
  let byIndex = 0;
  let byRead = 0;
  const shared: SharedTags = {
    get(lang, blob, size) {
      if (size === undefined) byRead++;
      else byIndex++;
      return inner.get(lang, blob, size);
    },
    put: (lang, blob, packed, size) => inner.put(lang, blob, packed, size),
    flush: () => inner.flush(),
  };
  return { shared, byIndex: () => byIndex, byRead: () => byRead };
}

/** A committed repository holding FILES (a clone): its work tree clean. */
async function committedRepo(files: Record<string, string> = FILES): Promise<Fixture> {
  const fx = await makeFixture();
  fixtures.push(fx);
  await userCommit(fx, files);
  return fx;
}

async function collect(root: string, shared: SharedTags, blobs?: ReadonlyMap<string, string>) {
  const stats: CollectTagsStats = { files: 0, hits: 0, parsed: 0, failed: 0 };
  const tags = await collectTags(root, Object.keys(FILES).sort(), { pool, cache: await loadTagCache(root), shared, ...(blobs ? { blobs } : {}) }, stats);
  await shared.flush();
  return { stats, tags: new Map([...tags].map(([file, packed]) => [file, unpackTags(file, packed)])) };
}

describe('clean blob ids from the listing', () => {
  it('keeps only tracked regular files at stage 0 that git compares and found unchanged, with SHA-1 ids', () => {
    const id = (c: string): string => c.repeat(40);
    const index = parseIndexListing([
      `H 100644 ${id('a')} 0\tclean.py`,
      `H 100755 ${id('b')} 0\tscript.py`,
      `H 100644 ${id('c')} 0\tedited.py`,
      `H 100644 ${id('d')} 0\tstaged.py`,
      `S 100644 ${id('e')} 0\tskipped.py`,
      `h 100644 ${id('f')} 0\tassumed.py`,
      `H 120000 ${id('1')} 0\tlink.py`,
      `H 160000 ${id('2')} 0\tsubmodule`,
      `H 100644 ${'3'.repeat(64)} 0\tsha256.py`,
      `M 100644 ${id('4')} 1\tconflict.py`,
      `M 100644 ${id('5')} 2\tconflict.py`,
      '',
    ].join('\0'));
    expect(index[0]).toEqual({ tag: 'H', mode: '100644', object: id('a'), stage: 0, path: 'clean.py' });
    const status = parseStatusV2([
      `1 .M N... 100644 100644 100644 ${id('c')} ${id('c')} edited.py`,
      `1 M. N... 100644 100644 100644 ${id('9')} ${id('d')} staged.py`,
      'u UU N... 100644 100644 100644 100644 x y z conflict.py',
      '? new.py',
      '',
    ].join('\0')).entries;
    expect(cleanBlobIds({ index, status })).toEqual(new Map([['clean.py', id('a')], ['script.py', id('b')]]));
  });

  it('do not vouch for a file whose stat the repository\'s config tells git to half-trust (a planted index)', async () => {
    const fx = await makeFixture();
    fixtures.push(fx);
    const file = path.join(fx.root, 'a.py');
    const old = new Date(Date.now() - 100_000);
    await userCommit(fx, { 'a.py': 'def alpha():\n    pass\n' });
    await utimes(file, old, old);
    await fx.git('add', 'a.py');
    await fx.git('config', 'core.checkStat', 'minimal');
    await fx.git('config', 'core.trustCtime', 'false');
    // Other bytes of the same size in a new inode (as a tarball's files are), the mtime put back: with
    // the repository's settings git trusts the stat, though it is not the stat the index recorded.
    await writeFile(`${file}.new`, 'def omega():\n    pass\n');
    await utimes(`${file}.new`, old, old);
    await rename(`${file}.new`, file);
    expect(await fx.git('status', '--porcelain')).toBe('');
    const clean = await new RequestListing(fx.root, { env: fx.env }).cleanBlobs();
    expect(clean?.ids.has('a.py')).toBe(false);
  });

  it('are the blob ids of the files\' bytes in a clean checkout, and none for changed or untracked files', async () => {
    const fx = await committedRepo();
    await writeFile(path.join(fx.root, 'pkg/m1.py'), 'def changed():\n    pass\n');
    await writeFile(path.join(fx.root, 'new.py'), 'def new():\n    pass\n');
    const clean = await new RequestListing(fx.root, { env: fx.env }).cleanBlobs();
    const expected = Object.entries(FILES).filter(([file]) => file !== 'pkg/m1.py').map(([file, text]) => [file, blobId(Buffer.from(text))] as const);
    expect(new Map([...clean?.ids ?? []].sort())).toEqual(new Map(expected.sort()));
  });
});

describe('tags by the index\'s blob ids', () => {
  it('let a second clone read and hash none of its clean files, with the same tags', async () => {
    const store = await tempDir('tandem-index-store-');
    const first = await committedRepo();
    const cold = await collect(first.root, countingShared(store).shared);
    expect(cold.stats).toMatchObject({ files: 8, parsed: 8 });

    const second = await committedRepo();
    const blobs = (await new RequestListing(second.root, { env: second.env }).cleanBlobs())?.ids;
    const counted = countingShared(store);
    const clone = await collect(second.root, counted.shared, blobs);
    expect(clone.stats).toMatchObject({ files: 8, hits: 8, sharedHits: 8, parsed: 0 });
    expect(clone.stats.hashed ?? 0).toBe(0);
    expect(counted.byIndex()).toBe(8);
    expect(counted.byRead()).toBe(0);
    expect(clone.tags).toEqual(cold.tags);

    // Without the ids every file is read and hashed: eight reads the index saved.
    const third = await committedRepo();
    const read = await collect(third.root, countingShared(store).shared);
    expect(read.stats).toMatchObject({ sharedHits: 8, hashed: 8 });
  });

  it('refresh a touched file of the repository\'s own cache by its id, with no read (a reset or checkout)', async () => {
    const store = await tempDir('tandem-index-store-');
    const fx = await committedRepo();
    const { shared } = countingShared(store);
    await collect(fx.root, shared);
    // The file is rewritten with the same content (git reset --hard, a checkout): only its mtime moved.
    await writeFile(path.join(fx.root, 'pkg/m3.py'), FILES['pkg/m3.py'] ?? '');
    const blobs = (await new RequestListing(fx.root, { env: fx.env }).cleanBlobs())?.ids;
    expect(blobs?.has('pkg/m3.py')).toBe(true);
    const counted = countingShared(store);
    const after = await collect(fx.root, counted.shared, blobs);
    expect(after.stats).toMatchObject({ files: 8, hits: 8, sharedHits: 0, parsed: 0 });
    expect(after.stats.hashed ?? 0).toBe(0);
    expect(counted.byIndex() + counted.byRead()).toBe(0);
  });

  it('are not trusted when the file\'s size differs from the content the tags were made from (eol or filter conversion)', async () => {
    const store = await tempDir('tandem-index-store-');
    const root = await tempDir('tandem-index-crlf-');
    const lf = FILES['pkg/m0.py'] ?? '';
    const crlf = lf.replace(/\n/g, '\r\n');
    const { shared } = countingShared(store);
    // The index holds the LF content (whose tags the shared cache has); the work tree holds CRLF.
    await writeFile(path.join(root, 'lf.py'), lf);
    await collectTags(root, ['lf.py'], { pool, shared });
    await shared.flush();
    await writeFile(path.join(root, 'a.py'), crlf);
    const counted = countingShared(store);
    const stats: CollectTagsStats = { files: 0, hits: 0, parsed: 0, failed: 0 };
    await collectTags(root, ['a.py'], { pool, shared: counted.shared, blobs: new Map([['a.py', blobId(Buffer.from(lf))]]) }, stats);
    // The id found an entry of another size: the bytes were read, hashed and (unknown) parsed.
    expect(stats).toMatchObject({ hashed: 1, parsed: 1 });
    expect(counted.byIndex()).toBe(1);
    expect(counted.byRead()).toBe(1);
  });

  it('give an entry stored without its size (an older tandem\'s) its size, so the next lookup needs no read', async () => {
    const store = await tempDir('tandem-index-store-');
    const root = await tempDir('tandem-index-old-');
    const text = FILES['pkg/m0.py'] ?? '';
    await writeFile(path.join(root, 'a.py'), text);
    const old = createSharedTags(createTagStore({ dir: store }), VERSION);
    old.put('python', blobId(Buffer.from(text)), (await collectTags(root, ['a.py'], { pool })).get('a.py') ?? packTags([]));
    await old.flush();
    const blobs = new Map([['a.py', blobId(Buffer.from(text))]]);
    const once = async (): Promise<CollectTagsStats> => {
      const stats: CollectTagsStats = { files: 0, hits: 0, parsed: 0, failed: 0 };
      const shared = createSharedTags(createTagStore({ dir: store }), VERSION);
      await collectTags(root, ['a.py'], { pool, shared, blobs }, stats);
      await shared.flush();
      return stats;
    };
    expect(await once()).toMatchObject({ sharedHits: 1, hashed: 1, parsed: 0 });
    expect(await once()).toMatchObject({ sharedHits: 1, parsed: 0 });
    expect((await once()).hashed ?? 0).toBe(0);
  });
});

describe('the map with the request listing\'s blob ids', () => {
  const tokens = { count: (text: string) => Math.ceil(text.length / 4) };
  const mapOf = async (root: string, store: string, cleanBlobs?: () => Promise<CleanBlobs | null>): Promise<string> => {
    const port = createRepoMapPort({ root, packageRoot, tokens, refreshMode: 'always', emit: () => {}, threads: 0, tagCacheDir: store, ...(cleanBlobs ? { cleanBlobs } : {}) });
    const text = await port.get({ chatFiles: ['pkg/m0.py'], readOnlyFiles: [], requestText: '', budget: 1024 });
    await port.flush();
    return text;
  };

  it('renders a second clone\'s map as the first clone\'s, reading only what git does not vouch for', async () => {
    const store = await tempDir('tandem-index-store-');
    const first = await committedRepo();
    const before = await mapOf(first.root, store);
    expect(before).toContain('class C1');

    const second = await committedRepo();
    // Changed after the commit: read and hashed (the status names it).
    await writeFile(path.join(second.root, 'pkg/m5.py'), `${FILES['pkg/m5.py'] ?? ''}\n`);
    const listing = new RequestListing(second.root, { env: second.env });
    const seen: CleanBlobs[] = [];
    const cleanBlobs = async (): Promise<CleanBlobs | null> => {
      const clean = await listing.cleanBlobs();
      if (clean) seen.push(clean);
      return clean;
    };
    expect(await mapOf(second.root, store, cleanBlobs)).toBe(before);
    expect(seen.map((clean) => clean.ids.size)).toEqual([7]);
  });

  it('does not trust an id of a file changed at or after the status ran', async () => {
    const store = await tempDir('tandem-index-store-');
    const first = await committedRepo();
    await mapOf(first.root, store);
    const second = await committedRepo();
    const listing = new RequestListing(second.root, { env: second.env });
    // A status as old as the epoch: every file's change time is after it.
    const stale = async (): Promise<CleanBlobs | null> => {
      const clean = await listing.cleanBlobs();
      return clean && { ...clean, takenAt: 0 };
    };
    const counted = countingShared(store);
    const source = createMapSource(second.root, { pool, shared: counted.shared, cleanBlobs: stale });
    await source.collectTags(await source.listFiles());
    await source.flush();
    expect(counted.byIndex()).toBe(0);
    expect(counted.byRead()).toBeGreaterThanOrEqual(8);
  });

  it('looks a second clone up by id alone, once per file, and reads no file head but a generated file\'s', async () => {
    const store = await tempDir('tandem-index-store-');
    const withGenerated = { ...FILES, 'gen.py': '# @generated by a tool\ndef made():\n    pass\n' };
    const first = await committedRepo(withGenerated);
    await mapOf(first.root, store);
    const second = await committedRepo(withGenerated);
    const listing = new RequestListing(second.root, { env: second.env });
    // As the request would be a second later: the files' change times are then clearly before it.
    const later = async (): Promise<CleanBlobs | null> => {
      const clean = await listing.cleanBlobs();
      return clean && { ...clean, takenAt: clean.takenAt + 1000 };
    };
    const counted = countingShared(store);
    const source = createMapSource(second.root, { pool, shared: counted.shared, cleanBlobs: later, listOptions: { listFiles: () => listing.files() } });
    const spy = vi.spyOn(nodeFileSystem, 'readHeadSync');
    const listed = await source.listFiles();
    const heads = spy.mock.calls.filter(([file]) => file.startsWith(second.root));
    spy.mockRestore();
    expect(listed).toHaveLength(8);
    const tags = await source.collectTags(listed);
    await source.flush();
    expect(tags.size).toBe(8);
    expect(counted.byRead()).toBe(0);
    // Each file looked up once, while listing (eight found: no head check), the collection taking those found.
    expect(counted.byIndex()).toBe(9);
    // The generated file has no tags anywhere, so its head is read, and it stays out of the map.
    expect(heads.map(([file]) => path.relative(second.root, file))).toEqual(['gen.py']);
  });
});
