import { describe, expect, it } from 'vitest';
import { MultiDirectedGraph } from 'graphology';
import * as pagerankModule from 'graphology-metrics/centrality/pagerank.js';
import { pageRankAdjacency, personalizedPageRank } from '../../src/repomap/pagerank.js';
import { assemble, assembledFrom, flattened, overlaid, type EdgeRow } from '../../src/repomap/rank-graph.js';

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
    const overlaidRanks = pageRankAdjacency(base.adjacency, { personalization, shares: { shares: base.shares.shares, dangling: graph.dangling }, overrides: graph.overrides });
    const whole = pageRankAdjacency(assemble(rows), { personalization });
    expect([...graph.dangling]).toEqual([3]);
    expect(flattened(graph)).toEqual(assemble(rows));
    expect(overlaidRanks.iterations).toBe(whole.iterations);
    expect([...overlaidRanks.ranks]).toEqual([...whole.ranks]);
  });
});
