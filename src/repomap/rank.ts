// Ranks definitions for the repo map: a weighted file graph (referencing file -> defining file),
// personalized PageRank over it, then each file's rank flows along its edges to (file, name) pairs.
// A ranker keeps the graph between rankings and rebuilds only what changed (see createRanker).

import { definerCount, definersOf, definitionTag, indexTags, mentionedNameIds, type NameIndex } from './name-index.js';
import type { FileTags } from './packed-tags.js';
import type { Tag } from './tag.js';
import { pageRankAdjacency } from './pagerank.js';
import type { WeightedAdjacency } from './in-edges.js';
import { assembledFrom, assemble, buildAssembled, buildRow, flattened, overlaid, rowScratch, unchangedRows, wholeGraph, type Assembled, type EdgeRow, type RankGraph, type RefWeight } from './rank-graph.js';
import { graphDigest, rankingDigest } from './rank-digest.js';
import type { RankStore } from './rank-store.js';
import { definitionRanks, plainRefWeights, type PlainRefWeights } from './def-ranks.js';

export interface RankOptions {
  /** Files in the chat: personalized, their references weigh more, their definitions are left out. */
  readonly chatFiles: readonly string[];
  /** Files named in the request (or read-only context): personalized. */
  readonly mentionedFiles?: readonly string[];
  /** Identifiers named in the request: their edges weigh more, matching file stems are personalized. */
  readonly mentionedIdents?: readonly string[];
  /**
   * Only the best this many definitions are needed (a map's budget holds a small fraction of a big
   * repository's): they are selected before sorting, so a sort of every definition is skipped.
   * The items are the same as the first `limit` of an unlimited ranking.
   */
  readonly limit?: number;
}

export type RankedItem =
  | { readonly kind: 'def'; readonly tag: Tag; readonly rank: number }
  | { readonly kind: 'file'; readonly path: string; readonly rank: number };

export interface RankResult {
  /** Definitions best first, then files that define nothing (path only). */
  readonly items: readonly RankedItem[];
  readonly fileRanks: ReadonlyMap<string, number>;
  /** The file graph the ranks came from: node i is files[i]. */
  readonly files: readonly string[];
  readonly adjacency: WeightedAdjacency;
}

/**
 * Edge weight multipliers. Chosen so that one strong signal (a mentioned name, a chat file's use)
 * outweighs many weak ones, while common or private names barely move rank.
 */
export const RANK_WEIGHTS = {
  mentionedName: 10,
  descriptiveName: 10,
  privateName: 0.1,
  widelyDefinedName: 0.1,
  /** A name defined in more files than this is "widely defined" (overloads, `main`, `init`...). */
  widelyDefinedLimit: 5,
  referencedFromChat: 50,
  descriptiveMinLength: 8,
} as const;

/** The weights as the rank store's digest takes them. */
const WEIGHTS_TEXT = JSON.stringify(RANK_WEIGHTS);

function isDescriptive(name: string): boolean {
  if (name.length < RANK_WEIGHTS.descriptiveMinLength) return false;
  return name.includes('_') || /[a-z0-9][A-Z]/.test(name) || name.includes('-');
}

function nameMultiplier(name: string, definerCount: number, mentioned: boolean): number {
  let multiplier = 1;
  if (mentioned) multiplier *= RANK_WEIGHTS.mentionedName;
  if (isDescriptive(name)) multiplier *= RANK_WEIGHTS.descriptiveName;
  if (name.startsWith('_')) multiplier *= RANK_WEIGHTS.privateName;
  if (definerCount > RANK_WEIGHTS.widelyDefinedLimit) multiplier *= RANK_WEIGHTS.widelyDefinedName;
  return multiplier;
}

/** Each defined name's weight multiplier (0 for names no file defines). */
function nameMultipliers(index: NameIndex, mentionedIds: readonly number[]): Float64Array {
  const mentioned = new Uint8Array(index.names.length);
  for (const id of mentionedIds) mentioned[id] = 1;
  // Only defined names are ever weighed: the table also holds every local and library name.
  const multipliers = new Float64Array(index.definerStart.length - 1);
  for (let id = 0; id < multipliers.length; id++) {
    const count = definerCount(index, id);
    if (count > 0) multipliers[id] = nameMultiplier(index.names[id] ?? '', count, mentioned[id] === 1);
  }
  return multipliers;
}

/** The graph rows' reference weight; def-ranks.ts computes the same products (keep the two alike). */
function refWeigher(multipliers: Float64Array, chat: ReadonlySet<number>): RefWeight {
  return (fileId, nameId, count) =>
    (multipliers[nameId] ?? 0) * Math.sqrt(count) * (chat.has(fileId) ? RANK_WEIGHTS.referencedFromChat : 1);
}

