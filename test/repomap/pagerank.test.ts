import { describe, expect, it } from 'vitest';
import { MultiDirectedGraph } from 'graphology';
import * as pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { pageRankAdjacency, personalizedPageRank } from '../../src/repomap/pagerank.js';
import { edgeShares, inEdgesOf, type WeightedAdjacency } from '../../src/repomap/in-edges.js';
import { assemble, assembledFrom, buildAssembled, flattened, overlaid, rowScratch, type EdgeRow } from '../../src/repomap/rank-graph.js';
import { indexTags } from '../../src/repomap/name-index.js';
import { NameTable } from '../../src/repomap/name-table.js';
import { packTags } from '../../src/repomap/packed-tags.js';
import { generatedRepo, makeTags } from './map-fixture.js';

type Reference = (graph: MultiDirectedGraph, options: { getEdgeWeight: string }) => Record<string, number>;
// The CommonJS default export types as a namespace under NodeNext; unwrap it once here.
const referencePageRank = ((pagerankModule as unknown as { default: unknown }).default ?? pagerankModule) as Reference;

function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function randomGraph(seed: number, nodes: number, edges: number): MultiDirectedGraph {
  const random = seededRandom(seed);
  const graph = new MultiDirectedGraph();
  for (let i = 0; i < nodes; i++) graph.addNode(`n${i}`);
  for (let i = 0; i < edges; i++) {
    const source = `n${Math.floor(random() * nodes)}`;
    const target = `n${Math.floor(random() * nodes)}`;
    graph.addEdge(source, target, { weight: 0.1 + random() * 5 });
  }
  return graph;
}

describe('personalizedPageRank', () => {
  it('agrees with graphology-metrics pagerank for a uniform vector', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const graph = randomGraph(seed, 40, 120);
      const expected = referencePageRank(graph, { getEdgeWeight: 'weight' });
      const { ranks, converged } = personalizedPageRank(graph);
      expect(converged).toBe(true);
      for (const node of graph.nodes()) {
        expect(Math.abs((ranks.get(node) ?? -1) - (expected[node] ?? 1))).toBeLessThan(1e-6);
      }
    }
  });

  it('sums to one and favours the personalized node', () => {
    const graph = randomGraph(7, 20, 60);
    const uniform = personalizedPageRank(graph).ranks;
    const personal = personalizedPageRank(graph, { personalization: new Map([['n3', 1]]) }).ranks;
    const sum = [...personal.values()].reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 9);
    expect(personal.get('n3') ?? 0).toBeGreaterThan(uniform.get('n3') ?? 1);
  });

  it('sends dangling mass to the personalization vector', () => {
    // a -> b, b dangles; all teleport goes to a.
    const graph = new MultiDirectedGraph();
    graph.addNode('a');
    graph.addNode('b');
    graph.addEdge('a', 'b', { weight: 1 });
    const { ranks } = personalizedPageRank(graph, { personalization: new Map([['a', 1]]) });
    // Stationary: a = 1 * 1 (all jump mass), b = 0.85 a, normalized: a = 1/1.85.
    expect(ranks.get('a') ?? 0).toBeCloseTo(1 / 1.85, 6);
    expect(ranks.get('b') ?? 0).toBeCloseTo(0.85 / 1.85, 6);
  });

  it('guards an empty graph and zero-weight out-edges', () => {
    expect(personalizedPageRank(new MultiDirectedGraph()).ranks.size).toBe(0);
    const graph = new MultiDirectedGraph();
    graph.addNode('a');
    graph.addNode('b');
    graph.addEdge('a', 'b', { weight: 0 });
    graph.addEdge('a', 'a', { weight: 0 });
    const { ranks, converged } = personalizedPageRank(graph);
    expect(converged).toBe(true);
    expect(ranks.get('a')).toBeCloseTo(0.5, 9);
    expect(ranks.get('b')).toBeCloseTo(0.5, 9);
  });

  it('sums parallel edges like one heavier edge', () => {
    const multi = new MultiDirectedGraph();
    const single = new MultiDirectedGraph();
    for (const g of [multi, single]) ['a', 'b', 'c'].forEach((n) => g.addNode(n));
    multi.addEdge('a', 'b', { weight: 1 });
    multi.addEdge('a', 'b', { weight: 2 });
    multi.addEdge('a', 'c', { weight: 1 });
    single.addEdge('a', 'b', { weight: 3 });
    single.addEdge('a', 'c', { weight: 1 });
    const left = personalizedPageRank(multi).ranks;
    const right = personalizedPageRank(single).ranks;
    for (const n of ['a', 'b', 'c']) expect(left.get(n)).toBeCloseTo(right.get(n) ?? -1, 12);
  });
});

