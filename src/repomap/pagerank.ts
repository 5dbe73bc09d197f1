// Personalized PageRank by power iteration over a weighted graphology graph.
// graphology-metrics has no personalization and throws on graphs we meet in practice, hence our own.

import type { MultiDirectedGraph } from 'graphology';
import { combined, inEdgesOf, patchedShares, usableWeight, type InEdges, type RowOverrides, type WeightedAdjacency } from './in-edges.js';

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

export interface AdjacencyRankResult {
  readonly ranks: Float64Array;
  readonly iterations: number;
  readonly converged: boolean;
}

export type AdjacencyRankOptions = Omit<PageRankOptions, 'personalization' | 'weightAttribute'> & {
  /** Teleport weight per node index; all zero or absent: uniform. */
  readonly personalization?: Float64Array;
  /** inEdgesOf(adjacency), when the caller keeps them between rankings of the same graph. */
  readonly inEdges?: InEdges;
  /** Rows standing in for some nodes' edges (their shares are written over the in-edges' for the ranking, then restored). */
  readonly overrides?: RowOverrides;
  /** The dangling nodes of the whole graph (base and overrides); default: the in-edges'. */
  readonly dangling?: Int32Array;
};

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
/** Ranks sum to 1. Dangling mass and teleport go to the personalization vector. Never throws on shape. */
export function pageRankAdjacency(adjacency: WeightedAdjacency, options: AdjacencyRankOptions = {}): AdjacencyRankResult {
  const { nodeCount: count } = adjacency;
  if (count === 0) return { ranks: new Float64Array(0), iterations: 0, converged: true };
  const base = options.inEdges ?? inEdgesOf(adjacency);
  const dangling = options.dangling ?? base.dangling;
  if (options.overrides === undefined) return powerIteration(base, dangling, count, options);
  const undo = patchedShares(adjacency, base, options.overrides);
  if (undo === null) return powerIteration(combined(adjacency, options.overrides, dangling), dangling, count, options);
  try {
    return powerIteration(base, dangling, count, options);
  } finally {
    undo();
  }
}

function powerIteration({ starts, sources, shares }: InEdges, dangling: Int32Array, count: number, options: AdjacencyRankOptions): AdjacencyRankResult {
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 100;
  const teleport = normalizedTeleport(count, options.personalization);
  let current = new Float64Array(count).fill(1 / count);
  let next = new Float64Array(count);
  // Each node's rank times the damping: what it hands out along its edges, by share.
  const flow = new Float64Array(count);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations && !converged) {
    let danglingMass = 0;
    for (const i of dangling) danglingMass += current[i] ?? 0;
    const jump = damping * danglingMass + (1 - damping);
    for (let i = 0; i < count; i++) flow[i] = damping * (current[i] ?? 0);
    let error = 0;
    for (let t = 0; t < count; t++) {
      let sum = jump * (teleport[t] ?? 0);
      const end = starts[t + 1] ?? 0;
      for (let j = starts[t] ?? 0; j < end; j++) sum += (flow[sources[j] ?? 0] ?? 0) * (shares[j] ?? 0);
      next[t] = sum;
      error += Math.abs(sum - (current[t] ?? 0));
    }
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
