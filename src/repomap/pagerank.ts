// Personalized PageRank by power iteration over a weighted graphology graph.
// graphology-metrics has no personalization and throws on graphs we meet in practice, hence our own.

import type { MultiDirectedGraph } from 'graphology';

export interface PageRankOptions {
  /** Probability of following an edge rather than teleporting. */
  readonly damping?: number;
  /** Stop when the L1 change per node falls below this. */
  readonly tolerance?: number;
  readonly maxIterations?: number;
  /** Teleport weights per node; missing or non-positive entries get none. Empty: uniform. */
  readonly personalization?: ReadonlyMap<string, number>;
  /** Edge attribute holding the weight; absent or negative weights count as 0. */
  readonly weightAttribute?: string;
}

export interface PageRankResult {
  readonly ranks: Map<string, number>;
  readonly iterations: number;
  readonly converged: boolean;
}

/**
 * A weighted directed graph in compressed rows: node i's out-edges are starts[i]..starts[i+1]-1.
 * The ranking builds this directly, which on 400k edges is seconds faster than a graphology graph.
 */
export interface WeightedAdjacency {
  readonly nodeCount: number;
  readonly starts: Int32Array;
  readonly targets: Int32Array;
  /** Raw weights; negative or non-finite count as 0. */
  readonly weights: Float64Array;
}

export interface AdjacencyRankResult {
  readonly ranks: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

export type AdjacencyRankOptions = Omit<PageRankOptions, 'personalization' | 'weightAttribute'> & {
  /** Teleport weight per node index; all zero or absent: uniform. */
  readonly personalization?: Float64Array;
  /** edgeShares(adjacency), when the caller keeps them between rankings of the same graph. */
  readonly shares?: EdgeShares;
  /** Rows standing in for some nodes' edges; `shares` then gives the base's shares and the whole graph's dangling nodes. */
  readonly overrides?: RowOverrides;
};

/**
 * Out-edges that replace some nodes' edges of an adjacency: node i's are targets[at[i]] with edge
 * shares shares[at[i]] when at[i] >= 0 (`at` may be shorter than the node count: no more overrides).
 */
export interface RowOverrides {
  readonly at: Int32Array;
  readonly targets: readonly Int32Array[];
  readonly shares: readonly Float64Array[];
}

function usableWeight(raw: unknown): number {
  return typeof raw === 'number' && raw > 0 && Number.isFinite(raw) ? raw : 0;
}

/** The graphology graph as adjacency; node order is graph.nodes(). */
function adjacencyOf(graph: MultiDirectedGraph, weightAttribute = 'weight'): { nodes: string[]; adjacency: WeightedAdjacency } {
  const nodes = graph.nodes();
  const ids = new Map<string, number>();
  nodes.forEach((node, i) => ids.set(node, i));
  const starts = new Int32Array(nodes.length + 1);
  const targets = new Int32Array(graph.size);
  const weights = new Float64Array(graph.size);
  let n = 0;
  nodes.forEach((node, i) => {
    starts[i] = n;
    graph.forEachOutEdge(node, (_edge, attributes, _source, target) => {
      targets[n] = ids.get(target) ?? 0;
      weights[n] = usableWeight(attributes[weightAttribute]);
      n++;
    });
  });
  starts[nodes.length] = n;
  return { nodes, adjacency: { nodeCount: nodes.length, starts, targets, weights } };
}

function normalizedTeleport(count: number, personalization?: Float64Array): Float64Array {
  const vector = new Float64Array(count);
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const value = usableWeight(personalization?.[i]);
    vector[i] = value;
    sum += value;
  }
  if (sum === 0) return vector.fill(count === 0 ? 0 : 1 / count);
  for (let i = 0; i < count; i++) vector[i] = (vector[i] ?? 0) / sum;
  return vector;
}

/** Each edge's share of its source's out-weight, and the nodes with no usable out-weight. */
export interface EdgeShares {
  readonly shares: Float64Array;
  readonly dangling: Int32Array;
}

