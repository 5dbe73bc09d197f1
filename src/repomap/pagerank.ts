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
  /** inEdgesOf(adjacency), when the caller keeps them between rankings of the same graph. */
  readonly inEdges?: InEdges;
  /** Rows standing in for some nodes' edges (their shares are written over the in-edges' for the ranking, then restored). */
  readonly overrides?: RowOverrides;
  /** The dangling nodes of the whole graph (base and overrides); default: the in-edges'. */
  readonly dangling?: Int32Array;
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

/**
 * Each node's in-edges, sources ascending (node t's at starts[t]..starts[t+1]-1), with the share of
 * its source's out-weight each carries, and the nodes with no usable out-weight. The power iteration
 * pulls each node's rank from these: it adds the same products in the same order as a push over the
 * sources would (so the ranks are the same to the last bit) but keeps each sum in a register.
 */
export interface InEdges {
  readonly starts: Int32Array;
  /** 16-bit when every node number fits (fewer bytes to write and read per edge). */
  readonly sources: Int32Array | Uint16Array;
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

/** An array for `length` node numbers below `nodeCount`. */
export function nodeArray(nodeCount: number, length: number): Int32Array | Uint16Array {
  return nodeCount <= 0x10000 ? new Uint16Array(length) : new Int32Array(length);
}

/** Each node's number of in-edges, summed: where each node's in-edges start (nodeCount + 1 entries). */
function inEdgeStarts(nodeCount: number, targets: Int32Array): Int32Array {
  const starts = new Int32Array(nodeCount + 1);
  for (let j = 0; j < targets.length; j++) {
    const target = (targets[j] ?? 0) + 1;
    starts[target] = (starts[target] ?? 0) + 1;
  }
  for (let t = 0; t < nodeCount; t++) starts[t + 1] = (starts[t + 1] ?? 0) + (starts[t] ?? 0);
  return starts;
}

/** The adjacency's edges turned around (sources ascending per target), carrying `shares`. */
export function transposed({ nodeCount, starts, targets }: WeightedAdjacency, { shares, dangling }: EdgeShares): InEdges {
  const inStarts = inEdgeStarts(nodeCount, targets);
  const fill = inStarts.slice(0, nodeCount);
  const sources = nodeArray(nodeCount, targets.length);
  const inShares = new Float64Array(targets.length);
  for (let i = 0; i < nodeCount; i++) {
    const end = starts[i + 1] ?? 0;
    for (let j = starts[i] ?? 0; j < end; j++) {
      const target = targets[j] ?? 0;
      const at = fill[target] ?? 0;
      fill[target] = at + 1;
      sources[at] = i;
      inShares[at] = shares[j] ?? 0;
    }
  }
  return { starts: inStarts, sources, shares: inShares, dangling };
}

/**
 * The in-edges of an adjacency, shares worked out as edgeShares does, one row at a time (no
 * array of every edge's share besides the in-edges' own).
 */
export function inEdgesOf({ nodeCount, starts, targets, weights }: WeightedAdjacency): InEdges {
  const inStarts = inEdgeStarts(nodeCount, targets);
  const fill = inStarts.slice(0, nodeCount);
  const sources = nodeArray(nodeCount, targets.length);
  const inShares = new Float64Array(targets.length);
  const row = new Float64Array(nodeCount);
  const dangling: number[] = [];
  for (let i = 0; i < nodeCount; i++) {
    const begin = starts[i] ?? 0;
    const end = starts[i + 1] ?? 0;
    // A dangling row's shares are not written: its edges carry 0.
    if (!spanShares(weights.subarray(begin, end), 0, end - begin, row)) dangling.push(i);
    for (let j = begin; j < end; j++) {
      const target = targets[j] ?? 0;
      const at = fill[target] ?? 0;
      fill[target] = at + 1;
      sources[at] = i;
      inShares[at] = row[j - begin] ?? 0;
      row[j - begin] = 0;
    }
  }
  return { starts: inStarts, sources, shares: inShares, dangling: Int32Array.from(dangling) };
}

/** Where the in-edge from `source` sits among `target`'s in-edges (-1: none). */
function inEdgeAt({ starts, sources }: InEdges, target: number, source: number): number {
  let low = starts[target] ?? 0;
  let high = (starts[target + 1] ?? 0) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = sources[mid] ?? 0;
    if (at === source) return mid;
    if (at < source) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}

/**
 * The in-edges with the overriding rows' shares written over the base's, and how to undo it; null
 * when an overriding row has a target its base row lacks (its in-edge has no slot). A base edge
 * the overriding row lacks carries share 0: adding 0 leaves a sum as skipping it would.
 */
function patchedShares(adjacency: WeightedAdjacency, inEdges: InEdges, overrides: RowOverrides): (() => void) | null {
  const slots: number[] = [];
  const saved: number[] = [];
  // Backwards: a slot written twice (zeroed, then given its share) gets its first value back.
  const undo = (): void => {
    for (let k = slots.length - 1; k >= 0; k--) inEdges.shares[slots[k] ?? 0] = saved[k] ?? 0;
  };
  const write = (slot: number, share: number): void => {
    slots.push(slot);
    saved.push(inEdges.shares[slot] ?? 0);
    inEdges.shares[slot] = share;
  };
  for (let i = 0; i < overrides.at.length; i++) {
    const own = overrides.at[i] ?? -1;
    if (own < 0) continue;
    const end = adjacency.starts[i + 1] ?? 0;
    for (let j = adjacency.starts[i] ?? 0; j < end; j++) write(inEdgeAt(inEdges, adjacency.targets[j] ?? 0, i), 0);
    const targets = overrides.targets[own] ?? new Int32Array(0);
    const shares = overrides.shares[own] ?? new Float64Array(0);
    for (let k = 0; k < targets.length; k++) {
      const slot = inEdgeAt(inEdges, targets[k] ?? 0, i);
      if (slot < 0) {
        undo();
        return null;
      }
      write(slot, shares[k] ?? 0);
    }
  }
  return undo;
}

/** The base's rows with the overriding rows in their place, as one adjacency and its shares. */
function combined(adjacency: WeightedAdjacency, overrides: RowOverrides, dangling: Int32Array): InEdges {
  const { nodeCount } = adjacency;
  const starts = new Int32Array(nodeCount + 1);
  const rowOf = (i: number): { targets: Int32Array; shares: Float64Array } | undefined => {
    const own = overrides.at[i] ?? -1;
    return own < 0 ? undefined : { targets: overrides.targets[own] ?? new Int32Array(0), shares: overrides.shares[own] ?? new Float64Array(0) };
  };
  let total = 0;
  for (let i = 0; i < nodeCount; i++) {
    starts[i] = total;
    total += rowOf(i)?.targets.length ?? (adjacency.starts[i + 1] ?? 0) - (adjacency.starts[i] ?? 0);
  }
  starts[nodeCount] = total;
  const targets = new Int32Array(total);
  const shares = new Float64Array(total);
  const weights = new Float64Array(total);
  for (let i = 0; i < nodeCount; i++) {
    const at = starts[i] ?? 0;
    const row = rowOf(i);
    if (row !== undefined) {
      targets.set(row.targets, at);
      shares.set(row.shares, at);
      continue;
    }
    const begin = adjacency.starts[i] ?? 0;
    const end = adjacency.starts[i + 1] ?? 0;
    targets.set(adjacency.targets.subarray(begin, end), at);
    weights.set(adjacency.weights.subarray(begin, end), at);
    spanShares(weights, at, at + end - begin, shares);
  }
  return transposed({ nodeCount, starts, targets, weights }, { shares, dangling });
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
