// The ranker's graph on disk (.tandem/rank.graph): it round-trips, and a planted, torn or foreign
// file reads as absent, so the ranking then builds every row (the map stays what a full rank gives).
import { mkdir, mkdtemp, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStateReader } from '../../src/platform/state-files.js';
import { createGraphStore, decodeGraph, encodeGraph, rankGraphPath, type GraphSnapshot } from '../../src/repomap/rank-store.js';
import { createRanker, rankDefinitions } from '../../src/repomap/rank.js';
import { makeTags, SMALL_REPO } from './map-fixture.js';

const TAGS = new Map(Object.entries(SMALL_REPO).map(([file, text]) => [file, makeTags(file, text)]));

/** A root whose store holds the graph of SMALL_REPO, written the way a ranking writes it. */
async function storedRoot(): Promise<{ root: string; file: string; bytes: Buffer }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-rank-store-'));
  const store = createGraphStore(root);
  createRanker(store).rank(TAGS, { chatFiles: [] });
  await store.flush();
  const file = rankGraphPath(root);
  return { root, file, bytes: await readFile(file) };
}

/** Rows a new process builds with this root's store: fewer than all means the store was used. */
async function rowsBuilt(root: string, reader = createStateReader(root)): Promise<number> {
  const store = createGraphStore(root, reader);
  const ranker = createRanker(store);
  const options = { chatFiles: ['src/app.ts'] };
  expect(JSON.stringify(ranker.rank(TAGS, options).items)).toBe(JSON.stringify(rankDefinitions(TAGS, options).items));
  // A ranking that built plain rows writes the graph back: wait for it before the next change.
  await store.flush();
  return ranker.lastWork()?.rowsBuilt ?? -1;
}

describe('graph store', () => {
  it('reads back what it wrote, and a new process builds only its chat row from it', async () => {
    const { root, bytes } = await storedRoot();
    const snapshot = decodeGraph(bytes) as GraphSnapshot;
    expect(snapshot.adjacency.nodeCount).toBe(TAGS.size);
    expect(Buffer.from(encodeGraph(snapshot)).equals(bytes)).toBe(true);
    // Bytes at an offset no Float64Array can start at (a Buffer from the pool) decode the same.
    const odd = Buffer.alloc(bytes.length + 1);
    bytes.copy(odd, 1);
    expect(decodeGraph(odd.subarray(1))).toEqual(snapshot);
    expect(await rowsBuilt(root)).toBe(1);
  });

  it('reads a torn, foreign or out-of-range file as absent', async () => {
    const { root, file, bytes } = await storedRoot();
    const corrupt = async (change: (copy: Buffer) => Buffer): Promise<number> => {
      await writeFile(file, change(Buffer.from(bytes)));
      expect(createGraphStore(root).load()).toBeUndefined();
      return rowsBuilt(root);
    };
    expect(await corrupt((copy) => copy.subarray(0, copy.length - 4))).toBe(TAGS.size);
    expect(await corrupt((copy) => (copy.writeUInt32LE(99, 4), copy))).toBe(TAGS.size);
    expect(await corrupt((copy) => (copy.write('JUNK', 0), copy))).toBe(TAGS.size);
    expect(await corrupt(() => Buffer.from('{"format":"tandem-maps"}'))).toBe(TAGS.size);
    // An edge to a file that does not exist (the last target word).
    const edges = bytes.readUInt32LE(12);
    const n = bytes.readUInt32LE(8);
    const defs = bytes.readUInt32LE(24);
    const lastTarget = bytes.length - defs * 8 - (n + 1) * 4 - 4;
    expect(edges).toBeGreaterThan(0);
    expect(await corrupt((copy) => (copy.writeInt32LE(n + 5, lastTarget), copy))).toBe(TAGS.size);
    // A negative weight (the first weight).
    expect(await corrupt((copy) => (copy.writeDoubleLE(-1, 32), copy))).toBe(TAGS.size);
    await truncate(file, 0);
    expect(await rowsBuilt(root)).toBe(TAGS.size);
  });

  it('ignores a planted link, a folder in its place, and a file git tracks', async () => {
    const { root, file, bytes } = await storedRoot();
    const elsewhere = path.join(root, 'elsewhere.graph');
    await writeFile(elsewhere, bytes);
    await rm(file);
    await symlink(elsewhere, file);
    expect(await rowsBuilt(root)).toBe(TAGS.size);
    await rm(file);
    await mkdir(file);
    expect(await rowsBuilt(root)).toBe(TAGS.size);
    await rm(file, { recursive: true });
    await writeFile(file, bytes);
    expect(await rowsBuilt(root)).toBe(1);
    expect(await rowsBuilt(root, createStateReader(root, { tracked: new Set(['.tandem/rank.graph']) }))).toBe(TAGS.size);
  });
});
