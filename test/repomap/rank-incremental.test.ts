// Incremental ranking: a ranker that keeps its file graph between rankings gives exactly what a
// ranking from scratch gives (items, ranks, map text), after random edits of a small real-ish tree,
// while rebuilding only the rows of the files whose inputs changed.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { NameTable } from '../../src/repomap/name-table.js';
import { packTags, type PackedTags } from '../../src/repomap/packed-tags.js';
import { createRanker, nthSmallest, rankDefinitions, type RankOptions } from '../../src/repomap/rank.js';
import { createRepoMap } from '../../src/repomap/repo-map.js';
import { SMALL_REPO, fileReader, generatedRepo, makeTags, writeRepo } from './map-fixture.js';

const encoder = get_encoding('o200k_base');
const countTokens = (text: string): number => encoder.encode_ordinary(text).length;
afterAll(() => encoder.free());

/** A seeded generator (mulberry32): the same edits on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The tree's files and their tags on one table, as the tag cache keeps them: an edited file gets new tags, the others keep theirs. */
function tree(files: Record<string, string>): { texts: Map<string, string>; tags: Map<string, PackedTags>; retag: (file: string) => void } {
  const table = new NameTable();
  const texts = new Map(Object.entries(files));
  const tags = new Map<string, PackedTags>();
  const retag = (file: string): void => void tags.set(file, table.adopt(packTags(makeTags(file, texts.get(file) ?? ''))));
  for (const file of texts.keys()) retag(file);
  return { texts, tags, retag };
}

type Edit = (lines: string[], pick: (n: number) => number) => string;