function normalizeStem(text: string): string {
  return text.toLowerCase().replace(/[-_.]/g, '');
}

function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function personalization(index: NameIndex, options: RankOptions, mentionedIds: readonly number[]): Float64Array {
  const chosen = new Float64Array(index.files.length);
  for (const file of [...options.chatFiles, ...(options.mentionedFiles ?? [])]) {
    const id = index.fileIds.get(file);
    if (id !== undefined) chosen[id] = 1;
  }
  // The request itself points at the files defining the names it mentions.
  for (const nameId of mentionedIds) {
    for (const id of definersOf(index, nameId)) chosen[id] = 1;
  }
  const idents = new Set((options.mentionedIdents ?? []).map(normalizeStem).filter((s) => s.length >= 3));
  if (idents.size === 0) return chosen;
  index.files.forEach((file, id) => {
    if (idents.has(normalizeStem(fileStem(file)))) chosen[id] = 1;
  });
  return chosen;
}

interface Candidate {
  readonly tag: Tag;
  readonly rank: number;
  readonly fileRank: number;
}

function compareDefs(a: Candidate, b: Candidate): number {
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.fileRank !== b.fileRank) return b.fileRank - a.fileRank;
  if (a.tag.path !== b.tag.path) return a.tag.path < b.tag.path ? -1 : 1;
  if (a.tag.line !== b.tag.line) return a.tag.line - b.tag.line;
  return a.tag.name < b.tag.name ? -1 : a.tag.name > b.tag.name ? 1 : 0;
}

/**
 * The value at position `n` of the values sorted ascending (as `values.sort()[n]`), found by
 * quickselect in linear time: sorting every definition's rank cost a big tree tens of ms per map.
 * Reorders `values`.
 */
export function nthSmallest(values: Float64Array, n: number): number {
  let low = 0;
  let high = values.length - 1;
  while (low < high) {
    // Median of three as the pivot keeps ranked (nearly sorted) input linear.
    const mid = (low + high) >> 1;
    const a = values[low] ?? 0;
    const b = values[mid] ?? 0;
    const c = values[high] ?? 0;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = low;
    let j = high;
    while (i <= j) {
      while ((values[i] ?? 0) < pivot) i++;
      while ((values[j] ?? 0) > pivot) j--;
      if (i <= j) {
        const t = values[i] ?? 0;
        values[i++] = values[j] ?? 0;
        values[j--] = t;
      }
    }
    if (n <= j) high = j;
    else if (n >= i) low = i;
    else return values[n] ?? 0;
  }
  return values[n] ?? 0;
}

/**
 * The limit-th best of `ranks` (as nthSmallest(ranks.slice(), ranks.length - limit)). Most
 * definitions of a big tree are referenced by no file (rank 0): when enough ranks are positive, the
 * cut lies among them, and only they are searched.
 */
function limitRank(ranks: Float64Array, limit: number, scratch: DefScratch): number {
  scratch.positive = atLeast(scratch.positive, ranks.length, (size) => new Float64Array(size));
  const { positive } = scratch;
  let count = 0;
  // Indexed, not for-of: a ranking runs once per map, mostly before the loop is optimized, and an
  // iterator then allocates a result object per definition (megabytes, and a collection, per map).
  for (let k = 0; k < ranks.length; k++) {
    const rank = ranks[k] ?? 0;
    if (rank > 0) positive[count++] = rank;
  }
  if (count < limit) return nthSmallest(ranks.slice(), ranks.length - limit);
  return nthSmallest(positive.subarray(0, count), count - limit);
}

/**
 * Arrays of one entry per definition that a ranking fills and drops: kept by the ranker and
 * reused (a big tree's are megabytes each, and each new one cost a collection sooner).
 */
interface DefScratch {
  shown: Int32Array;
  shownRanks: Float64Array;
  positive: Float64Array;
  /** One entry per name, all 0 between rankings (definitionRanks leaves it so). */
  byName: Float64Array;
}

function defScratch(): DefScratch {
  return { shown: new Int32Array(0), shownRanks: new Float64Array(0), positive: new Float64Array(0), byName: new Float64Array(0) };
}

/** `array`, or a bigger one when it holds fewer than `length` entries (its contents are not kept). */
function atLeast<T extends Int32Array | Float64Array>(array: T, length: number, make: (size: number) => T): T {
  return array.length >= length ? array : make(Math.ceil(length * 1.25));
}