/** Writes node i's edges' shares; false when its out-edges weigh nothing (a dangling node). */
export function rowShares(adjacency: WeightedAdjacency, i: number, shares: Float64Array): boolean {
  return spanShares(adjacency.weights, adjacency.starts[i] ?? 0, adjacency.starts[i + 1] ?? 0, shares);
}

/** rowShares for the edges begin..end-1 of `weights` (one node's). */
export function spanShares(weights: Float64Array, begin: number, end: number, shares: Float64Array): boolean {
  let total = 0;
  for (let j = begin; j < end; j++) total += usableWeight(weights[j]);
  // A node whose out-edges all weigh 0 leaks its mass like a node without edges.
  if (total === 0) return false;
  for (let j = begin; j < end; j++) shares[j] = usableWeight(weights[j]) / total;
  return true;
}

export function edgeShares(adjacency: WeightedAdjacency): EdgeShares {
  const shares = new Float64Array(adjacency.weights.length);
  const dangling: number[] = [];
  for (let i = 0; i < adjacency.nodeCount; i++) if (!rowShares(adjacency, i, shares)) dangling.push(i);
  return { shares, dangling: Int32Array.from(dangling) };
}

/** Ranks sum to 1. Dangling mass and teleport go to the personalization vector. Never throws on shape. */
export function pageRankAdjacency(adjacency: WeightedAdjacency, options: AdjacencyRankOptions = {}): AdjacencyRankResult {
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 100;
  const { nodeCount: count, starts, targets } = adjacency;
  if (count === 0) return { ranks: new Float64Array(0), iterations: 0, converged: true };
  const { shares, dangling } = options.shares ?? edgeShares(adjacency);
  const { at, targets: ownTargets, shares: ownShares } = options.overrides ?? { at: new Int32Array(0), targets: [], shares: [] };
  const teleport = normalizedTeleport(count, options.personalization);
  let current = new Float64Array(count).fill(1 / count);
  let next = new Float64Array(count);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    let danglingMass = 0;
    for (const i of dangling) danglingMass += current[i] ?? 0;
    const jump = damping * danglingMass + (1 - damping);
    for (let i = 0; i < count; i++) next[i] = jump * (teleport[i] ?? 0);
    for (let i = 0; i < count; i++) {
      const flow = damping * (current[i] ?? 0);
      const own = at[i] ?? -1;
      if (own >= 0) {
        const rowTargets = ownTargets[own] ?? new Int32Array(0);
        const rowShares = ownShares[own] ?? new Float64Array(0);
        for (let k = 0; k < rowTargets.length; k++) {
          const target = rowTargets[k] ?? 0;
          next[target] = (next[target] ?? 0) + flow * (rowShares[k] ?? 0);
        }
        continue;
      }
      const end = starts[i + 1] ?? 0;
      for (let j = starts[i] ?? 0; j < end; j++) {
        const target = targets[j] ?? 0;
        next[target] = (next[target] ?? 0) + flow * (shares[j] ?? 0);
      }
    }
    let error = 0;
    for (let i = 0; i < count; i++) error += Math.abs((next[i] ?? 0) - (current[i] ?? 0));
    [current, next] = [next, current];
    iterations++;
    converged = error < count * tolerance;
  }
  return { ranks: current, iterations, converged };
}

/** Personalized PageRank over a graphology graph; parallel edges add up. */
export function personalizedPageRank(graph: MultiDirectedGraph, options: PageRankOptions = {}): PageRankResult {
  const { nodes, adjacency } = adjacencyOf(graph, options.weightAttribute ?? 'weight');
  const personalization = new Float64Array(nodes.map((node) => options.personalization?.get(node) ?? 0));
  const result = pageRankAdjacency(adjacency, { ...options, personalization });
  const ranks = new Map<string, number>();
  nodes.forEach((node, i) => ranks.set(node, result.ranks[i] ?? 0));
  return { ranks, iterations: result.iterations, converged: result.converged };
}