describe('pageRankAdjacency with rows standing in', () => {
  it('ranks a base graph with overlaid rows exactly as the one adjacency of the same rows', () => {
    // Node 1's row is replaced by a heavier one with other targets; node 3 becomes dangling; node 2, dangling in the base, gets edges.
    const baseRows: EdgeRow[] = [
      { targets: Int32Array.of(1, 2), weights: Float64Array.of(1, 3) },
      { targets: Int32Array.of(0), weights: Float64Array.of(2) },
      { targets: Int32Array.of(), weights: Float64Array.of() },
      { targets: Int32Array.of(0, 1, 2), weights: Float64Array.of(0.1, 0.7, 5) },
    ];
    const base = assembledFrom(assemble(baseRows));
    const rows = [...base.rows];
    rows[1] = { targets: Int32Array.of(0, 2, 3), weights: Float64Array.of(50, 25, 0.3) };
    rows[2] = { targets: Int32Array.of(3), weights: Float64Array.of(1) };
    rows[3] = { targets: Int32Array.of(0), weights: Float64Array.of(0) };
    const graph = overlaid(base, rows);
    if (graph === null) throw new Error('no overlay');
    const personalization = Float64Array.of(0, 1, 0, 0);
    const overlaidRanks = pageRankAdjacency(base.adjacency, { personalization, inEdges: base.inEdges, dangling: graph.dangling, overrides: graph.overrides });
    const whole = pageRankAdjacency(assemble(rows), { personalization });
    expect([...graph.dangling]).toEqual([3]);
    expect(flattened(graph)).toEqual(assemble(rows));
    expect(overlaidRanks.iterations).toBe(whole.iterations);
    expect([...overlaidRanks.ranks]).toEqual([...whole.ranks]);
  });
});

/**
 * The power iteration as it was written before it pulled from in-edges: each node pushes its rank
 * along its out-edges in node order. The pulling one must give the very same numbers.
 */
function pushedRanks(adjacency: WeightedAdjacency, personalization: Float64Array): Float64Array {
  const count = adjacency.nodeCount;
  const { shares, dangling } = edgeShares(adjacency);
  let teleportSum = 0;
  for (const value of personalization) teleportSum += value > 0 ? value : 0;
  const teleport = personalization.map((value) => (teleportSum === 0 ? 1 / count : (value > 0 ? value : 0) / teleportSum));
  let current = new Float64Array(count).fill(1 / count);
  let next = new Float64Array(count);
  for (let iteration = 0; iteration < 100; iteration++) {
    let danglingMass = 0;
    for (const i of dangling) danglingMass += current[i] ?? 0;
    const jump = 0.85 * danglingMass + (1 - 0.85);
    for (let i = 0; i < count; i++) next[i] = jump * (teleport[i] ?? 0);
    for (let i = 0; i < count; i++) {
      const flow = 0.85 * (current[i] ?? 0);
      for (let j = adjacency.starts[i] ?? 0; j < (adjacency.starts[i + 1] ?? 0); j++) {
        const target = adjacency.targets[j] ?? 0;
        next[target] = (next[target] ?? 0) + flow * (shares[j] ?? 0);
      }
    }
    let error = 0;
    for (let i = 0; i < count; i++) error += Math.abs((next[i] ?? 0) - (current[i] ?? 0));
    [current, next] = [next, current];
    if (error < count * 1e-6) break;
  }
  return current;
}

function randomRows(seed: number, nodes: number, edges: number): EdgeRow[] {
  const random = seededRandom(seed);
  const rows = Array.from({ length: nodes }, () => new Map<number, number>());
  for (let i = 0; i < edges; i++) {
    const row = rows[Math.floor(random() * nodes)];
    // Some weights repeat and some are 0, as a real graph's do.
    row?.set(Math.floor(random() * nodes), random() < 0.1 ? 0 : Math.ceil(random() * 4) * 0.5);
  }
  return rows.map((row) => {
    const targets = Int32Array.from([...row.keys()].sort((a, b) => a - b));
    return { targets, weights: Float64Array.from(targets, (t) => row.get(t) ?? 0) };
  });
}