/**
 * The first `limit` of the definitions in compareDefs order. Only definitions ranked at least the
 * limit-th best rank become objects (ties at the cut are then ordered by the full comparison), so
 * the result is exactly the sorted list's prefix while a big repository's other definitions stay numbers.
 */
function topDefinitions(index: NameIndex, defs: Int32Array, ranks: Float64Array, fileRanks: Float64Array, limit: number | undefined, scratch: DefScratch): Candidate[] {
  let cut = -Infinity;
  if (limit !== undefined && defs.length > limit * 2) cut = limitRank(ranks, limit, scratch);
  const chosen: Candidate[] = [];
  for (let k = 0; k < defs.length; k++) {
    const rank = ranks[k] ?? 0;
    if (rank < cut) continue;
    const def = defs[k] ?? 0;
    chosen.push({ tag: definitionTag(index, def), rank, fileRank: fileRanks[index.defFile[def] ?? 0] ?? 0 });
  }
  return chosen.sort(compareDefs).slice(0, limit ?? chosen.length);
}

/** What one ranking computed afresh (the rest came from the ranker's previous work). */
export interface RankWork {
  /** The name index was built (false: every file's tags were the very same objects as last time). */
  readonly indexed: boolean;
  /** Rows of the file graph built; the other rows were kept. */
  readonly rowsBuilt: number;
  /** The power iteration ran (false: same graph, same personalization as a ranking kept, or ranks from the store). */
  readonly ranked: boolean;
  /** The ranks came from the rank store (an earlier process's ranking of the very same inputs). */
  readonly stored: boolean;
}

/** File ranks and definition ranks for one graph and one personalization. */
interface Ranked {
  /** Undefined when the ranks came from the store: built only should the adjacency be asked for. */
  readonly graph: RankGraph | undefined;
  readonly weigh: RefWeight;
  readonly ranks: Float64Array;
  readonly defRanks: Float64Array;
}

export interface RankerOptions {
  /**
   * Rankings kept across processes: a ranking whose inputs' digest (rank-digest.ts) is found there
   * takes its ranks, bit for bit those a ranking from scratch computes, without building the graph.
   */
  readonly store?: RankStore;
}

export interface Ranker {
  /** Same result as rankDefinitions on the same inputs, reusing what is unchanged since earlier calls. */
  rank(tagsByFile: ReadonlyMap<string, FileTags>, options: RankOptions): RankResult;
  /** What the last rank() computed afresh. */
  lastWork(): RankWork | undefined;
}

/** Rankings kept per personalization (chat sets; budgets share them). Each holds its standing-in rows (the base is shared). */
const RANKINGS_KEPT = 4;

/** Whether every file has the very same tags object (`before` is the ranker's own copy). */
function sameTags(before: ReadonlyMap<string, FileTags>, after: ReadonlyMap<string, FileTags>): boolean {
  if (before.size !== after.size) return false;
  for (const [path, tags] of after) if (before.get(path) !== tags) return false;
  return true;
}

/**
 * Keeps the file graph between rankings. A file's row of edges is rebuilt only when its inputs
 * changed (its references, the definers of the names it references, its chat membership); when no
 * row changed, the ranks of an earlier ranking with the same personalization are reused as they are.
 * Every number is computed by the same code in the same order as a ranking from scratch, so the
 * result is identical (not merely close): the power iteration, whose stopping point depends on where
 * it starts, always starts from the same uniform vector.
 */
