// The ranking's file graph kept between rankings: one row of edges per referencing file, rebuilt
// only for the files whose inputs changed, so a touched file or a new chat set costs its rows.
import type { NameIndex } from './name-index.js';
import { inEdgesOf, nodeArray, rowShares, spanShares, type InEdges, type RowOverrides, type WeightedAdjacency } from './in-edges.js';

/** Weight of one (referencing file, name) pair, applied to each edge towards a definer of the name. */
export type RefWeight = (fileId: number, nameId: number, count: number) => number;

/** One file's out-edges, targets ascending, parallel edges summed. */
export interface EdgeRow {
  readonly targets: Int32Array;
  readonly weights: Float64Array;
}

/** Scratch space for building rows: a dense row, the targets touched in it, and them as bits. */
export interface RowScratch {
  readonly row: Float64Array;
  readonly touched: Int32Array;
  readonly marks: Int32Array;
}

export function rowScratch(count: number): RowScratch {
  return { row: new Float64Array(count), touched: new Int32Array(count), marks: new Int32Array((count + 31) >> 5) };
}

/** Edges from `source` to each file defining a name it references. A pure function of the index's row inputs. */
export function buildRow(index: NameIndex, weigh: RefWeight, source: number, scratch: RowScratch): EdgeRow {
  const touchedCount = sumRow(index, weigh, source, scratch);
  const targets = new Int32Array(touchedCount);
  const weights = new Float64Array(touchedCount);
  const n = drainRow(scratch, touchedCount, targets, weights, 0);
  return n === touchedCount ? { targets, weights } : { targets: targets.slice(0, n), weights: weights.slice(0, n) };
}

/**
 * Adds the source's edge weights into the scratch row; returns how many targets it touched. Plain
 * loops over the index's arrays: this runs for every reference of every file on a first ranking.
 */
function sumRow(index: NameIndex, weigh: RefWeight, source: number, { row, touched }: RowScratch): number {
  const { definerStart, definerFiles } = index;
  let touchedCount = 0;
  const names = index.refNames[source] ?? [];
  const counts = index.refCounts[source] ?? [];
  for (let k = 0; k < names.length; k++) {
    const nameId = names[k] ?? 0;
    const begin = definerStart[nameId] ?? 0;
    const end = definerStart[nameId + 1] ?? 0;
    if (begin === end) continue;
    const weight = weigh(source, nameId, counts[k] ?? 1);
    for (let slot = begin; slot < end; slot++) {
      const target = definerFiles[slot] ?? 0;
      if (row[target] === 0) touched[touchedCount++] = target;
      row[target] = (row[target] ?? 0) + weight;
    }
  }
  return touchedCount;
}

/**
 * Moves the scratch row's non-zero entries, targets ascending, into `targets`/`weights` from
 * `at` on, leaving the scratch all zeros; returns how many it wrote. The touched targets are set
 * as bits and read back word by word: ascending without a sort per row.
 */
function drainRow({ row, touched, marks }: RowScratch, touchedCount: number, targets: Int32Array, weights: Float64Array, at: number): number {
  let firstWord = marks.length;
  let lastWord = -1;
  for (let t = 0; t < touchedCount; t++) {
    const target = touched[t] ?? 0;
    const word = target >> 5;
    marks[word] = (marks[word] ?? 0) | (1 << (target & 31));
    if (word < firstWord) firstWord = word;
    if (word > lastWord) lastWord = word;
  }
  let n = at;
  for (let word = firstWord; word <= lastWord; word++) {
    let bits = marks[word] ?? 0;
    if (bits === 0) continue;
    marks[word] = 0;
    while (bits !== 0) {
      const low = bits & -bits;
      bits ^= low;
      const target = (word << 5) | (31 - Math.clz32(low));
      const weight = row[target] ?? 0;
      if (weight === 0) continue;
      row[target] = 0;
      targets[n] = target;
      weights[n++] = weight;
    }
  }
  return n - at;
}

/**
 * Every file's row built straight into one compressed adjacency (a first ranking: no row kept),
 * with its edge shares worked out while the row is at hand: no array pair per file, no second
 * pass. The same numbers as assembledFrom(assemble(files.map(buildRow))). The arrays are allocated
 * once, counted first: growing them by copies cost more than building the rows.
 */
