// The ranking graph's numbers: compressed out-edge rows, each edge's share of its source's
// out-weight, and the same edges turned around (in-edges), which the power iteration reads.

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

/**
 * Out-edges that replace some nodes' edges of an adjacency: node i's are targets[at[i]] with edge
 * shares shares[at[i]] when at[i] >= 0 (`at` may be shorter than the node count: no more overrides).
 */
export interface RowOverrides {
  readonly at: Int32Array;
  readonly targets: readonly Int32Array[];
  readonly shares: readonly Float64Array[];
}

/** A weight as the ranking counts it: negative, non-finite or not a number is 0. */
export function usableWeight(raw: unknown): number {
  return typeof raw === 'number' && raw > 0 && Number.isFinite(raw) ? raw : 0;
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
export function patchedShares(adjacency: WeightedAdjacency, inEdges: InEdges, overrides: RowOverrides): (() => void) | null {
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
export function combined(adjacency: WeightedAdjacency, overrides: RowOverrides, dangling: Int32Array): InEdges {
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