export function createRanker(options: RankerOptions = {}): Ranker {
  const { store } = options;
  let tags: ReadonlyMap<string, FileTags> | undefined;
  let index: NameIndex | undefined;
  // Bumped whenever any row's inputs change: rankings of older graphs are dropped.
  let generation = 0;
  let rowsKey = '';
  let plainRows: (EdgeRow | undefined)[] = [];
  let chatRows: (EdgeRow | undefined)[] = [];
  let multipliers: { key: string; generation: number; values: Float64Array } | undefined;
  // The rank store's digest of the index and multipliers, worked out once for both.
  let graphKey: { index: NameIndex; multipliers: Float64Array; digest: string } | undefined;
  const rankings = new Map<string, Ranked>();
  // The references' weights outside the chat, for the index and multipliers they were worked out for.
  let plain: PlainRefWeights | undefined;
  const scratch = defScratch();
  // The base graph of the last ranking (dropped with the graph): a new chat set overlays its rows on it.
  let last: Assembled | undefined;
  let result: { index: NameIndex; ranked: Ranked; limit: number | undefined; value: RankResult } | undefined;
  let work: RankWork | undefined;

  const refreshIndex = (tagsByFile: ReadonlyMap<string, FileTags>): { index: NameIndex; indexed: boolean } => {
    if (index !== undefined && tags !== undefined && sameTags(tags, tagsByFile)) return { index, indexed: false };
    const next = indexTags(tagsByFile);
    const same = index === undefined ? null : unchangedRows(index, next);
    if (same === null || same.includes(0)) {
      generation++;
      rankings.clear();
      last = undefined;
      const keep = (rows: (EdgeRow | undefined)[]): (EdgeRow | undefined)[] =>
        same === null ? [] : rows.map((row, file) => (same[file] === 1 ? row : undefined));
      plainRows = keep(plainRows);
      chatRows = keep(chatRows);
    }
    tags = new Map(tagsByFile);
    index = next;
    return { index: next, indexed: true };
  };

  /** Builds (or patches) the graph and ranks it: rows kept from earlier rankings are reused. */
  const rankAfresh = (index: NameIndex, chat: ReadonlySet<number>, weigh: RefWeight, multipliers: Float64Array, teleport: Float64Array, mentionedIds: readonly number[]): { ranked: Ranked; rowsBuilt: number } => {
    let rowsBuilt = 0;
    const rowTemp = rowScratch(index.files.length);
    const keptAny = index.files.some((_file, source) => (chat.has(source) ? chatRows : plainRows)[source] !== undefined);
    let graph: RankGraph;
    if (keptAny) {
      const rows = index.files.map((_file, source) => {
        const kept = chat.has(source) ? chatRows : plainRows;
        let row = kept[source];
        if (row === undefined) {
          row = buildRow(index, weigh, source, rowTemp);
          kept[source] = row;
          rowsBuilt++;
        }
        return row;
      });
      // The rows that are not the last graph's own stand in for its rows; without a last graph,
      // the kept rows become views of a new one's arrays: the graph is held once, not twice.
      graph = overlaid(last, rows) ?? wholeGraph(assembledFrom(assemble(rows)));
    } else {
      // Nothing kept (a first ranking): every row straight into the adjacency.
      graph = wholeGraph(buildAssembled(index, weigh, rowTemp));
      rowsBuilt = index.files.length;
    }
    if (graph.base !== last) graph.base.rows.forEach((view, source) => ((chat.has(source) ? chatRows : plainRows)[source] = view));
    last = graph.base;
    const { adjacency, inEdges } = graph.base;
    const ranks = pageRankAdjacency(adjacency, { personalization: teleport, inEdges, dangling: graph.dangling, overrides: graph.overrides }).ranks;
    if (plain?.index !== index || plain.multipliers !== multipliers) plain = plainRefWeights(index, multipliers);
    // A new array is all 0; a reused one was left so by the last ranking.
    scratch.byName = atLeast(scratch.byName, index.definerStart.length - 1, (size) => new Float64Array(size));
    const defRanks = definitionRanks(plain, chat, ranks, mentionedIds, {
      chatFactor: RANK_WEIGHTS.referencedFromChat, mentionedFactor: RANK_WEIGHTS.mentionedName, scratch: scratch.byName,
    });
    return { ranked: { graph, weigh, ranks, defRanks }, rowsBuilt };
  };

  return {
    rank(tagsByFile, options) {
      const { index, indexed } = refreshIndex(tagsByFile);
      const chat = new Set(options.chatFiles.flatMap((file) => index.fileIds.get(file) ?? []));
      const mentioned = new Set(options.mentionedIdents ?? []);
      const mentionedIds = mentionedNameIds(index, mentioned);
      const mentionedKey = JSON.stringify([...mentioned].sort());
      if (mentionedKey !== rowsKey) {
        rowsKey = mentionedKey;
        plainRows = [];
        chatRows = [];
        rankings.clear();
        last = undefined;
      }
      if (multipliers?.key !== mentionedKey || multipliers.generation !== generation) {
        multipliers = { key: mentionedKey, generation, values: nameMultipliers(index, mentionedIds) };
      }
      const weigh = refWeigher(multipliers.values, chat);
      const teleport = personalization(index, options, mentionedIds);
      const rankingKey = `${[...chat].sort((a, b) => a - b).join(',')}|${teleport.join(',')}`;
      let ranked = rankings.get(rankingKey);
      let rowsBuilt = 0;
      let stored = false;
      const fresh = ranked === undefined;
      if (ranked === undefined) {
        if (store !== undefined && (graphKey?.index !== index || graphKey.multipliers !== multipliers.values)) {
          graphKey = { index, multipliers: multipliers.values, digest: graphDigest(index, multipliers.values) };
        }
        const digest = graphKey && store && rankingDigest({
          graph: graphKey.digest, chat: [...chat].sort((a, b) => a - b), teleport, mentionedIds, settings: WEIGHTS_TEXT,
        });
        const kept = digest === undefined ? undefined : store?.get(digest, index.files.length, index.definerFiles.length);
        if (kept !== undefined) {
          ranked = { graph: undefined, weigh, ...kept };
          stored = true;
        } else {
          const afresh = rankAfresh(index, chat, weigh, multipliers.values, teleport, mentionedIds);
          ranked = afresh.ranked;
          rowsBuilt = afresh.rowsBuilt;
          if (digest !== undefined) store?.set(digest, { ranks: ranked.ranks, defRanks: ranked.defRanks });
        }
      }
      rankings.delete(rankingKey);
      rankings.set(rankingKey, ranked);
      while (rankings.size > RANKINGS_KEPT) rankings.delete(rankings.keys().next().value ?? '');
      work = { indexed, rowsBuilt, ranked: fresh && !stored, stored };
      // Same index and ranking (a new budget, a repeated request): the items of a limit at least as
      // high are these items' first ones, as topDefinitions promises.
      if (result?.index === index && result.ranked === ranked) {
        const kept = withLimit(result, options.limit);
        if (kept !== undefined) return kept;
      }
      const value = rankedItems(index, chat, ranked, options.limit, scratch);
      result = { index, ranked, limit: options.limit, value };
      return value;
    },
    lastWork: () => work,
  };
}

