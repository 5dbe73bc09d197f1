import { MultiDirectedGraph } from 'graphology';
import { describe, expect, it } from 'vitest';
import * as pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import type { WeightedAdjacency } from '../../src/repomap/in-edges.js';
import { RANK_WEIGHTS, rankDefinitions, type RankedItem } from '../../src/repomap/rank.js';
import { NameTable } from '../../src/repomap/name-table.js';
import { packTags } from '../../src/repomap/packed-tags.js';
import type { Tag } from '../../src/repomap/tag.js';
import { SMALL_REPO, generatedRepo, tagsFor } from './map-fixture.js';

function position(items: readonly RankedItem[], path: string, name: string): number {
  return items.findIndex((item) => item.kind === 'def' && item.tag.path === path && item.tag.name === name);
}

function def(path: string, name: string, line = 0): Tag {
  return { path, name, role: 'def', kind: 'function', line, endLine: line };
}

function ref(path: string, name: string, line = 0): Tag {
  return { path, name, role: 'ref', kind: 'call', line, endLine: line };
}

/** The ranking's file graph as a graphology graph, for graphology-metrics to rank it independently. */
function fileGraphOf(files: readonly string[], adjacency: WeightedAdjacency): MultiDirectedGraph {
  const graph = new MultiDirectedGraph();
  for (const file of files) graph.addNode(file);
  for (let source = 0; source < adjacency.nodeCount; source++) {
    for (let j = adjacency.starts[source] ?? 0; j < (adjacency.starts[source + 1] ?? 0); j++) {
      graph.addEdge(files[source] ?? '', files[adjacency.targets[j] ?? 0] ?? '', { weight: adjacency.weights[j] ?? 0 });
    }
  }
  return graph;
}

type Reference = (graph: MultiDirectedGraph, options: { getEdgeWeight: string }) => Record<string, number>;
const referencePageRank = ((pagerankModule as unknown as { default: unknown }).default ?? pagerankModule) as Reference;

