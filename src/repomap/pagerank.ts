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

/** A compact adjacency view so the iteration touches typed arrays only. */
interface Adjacency {
  readonly nodes: string[];
  readonly starts: Int32Array;
  readonly targets: Int32Array;
  /** Edge weight divided by its source's total out-weight. */
  readonly shares: Float64Array;
  readonly dangling: Int32Array;
}

function buildAdjacency(graph: MultiDirectedGraph, weightAttribute: string): Adjacency {
  const nodes = graph.nodes();
  const ids = new Map<string, number>();
  nodes.forEach((node, i) => ids.set(node, i));
  const starts = new Int32Array(nodes.length + 1);
  const targets = new Int32Array(graph.size);
  const shares = new Float64Array(graph.size);
  const dangling: number[] = [];
  let n = 0;
  nodes.forEach((node, i) => {
    starts[i] = n;
    let total = 0;
    graph.forEachOutEdge(node, (_edge, attributes, _source, target) => {
      const raw: unknown = attributes[weightAttribute];
      const weight = typeof raw === 'number' && raw > 0 && Number.isFinite(raw) ? raw : 0;
      targets[n] = ids.get(target) ?? 0;
      shares[n] = weight;
      total += weight;
      n++;
    });
    // A node whose out-edges all weigh 0 leaks its mass like a node without edges.
    if (total === 0) dangling.push(i);
    for (let j = starts[i] ?? 0; j < n; j++) shares[j] = total === 0 ? 0 : (shares[j] ?? 0) / total;
  });
  starts[nodes.length] = n;
  return { nodes, starts, targets, shares, dangling: Int32Array.from(dangling) };
}

function teleportVector(nodes: readonly string[], personalization?: ReadonlyMap<string, number>): Float64Array {
  const vector = new Float64Array(nodes.length);
  let sum = 0;
  nodes.forEach((node, i) => {
    const value = personalization?.get(node) ?? 0;
    if (value > 0 && Number.isFinite(value)) {
      vector[i] = value;
      sum += value;
    }
  });
  if (sum === 0) return vector.fill(nodes.length === 0 ? 0 : 1 / nodes.length);
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] ?? 0) / sum;
  return vector;
}

/** Ranks sum to 1. Dangling mass and teleport go to the personalization vector. Never throws on shape. */
export function personalizedPageRank(graph: MultiDirectedGraph, options: PageRankOptions = {}): PageRankResult {
  const damping = options.damping ?? 0.85;
  const tolerance = options.tolerance ?? 1e-6;
  const maxIterations = options.maxIterations ?? 100;
  const adjacency = buildAdjacency(graph, options.weightAttribute ?? 'weight');
  const { nodes, starts, targets, shares, dangling } = adjacency;
  const count = nodes.length;
  if (count === 0) return { ranks: new Map(), iterations: 0, converged: true };

  const teleport = teleportVector(nodes, options.personalization);
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
  const ranks = new Map<string, number>();
  nodes.forEach((node, i) => ranks.set(node, current[i] ?? 0));
  return { ranks, iterations, converged };
}