export function buildAssembled(index: NameIndex, weigh: RefWeight, scratch: RowScratch): Assembled {
  const count = index.files.length;
  const starts = new Int32Array(count + 1);
  // Counted per target too: each row's edges go into the in-edges while the row is at hand.
  const inStarts = new Int32Array(count + 1);
  const bound = edgeBound(index, scratch, inStarts);
  const targets = new Int32Array(bound);
  const weights = new Float64Array(bound);
  const fill = inStarts.slice(0, count);
  const sources = nodeArray(count, bound);
  const inShares = new Float64Array(bound);
  const rowShares = new Float64Array(count);
  const dangling: number[] = [];
  let total = 0;
  for (let source = 0; source < count; source++) {
    starts[source] = total;
    const end = total + drainRow(scratch, sumRow(index, weigh, source, scratch), targets, weights, total);
    if (!spanShares(weights.subarray(total, end), 0, end - total, rowShares)) dangling.push(source);
    for (let j = total; j < end; j++) {
      const target = targets[j] ?? 0;
      const at = fill[target] ?? 0;
      fill[target] = at + 1;
      sources[at] = source;
      // A dangling row's edges carry nothing (its shares were not written).
      inShares[at] = rowShares[j - total] ?? 0;
      rowShares[j - total] = 0;
    }
    total = end;
  }
  starts[count] = total;
  const adjacency = { nodeCount: count, starts, targets: targets.subarray(0, total), weights: weights.subarray(0, total) };
  // An edge that weighed 0 was counted but not kept: the in-edges would have gaps, so turn the kept ones around instead.
  const inEdges = total === bound ? { starts: inStarts, sources, shares: inShares, dangling: Int32Array.from(dangling) } : inEdgesOf(adjacency);
  return { rows: rowViews(adjacency), adjacency, inEdges };
}

/**
 * The number of edges of all rows (each file's distinct definers of the names it references, a
 * bound should an edge weigh 0): one pass of bit marks, so the arrays are allocated at their size.
 * Writes the in-edges' starts (each target's count, summed) into `inStarts`.
 */
function edgeBound({ files, refNames, definerStart, definerFiles }: NameIndex, { touched, marks }: RowScratch, inStarts: Int32Array): number {
  let bound = 0;
  for (let source = 0; source < files.length; source++) {
    let distinct = 0;
    for (const nameId of refNames[source] ?? []) {
      const end = definerStart[nameId + 1] ?? 0;
      for (let slot = definerStart[nameId] ?? 0; slot < end; slot++) {
        const target = definerFiles[slot] ?? 0;
        const bit = 1 << (target & 31);
        const word = target >> 5;
        if (((marks[word] ?? 0) & bit) !== 0) continue;
        marks[word] = (marks[word] ?? 0) | bit;
        touched[distinct++] = target;
      }
    }
    for (let t = 0; t < distinct; t++) {
      const target = touched[t] ?? 0;
      marks[target >> 5] = 0;
      inStarts[target + 1] = (inStarts[target + 1] ?? 0) + 1;
    }
    bound += distinct;
  }
  for (let t = 0; t < files.length; t++) inStarts[t + 1] = (inStarts[t + 1] ?? 0) + (inStarts[t] ?? 0);
  return bound;
}

/** The rows as one compressed adjacency (node i's edges at starts[i]..starts[i+1]-1). */
export function assemble(rows: readonly EdgeRow[]): WeightedAdjacency {
  const count = rows.length;
  const starts = new Int32Array(count + 1);
  let total = 0;
  for (let i = 0; i < count; i++) {
    starts[i] = total;
    total += rows[i]?.targets.length ?? 0;
  }
  starts[count] = total;
  const targets = new Int32Array(total);
  const weights = new Float64Array(total);
  rows.forEach((row, i) => {
    targets.set(row.targets, starts[i] ?? 0);
    weights.set(row.weights, starts[i] ?? 0);
  });
  return { nodeCount: count, starts, targets, weights };
}