describe('rankDefinitions', () => {
  const tags = tagsFor(SMALL_REPO);

  it('computes file ranks that graphology-metrics agrees with on the same file graph', () => {
    const files = generatedRepo(12);
    const { fileRanks, files: nodes, adjacency } = rankDefinitions(tagsFor(files), { chatFiles: [] });
    const graph = fileGraphOf(nodes, adjacency);
    expect(graph.size).toBeGreaterThanOrEqual(12);
    const expected = referencePageRank(graph, { getEdgeWeight: 'weight' });
    for (const node of nodes) expect(Math.abs((fileRanks.get(node) ?? -1) - (expected[node] ?? 1))).toBeLessThan(1e-6);
  });

  it('ranks the file that defines what a chat file uses above an unrelated file', () => {
    const { items, fileRanks } = rankDefinitions(tags, { chatFiles: ['src/app.ts'] });
    expect(fileRanks.get('src/geometry/total-area.ts') ?? 0).toBeGreaterThan(fileRanks.get('src/logging/logger.ts') ?? 1);
    expect(fileRanks.get('src/geometry/shapes.ts') ?? 0).toBeGreaterThan(fileRanks.get('src/billing/invoice.ts') ?? 1);
    const used = position(items, 'src/geometry/total-area.ts', 'totalArea');
    expect(used).toBeGreaterThanOrEqual(0);
    expect(used).toBeLessThan(position(items, 'src/logging/logger.ts', 'Logger'));
    expect(position(items, 'src/geometry/shapes.ts', 'Circle')).toBeLessThan(position(items, 'src/billing/invoice.ts', 'calculateInvoiceTotal'));
  });

  it('leaves the chat files out and lists files without definitions by path after the definitions', () => {
    const { items } = rankDefinitions(tags, { chatFiles: ['src/app.ts'] });
    expect(items.some((item) => item.kind === 'def' && item.tag.path === 'src/app.ts')).toBe(false);
    expect(items.at(-1)).toMatchObject({ kind: 'file', path: 'README.md' });
    expect(items.filter((item) => item.kind === 'file')).toHaveLength(1);
  });

  it('pulls in a definition whose name is mentioned in the request', () => {
    const plain = rankDefinitions(tags, { chatFiles: ['src/app.ts'] }).items;
    const asked = rankDefinitions(tags, { chatFiles: ['src/app.ts'], mentionedIdents: ['calculateInvoiceTotal'] }).items;
    const before = position(plain, 'src/billing/invoice.ts', 'calculateInvoiceTotal');
    const after = position(asked, 'src/billing/invoice.ts', 'calculateInvoiceTotal');
    expect(after).toBeLessThan(before);
    expect(after).toBeLessThan(3);
  });

  it('personalizes files whose stem matches a mentioned identifier or that are named', () => {
    const plain = rankDefinitions(tags, { chatFiles: ['src/app.ts'] }).fileRanks;
    const byStem = rankDefinitions(tags, { chatFiles: ['src/app.ts'], mentionedIdents: ['Logger'] }).fileRanks;
    const byName = rankDefinitions(tags, { chatFiles: ['src/app.ts'], mentionedFiles: ['src/billing/invoice.ts'] }).fileRanks;
    expect(byStem.get('src/logging/logger.ts') ?? 0).toBeGreaterThan((plain.get('src/logging/logger.ts') ?? 0) * 10);
    expect(byName.get('src/billing/invoice.ts') ?? 0).toBeGreaterThan(0.05);
    expect(plain.get('src/billing/invoice.ts') ?? 1).toBeLessThan(0.01);
  });

  it('discounts private names and names defined in many files', () => {
    const files = new Map<string, Tag[]>([
      ['chat.ts', [ref('chat.ts', '_cache'), ref('chat.ts', 'cache2'), ref('chat.ts', 'init'), ref('chat.ts', 'render')]],
      ['a.ts', [def('a.ts', '_cache')]],
      ['b.ts', [def('b.ts', 'cache2')]],
      ['r.ts', [def('r.ts', 'render')]],
      ...Array.from({ length: 6 }, (_, i): [string, Tag[]] => [`i${i}.ts`, [def(`i${i}.ts`, 'init')]]),
    ]);
    const { items } = rankDefinitions(files, { chatFiles: ['chat.ts'] });
    const rankOf = (path: string, name: string): number => {
      const found = items.find((item) => item.kind === 'def' && item.tag.path === path && item.tag.name === name);
      return found?.rank ?? -1;
    };
    expect(rankOf('b.ts', 'cache2')).toBeGreaterThan(rankOf('a.ts', '_cache') * 5);
    expect(rankOf('r.ts', 'render')).toBeGreaterThan(rankOf('i0.ts', 'init') * 5);
  });

  it('favours long descriptive names over short ones', () => {
    const files = new Map<string, Tag[]>([
      ['chat.py', [ref('chat.py', 'load_user_profile'), ref('chat.py', 'load')]],
      ['a.py', [def('a.py', 'load_user_profile')]],
      ['b.py', [def('b.py', 'load')]],
    ]);
    const { items } = rankDefinitions(files, { chatFiles: ['chat.py'] });
    expect(items[0]).toMatchObject({ kind: 'def', tag: { name: 'load_user_profile' } });
  });

  it('ranks tags on one shared table of names as it ranks tag objects, mentions included', () => {
    const table = new NameTable(['zzz_unused']);
    const shared = new Map([...tags].map(([file, fileTags]) => [file, table.adopt(packTags(fileTags))]));
    for (const options of [
      { chatFiles: ['src/app.ts'], mentionedIdents: ['calculateInvoiceTotal', 'Logger', 'zzz_unused', 'absent'] },
      { chatFiles: [], mentionedFiles: ['src/billing/invoice.ts'] },
    ]) {
      const plain = rankDefinitions(tags, options);
      const packed = rankDefinitions(shared, options);
      expect(JSON.stringify(packed.items)).toBe(JSON.stringify(plain.items));
      expect([...packed.fileRanks]).toEqual([...plain.fileRanks]);
    }
  });

  it('is deterministic whatever the order of files and handles empty input', () => {
    const reversed = new Map([...tags.entries()].reverse());
    const a = rankDefinitions(tags, { chatFiles: ['src/app.ts'] }).items;
    const b = rankDefinitions(reversed, { chatFiles: ['src/app.ts'] }).items;
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(rankDefinitions(new Map(), { chatFiles: [] }).items).toEqual([]);
  });

  it('keeps one definition per name and line of a file, and every line a name is defined at', () => {
    const twice = (line: number): Tag[] => [def('a.py', '__init__', line), { ...def('a.py', '__init__', line), kind: 'method' }];
    const files = new Map<string, Tag[]>([
      ['a.py', [def('a.py', 'Shape', 1), ...twice(2), def('a.py', 'Circle', 5), ...twice(6), ...twice(2), def('a.py', 'Shape', 9)]],
      ['b.py', [ref('b.py', '__init__'), ref('b.py', 'Shape'), ref('b.py', 'Circle')]],
    ]);
    const shown = rankDefinitions(files, { chatFiles: ['b.py'] }).items.flatMap((item) => (item.kind === 'def' ? [`${item.tag.name}:${item.tag.line}`] : []));
    expect(shown.sort()).toEqual(['Circle:5', 'Shape:1', 'Shape:9', '__init__:2', '__init__:6']);
  });

  it('ranks packed tags exactly as tag objects, edges summed per target and in target order', () => {
    const files = new Map<string, Tag[]>();
    for (let i = 0; i < 40; i++) files.set(`m${String(i).padStart(2, '0')}.ts`, [def(`m${String(i).padStart(2, '0')}.ts`, `helper_${i}`)]);
    // The hub reaches most files (its row is swept), the leaf one file twice (its few targets are sorted).
    files.set('hub.ts', Array.from({ length: 39 }, (_, i) => ref('hub.ts', `helper_${39 - i}`, i)));
    files.set('leaf.ts', [ref('leaf.ts', 'helper_7', 0), ref('leaf.ts', 'helper_7', 1), def('leaf.ts', 'helper_7', 2)]);
    const plain = rankDefinitions(files, { chatFiles: [] });
    const packed = rankDefinitions(new Map([...files].map(([file, tags]) => [file, packTags(tags)])), { chatFiles: [] });
    expect(JSON.stringify(packed.items)).toBe(JSON.stringify(plain.items));
    expect(packed.adjacency).toEqual(plain.adjacency);
    // As the tag cache hands them over: one table of names, in another order, with names no file uses.
    const table = new NameTable(['unused', 'helper_7', 'other']);
    const shared = rankDefinitions(new Map([...files].map(([file, tags]) => [file, table.adopt(packTags(tags))])), { chatFiles: [] });
    expect(JSON.stringify(shared.items)).toBe(JSON.stringify(plain.items));
    expect(shared.adjacency).toEqual(plain.adjacency);

    const edgesOf = (file: string): { target: string; weight: number }[] => {
      const { starts, targets, weights } = plain.adjacency;
      const id = plain.files.indexOf(file);
      return Array.from({ length: (starts[id + 1] ?? 0) - (starts[id] ?? 0) }, (_, k) => ({
        target: plain.files[targets[(starts[id] ?? 0) + k] ?? 0] ?? '',
        weight: weights[(starts[id] ?? 0) + k] ?? 0,
      }));
    };
    const hub = edgesOf('hub.ts');
    expect(hub.map((e) => e.target)).toEqual([...files.keys()].filter((f) => f !== 'm00.ts' && f !== 'hub.ts').sort());
    const leaf = edgesOf('leaf.ts');
    expect(leaf.map((e) => e.target)).toEqual(['leaf.ts', 'm07.ts']);
    // Two references to a descriptive name: sqrt(2) times its multiplier towards each definer.
    expect(leaf[1]?.weight).toBeCloseTo(RANK_WEIGHTS.descriptiveName * Math.sqrt(2));
    expect(leaf[0]?.weight).toBeCloseTo(RANK_WEIGHTS.descriptiveName * Math.sqrt(2));
  });
});