/** A ranking's result cut to a lower limit of definitions (undefined when the kept one has too few). */
function withLimit(kept: { limit: number | undefined; value: RankResult }, limit: number | undefined): RankResult | undefined {
  if (kept.limit === limit) return kept.value;
  if (limit === undefined || (kept.limit !== undefined && kept.limit < limit)) return undefined;
  const defs = kept.value.items.filter((item) => item.kind === 'def');
  const files = kept.value.items.filter((item) => item.kind === 'file');
  const { value } = kept;
  // Not a spread: that would make the file ranks and the adjacency (see rankedItems) though nobody asks for them.
  return {
    items: [...defs.slice(0, limit), ...files], files: value.files,
    get fileRanks(): ReadonlyMap<string, number> {
      return value.fileRanks;
    },
    get adjacency(): WeightedAdjacency {
      return value.adjacency;
    },
  };
}

/** Rank every definition outside the chat files. Deterministic for the same inputs. */
export function rankDefinitions(tagsByFile: ReadonlyMap<string, FileTags>, options: RankOptions): RankResult {
  return createRanker().rank(tagsByFile, options);
}

function rankedItems(index: NameIndex, chat: ReadonlySet<number>, { graph, weigh, ranks, defRanks }: Ranked, limit: number | undefined, scratch: DefScratch = defScratch()): RankResult {
  // The definitions outside the chat (by index) and their ranks, as numbers.
  scratch.shown = atLeast(scratch.shown, index.defFile.length, (size) => new Int32Array(size));
  scratch.shownRanks = atLeast(scratch.shownRanks, index.defFile.length, (size) => new Float64Array(size));
  const { shown, shownRanks } = scratch;
  let count = 0;
  const bare: { path: string; rank: number }[] = [];
  index.files.forEach((file, fileId) => {
    if (chat.has(fileId)) return;
    const start = index.defStart[fileId] ?? 0;
    const end = index.defStart[fileId + 1] ?? 0;
    if (start === end) bare.push({ path: file, rank: ranks[fileId] ?? 0 });
    for (let k = start; k < end; k++) {
      shown[count] = k;
      shownRanks[count++] = defRanks[index.defSlot[k] ?? 0] ?? 0;
    }
  });
  const best = topDefinitions(index, shown.subarray(0, count), shownRanks.subarray(0, count), ranks, limit, scratch);
  bare.sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const items: RankedItem[] = best.map((d): RankedItem => ({ kind: 'def', tag: d.tag, rank: d.rank }));
  for (const b of bare) items.push({ kind: 'file', path: b.path, rank: b.rank });
  let fileRanks: ReadonlyMap<string, number> | undefined;
  let adjacency: WeightedAdjacency | undefined;
  return {
    items, files: index.files,
    // The map needs neither: made only when asked for.
    get fileRanks(): ReadonlyMap<string, number> {
      fileRanks ??= new Map(index.files.map((file, i) => [file, ranks[i] ?? 0]));
      return fileRanks;
    },
    // One adjacency of the graph's base and its standing-in rows.
    get adjacency(): WeightedAdjacency {
      adjacency ??= flattened(graph ?? wholeGraph(buildAssembled(index, weigh, rowScratch(index.files.length))));
      return adjacency;
    },
  };
}