function sameNumbers(a: ArrayLike<number> | undefined, b: ArrayLike<number> | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Which files' rows (references, their counts and the definers of the names they reference) are the
 * same in both indexes, when the indexes share their names' ids (one table) and their files; null
 * when they do not, so every row must be built. A file's row depends on nothing else but the weights'
 * settings (chat membership, mentioned names), which the caller keys on.
 */
export function unchangedRows(before: NameIndex, after: NameIndex): Uint8Array | null {
  if (before.names !== after.names || !sameList(before.files, after.files)) return null;
  const nameCount = Math.min(before.definerStart.length, after.definerStart.length) - 1;
  // A name whose definers changed changes every row that references it (and its weight).
  const moved = new Uint8Array(after.definerStart.length);
  const { definerStart: oldStart, definerFiles: oldFiles } = before;
  const { definerStart: newStart, definerFiles: newFiles } = after;
  for (let id = 0; id < newStart.length - 1; id++) {
    const begin = newStart[id] ?? 0;
    const end = newStart[id + 1] ?? 0;
    if (id >= nameCount) {
      moved[id] = end > begin ? 1 : 0;
      continue;
    }
    const oldBegin = oldStart[id] ?? 0;
    if ((oldStart[id + 1] ?? 0) - oldBegin !== end - begin) {
      moved[id] = 1;
      continue;
    }
    for (let k = 0; k < end - begin; k++) {
      if (oldFiles[oldBegin + k] !== newFiles[begin + k]) {
        moved[id] = 1;
        break;
      }
    }
  }
  const same = new Uint8Array(after.files.length);
  for (let file = 0; file < after.files.length; file++) {
    const names = after.refNames[file] ?? [];
    if (!sameNumbers(before.refNames[file], names) || !sameNumbers(before.refCounts[file], after.refCounts[file])) continue;
    let clean = true;
    for (const id of names) {
      if (moved[id] === 1) {
        clean = false;
        break;
      }
    }
    if (clean) same[file] = 1;
  }
  return same;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A graph's rows, their compressed adjacency and its in-edges with their shares (what the power iteration reads). */
export interface Assembled {
  readonly rows: readonly EdgeRow[];
  readonly adjacency: WeightedAdjacency;
  readonly inEdges: InEdges;
}

/** Each node's out-edges as views of the adjacency's arrays. */
export function rowViews({ nodeCount, starts, targets, weights }: WeightedAdjacency): EdgeRow[] {
  const rows: EdgeRow[] = [];
  for (let i = 0; i < nodeCount; i++) {
    const begin = starts[i] ?? 0;
    const end = starts[i + 1] ?? 0;
    rows.push({ targets: targets.subarray(begin, end), weights: weights.subarray(begin, end) });
  }
  return rows;
}

/** An adjacency built whole, with its rows as views of it. */
export function assembledFrom(adjacency: WeightedAdjacency): Assembled {
  return { rows: rowViews(adjacency), adjacency, inEdges: inEdgesOf(adjacency) };
}

/**
 * A graph as an assembled base and the rows standing in for some of its rows (a chat file's row,
 * weighted more): a new chat set costs its few rows, not a copy of every weight and share.
 */
export interface RankGraph {
  readonly base: Assembled;
  /** Node i's row when it is not the base's (index into `rows`, -1: the base's). */
  readonly overrides: RowOverrides;
  /** The overriding rows, parallel to overrides.targets. */
  readonly rows: readonly EdgeRow[];
  /** Nodes with no usable out-weight in this graph (base and overrides), ascending. */
  readonly dangling: Int32Array;
}

/** The base alone. */
export function wholeGraph(base: Assembled): RankGraph {
  return { base, overrides: { at: new Int32Array(0), targets: [], shares: [] }, rows: [], dangling: base.inEdges.dangling };
}

/**
 * `rows` as the base plus the rows that are not the base's own (by identity: kept rows are views
 * of the base). Each overriding row's shares are worked out as inEdgesOf would on the whole
 * adjacency, so ranks are identical. Null when the base is of another graph (other node count).
 */
export function overlaid(base: Assembled | undefined, rows: readonly EdgeRow[]): RankGraph | null {
  if (base === undefined || base.rows.length !== rows.length) return null;
  const at = new Int32Array(rows.length).fill(-1);
  const targets: Int32Array[] = [];
  const shares: Float64Array[] = [];
  const overriding: EdgeRow[] = [];
  const danglingNow: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (row === undefined || row === base.rows[i]) continue;
    const own = new Float64Array(row.targets.length);
    const alone: WeightedAdjacency = { nodeCount: 1, starts: Int32Array.of(0, row.targets.length), targets: row.targets, weights: row.weights };
    if (!rowShares(alone, 0, own)) danglingNow.push(i);
    at[i] = targets.length;
    targets.push(row.targets);
    shares.push(own);
    overriding.push(row);
  }
  if (overriding.length === 0) return wholeGraph(base);
  const kept = [...base.inEdges.dangling].filter((i) => at[i] === -1);
  const dangling = Int32Array.from([...kept, ...danglingNow]).sort();
  return { base, overrides: { at, targets, shares }, rows: overriding, dangling };
}

/** The graph as one adjacency (what a ranking from scratch of the same rows assembles). */
export function flattened(graph: RankGraph): WeightedAdjacency {
  if (graph.rows.length === 0) return graph.base.adjacency;
  return assemble(graph.base.rows.map((row, i) => graph.rows[graph.overrides.at[i] ?? -1] ?? row));
}