describe('ranking with a limit', () => {
  it('gives exactly the first items of the unlimited ranking', async () => {
    const { generatedRepo, tagsFor } = await import('./map-fixture.js');
    const tags = tagsFor(generatedRepo(60));
    const all = rankDefinitions(tags, { chatFiles: ['pkg/main.ts'] }).items.filter((item) => item.kind === 'def');
    for (const limit of [1, 7, 50, 200]) {
      const some = rankDefinitions(tags, { chatFiles: ['pkg/main.ts'], limit }).items.filter((item) => item.kind === 'def');
      expect(some).toEqual(all.slice(0, limit));
    }
    expect(all.length).toBeGreaterThan(400);
  });

  it('cuts exactly where the unlimited ranking does when few or many definitions rank above 0', async () => {
    const { generatedRepo, tagsFor } = await import('./map-fixture.js');
    const tags = tagsFor(generatedRepo(60));
    // A definition nobody references: rank 0; one that is referenced: above 0.
    const unreferenced = new Map([...tags].map(([path, list]) => [path, [...list, def(path, `orphan_${path.replace(/\W/g, '_')}`, 900)]]));
    const all = rankDefinitions(unreferenced, { chatFiles: ['pkg/main.ts'] }).items.filter((item) => item.kind === 'def');
    const positive = all.filter((item) => item.rank > 0).length;
    expect(positive).toBeGreaterThan(10);
    expect(all.length - positive).toBeGreaterThan(50);
    for (const limit of [3, positive - 1, positive, positive + 5]) {
      const some = rankDefinitions(unreferenced, { chatFiles: ['pkg/main.ts'], limit }).items.filter((item) => item.kind === 'def');
      expect(some).toEqual(all.slice(0, limit));
    }
  });
});