/** Edits a developer makes: some move only lines (same graph), some add, drop or rename names. */
const EDITS: Record<string, Edit> = {
  'blank line': (lines, pick) => (lines.splice(pick(lines.length), 0, ''), 'blank line'),
  'new call': (lines, pick) => {
    const f = pick(30);
    lines.splice(Math.max(1, lines.length - 2), 0, `  new Service${f}Manager().handle_request_${f}_${pick(6)}(${pick(9)});`);
    return 'new call';
  },
  'new function': (lines, pick) => {
    const name = `helper_function_${pick(5)}`;
    lines.push(`export function ${name}(): number {`, `  return createLogger() ? ${pick(9)} : 0;`, '}', '');
    return 'new function';
  },
  // A second definer of a name others already use: their rows change though their references do not.
  'second definer': (lines, pick) => {
    lines.push(`export function handle_request_${pick(30)}_${pick(6)}(input: number): number {`, '  return input;', '}', '');
    return 'second definer';
  },
  'helper call': (lines, pick) => (lines.push(`export const value_${pick(9)} = helper_function_${pick(5)}();`), 'helper call'),
  'deleted line': (lines, pick) => (lines.splice(pick(lines.length), 1), 'deleted line'),
  'renamed method': (lines, pick) => {
    const at = lines.findIndex((line) => /handle_request_\d+_\d+\(input/.test(line));
    if (at >= 0) lines[at] = (lines[at] ?? '').replace(/handle_request_(\d+)_(\d+)/, `handle_renamed_$1_${pick(3)}`);
    return 'renamed method';
  },
};

const REAL_ISH = { ...generatedRepo(30), ...SMALL_REPO };

describe('createRanker', () => {
  it('ranks exactly as a ranking from scratch after random edits and chat changes, rebuilding only changed rows', () => {
    const next = random(28);
    const pick = (n: number): number => Math.floor(next() * n);
    const { texts, tags, retag } = tree(REAL_ISH);
    const files = [...texts.keys()].sort();
    const ranker = createRanker();
    const chatSets = [['src/app.ts'], ['pkg/main.ts'], [], ['pkg/module_003.ts', 'src/billing/invoice.ts']];
    let reusedRanks = 0;
    let partialRows = 0;
    for (let step = 0; step < 24; step++) {
      const options: RankOptions = { chatFiles: chatSets[pick(chatSets.length)] ?? [], limit: 60 };
      const edits = 1 + pick(2);
      const kinds: string[] = [];
      for (let e = 0; e < edits; e++) {
        const file = files[pick(files.length)] ?? '';
        const lines = (texts.get(file) ?? '').split('\n');
        const kind = Object.keys(EDITS)[pick(Object.keys(EDITS).length)] ?? 'blank line';
        kinds.push(EDITS[kind]?.(lines, pick) ?? kind);
        texts.set(file, lines.join('\n'));
        retag(file);
      }
      const incremental = ranker.rank(tags, options);
      const full = rankDefinitions(new Map(tags), options);
      expect(JSON.stringify(incremental.items), `step ${step}: ${kinds.join(', ')}`).toBe(JSON.stringify(full.items));
      expect([...incremental.fileRanks]).toEqual([...full.fileRanks]);
      expect(incremental.adjacency).toEqual(full.adjacency);
      const work = ranker.lastWork();
      if (work?.ranked === false) reusedRanks++;
      if ((work?.rowsBuilt ?? 0) > 0 && (work?.rowsBuilt ?? 0) < files.length / 2) partialRows++;
    }
    // The walk met both shortcuts: ranks reused for an unchanged graph, and a few rows rebuilt.
    expect(reusedRanks).toBeGreaterThan(0);
    expect(partialRows).toBeGreaterThan(0);
  });

  it('rebuilds nothing for a line-only edit and only the touched rows for a new reference or chat set', () => {
    const { texts, tags, retag } = tree(REAL_ISH);
    const ranker = createRanker();
    const options = { chatFiles: ['src/app.ts'] };
    ranker.rank(tags, options);
    expect(ranker.lastWork()).toEqual({ indexed: true, rowsBuilt: Object.keys(REAL_ISH).length, ranked: true, stored: false });

    texts.set('pkg/module_004.ts', `\n\n${texts.get('pkg/module_004.ts') ?? ''}`);
    retag('pkg/module_004.ts');
    const moved = ranker.rank(tags, options);
    expect(ranker.lastWork()).toEqual({ indexed: true, rowsBuilt: 0, ranked: false, stored: false });
    // The moved file's definitions carry their new lines.
    const shifted = moved.items.find((item) => item.kind === 'def' && item.tag.path === 'pkg/module_004.ts');
    expect(shifted?.kind === 'def' ? shifted.tag.line : -1).toBeGreaterThanOrEqual(2);

    texts.set('src/logging/logger.ts', `${texts.get('src/logging/logger.ts') ?? ''}\nexport const other = calculateInvoiceTotal([1]);\n`);
    retag('src/logging/logger.ts');
    ranker.rank(tags, options);
    expect(ranker.lastWork()).toEqual({ indexed: true, rowsBuilt: 1, ranked: true, stored: false });

    // A new chat set: the same tags objects (no index), the rows of the files entering or leaving the chat.
    ranker.rank(tags, { chatFiles: ['pkg/main.ts'] });
    expect(ranker.lastWork()).toEqual({ indexed: false, rowsBuilt: 2, ranked: true, stored: false });
    // Back to the first chat set: its ranking is kept.
    ranker.rank(tags, options);
    expect(ranker.lastWork()).toEqual({ indexed: false, rowsBuilt: 0, ranked: false, stored: false });
  });

  it('gives each limit (budget) the items a ranking from scratch gives, from one ranking', () => {
    const { tags } = tree(REAL_ISH);
    const ranker = createRanker();
    for (const limit of [200, 40, 90, undefined, 7, 300]) {
      const options = { chatFiles: ['pkg/main.ts'], limit };
      expect(JSON.stringify(ranker.rank(tags, options).items), `limit ${limit}`).toBe(JSON.stringify(rankDefinitions(tags, options).items));
      expect(ranker.lastWork()?.ranked).toBe(limit === 200);
    }
  });

  it('renders the same map text as a map built from scratch after each of several random edits', async () => {
    const next = random(7);
    const pick = (n: number): number => Math.floor(next() * n);
    const { texts, tags, retag } = tree(REAL_ISH);
    const root = await writeRepo(REAL_ISH);
    const files = [...texts.keys()].sort();
    const deps = (): Parameters<typeof createRepoMap>[0] => ({
      listFiles: async () => files,
      collectTags: async () => new Map(tags),
      readFile: fileReader(root),
      countTokens,
      now: () => 0,
      refreshMode: 'always',
    });
    const kept = createRepoMap(deps());
    for (let step = 0; step < 6; step++) {
      const file = files[pick(files.length)] ?? '';
      const lines = (texts.get(file) ?? '').split('\n');
      EDITS[Object.keys(EDITS)[pick(Object.keys(EDITS).length)] ?? 'blank line']?.(lines, pick);
      texts.set(file, lines.join('\n'));
      await writeFile(path.join(root, file), texts.get(file) ?? '');
      retag(file);
      const request = { chatFiles: step % 2 === 0 ? ['src/app.ts'] : ['pkg/main.ts'], budget: 512 };
      const text = await kept.get(request);
      expect(text).toBe(await createRepoMap(deps()).get(request));
      expect(text.length).toBeGreaterThan(100);
    }
  });
});

describe('nthSmallest', () => {
  it('finds the same value as sorting, with ties, runs and negative zero', () => {
    const next = random(3);
    for (const size of [1, 2, 3, 10, 257, 1000]) {
      const shapes = [
        Float64Array.from({ length: size }, () => next()),
        Float64Array.from({ length: size }, () => Math.floor(next() * 4) / 4),
        Float64Array.from({ length: size }, (_, i) => i),
        Float64Array.from({ length: size }, (_, i) => size - i),
        Float64Array.from({ length: size }, (_, i) => (i % 3 === 0 ? -0 : 0)),
      ];
      for (const values of shapes) {
        const sorted = values.slice().sort();
        // As a cut (rank < cut) -0 and 0 are the same value: compare as numbers.
        for (const n of [0, size >> 1, size - 1]) expect(nthSmallest(values.slice(), n) === sorted[n]).toBe(true);
      }
    }
  });
});