describe('pageRankAdjacency pulling from in-edges', () => {
  it('gives the ranks a push over out-edges gives, to the last bit', () => {
    for (const seed of [11, 12, 13, 14]) {
      const adjacency = assemble(randomRows(seed, 60, 400));
      const personalization = new Float64Array(60);
      personalization[seed % 60] = 1;
      expect([...pageRankAdjacency(adjacency, { personalization }).ranks]).toEqual([...pushedRanks(adjacency, personalization)]);
    }
  });

  it('numbers sources in 16 bits up to 65,536 nodes and in 32 bits past that, with the same ranks', () => {
    for (const nodes of [0x10000, 0x10001 + 5]) {
      const adjacency = assemble(randomRows(nodes, nodes, 3000));
      const personalization = new Float64Array(nodes);
      personalization[nodes - 1] = 1;
      expect(inEdgesOf(adjacency).sources).toBeInstanceOf(nodes <= 0x10000 ? Uint16Array : Int32Array);
      expect([...pageRankAdjacency(adjacency, { personalization }).ranks]).toEqual([...pushedRanks(adjacency, personalization)]);
    }
  });

  it('turns the edges around with their shares, sources ascending', () => {
    const adjacency = assemble(randomRows(21, 30, 200));
    const { starts, sources, shares } = inEdgesOf(adjacency);
    const out = edgeShares(adjacency);
    const seen: string[] = [];
    for (let t = 0; t < 30; t++) {
      for (let j = starts[t] ?? 0; j < (starts[t + 1] ?? 0); j++) seen.push(`${sources[j]}>${t}:${shares[j]}`);
      const from = [...sources.subarray(starts[t] ?? 0, starts[t + 1] ?? 0)];
      expect(from).toEqual([...from].sort((a, b) => a - b));
    }
    const expected: string[] = [];
    for (let i = 0; i < 30; i++) for (let j = adjacency.starts[i] ?? 0; j < (adjacency.starts[i + 1] ?? 0); j++) expected.push(`${i}>${adjacency.targets[j]}:${out.shares[j]}`);
    expect(seen.sort()).toEqual(expected.sort());
  });

  it('ranks overriding rows (same targets, other targets, dangling) as the one adjacency of the same rows, leaving the base as it was', () => {
    const base = assembledFrom(assemble(randomRows(31, 40, 300)));
    const before = [...base.inEdges.shares];
    const heavier = (row: EdgeRow | undefined): EdgeRow => ({ targets: row?.targets ?? new Int32Array(0), weights: (row?.weights ?? new Float64Array(0)).map((w) => w * 50) });
    const cases: EdgeRow[][] = [
      // A chat file's rows: the same targets, weights times 50 (the shares change in their last bits).
      base.rows.map((row, i) => (i % 7 === 0 ? heavier(row) : row)),
      // A row with a target its base row lacks: ranked from the rows put together.
      base.rows.map((row, i) => (i === 3 ? { targets: Int32Array.of(0, 39), weights: Float64Array.of(1, 2) } : row)),
      // A row that stops weighing anything.
      base.rows.map((row, i) => (i === 5 ? { targets: row.targets, weights: new Float64Array(row.targets.length) } : row)),
    ];
    for (const rows of cases) {
      const graph = overlaid(base, rows);
      if (graph === null) throw new Error('no overlay');
      const personalization = new Float64Array(40).fill(1);
      const ranked = pageRankAdjacency(base.adjacency, { personalization, inEdges: base.inEdges, dangling: graph.dangling, overrides: graph.overrides });
      expect([...ranked.ranks]).toEqual([...pushedRanks(assemble(rows), personalization)]);
      expect([...base.inEdges.shares]).toEqual(before);
    }
  });

  it('builds the same in-edges straight from the index as from the rows put together', () => {
    const table = new NameTable();
    const tags = new Map(Object.entries(generatedRepo(60)).map(([file, text]) => [file, table.adopt(packTags(makeTags(file, text)))]));
    const index = indexTags(tags);
    const weigh = (_file: number, name: number, count: number): number => (name % 3) + Math.sqrt(count);
    const direct = buildAssembled(index, weigh, rowScratch(index.files.length));
    expect(direct.inEdges.sources.length).toBeGreaterThan(30);
    expect(direct.inEdges).toEqual(inEdgesOf(direct.adjacency));
    // Edges that weigh 0 are dropped from the rows after they were counted.
    const someZero = (file: number, name: number, count: number): number => (name % 4 === 0 ? 0 : weigh(file, name, count));
    const dropped = buildAssembled(index, someZero, rowScratch(index.files.length));
    expect(dropped.inEdges.sources.length).toBeLessThan(direct.inEdges.sources.length);
    expect(dropped.inEdges).toEqual(inEdgesOf(dropped.adjacency));
  });
});
