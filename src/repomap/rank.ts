// Ranks definitions for the repo map: a weighted file graph (referencing file -> defining file),
// personalized PageRank over it, then each file's rank flows along its edges to (file, name) pairs.

import { MultiDirectedGraph } from 'graphology';
import { definitionKinds, toPacked, type FileTags, type PackedTags } from './packed-tags.js';
import type { Tag } from './tag.js';
import { pageRankAdjacency, type WeightedAdjacency } from './pagerank.js';

export interface RankOptions {
  /** Files in the chat: personalized, their references weigh more, their definitions are left out. */
  readonly chatFiles: readonly string[];
  /** Files named in the request (or read-only context): personalized. */
  readonly mentionedFiles?: readonly string[];
  /** Identifiers named in the request: their edges weigh more, matching file stems are personalized. */
  readonly mentionedIdents?: readonly string[];
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

/** Names and files as small integers, so the hot loops touch arrays rather than maps and strings. */
interface NameIndex {
  readonly files: string[];
  readonly fileIds: Map<string, number>;
  readonly nameIds: Map<string, number>;
  readonly names: string[];
  /** name id -> defining file ids, ascending. */
  readonly definers: number[][];
  /** file id -> referenced name ids and their counts (parallel arrays). */
  readonly refNames: number[][];
  readonly refCounts: number[][];
  /** file id -> its distinct definition tags, with each tag's name id. */
  readonly defTags: { tag: Tag; nameId: number }[][];
}

/** Above any line number of a file within the size limit; keeps name * LINE_SPAN + line exact. */
const LINE_SPAN = 2 ** 24;

/** One file's packed tags and which of its kinds are definitions. */
interface FileScan {
  readonly packed: PackedTags;
  readonly isDef: readonly boolean[];
}

function indexTags(tagsByFile: ReadonlyMap<string, FileTags>): NameIndex {
  const files = [...tagsByFile.keys()].sort();
  const fileIds = new Map(files.map((file, i) => [file, i]));
  const scans: FileScan[] = files.map((file) => {
    const packed = toPacked(tagsByFile.get(file) ?? []);
    return { packed, isDef: definitionKinds(packed) };
  });
  const index: NameIndex = { files, fileIds, nameIds: new Map(), names: [], definers: [], refNames: [], refCounts: [], defTags: [] };
  // Definitions first: a reference to a name no file defines adds no edge, so it is skipped
  // without ever entering the name index (most references are locals and library names).
  scans.forEach((scan, fileId) => index.defTags.push(indexDefinitions(index, files[fileId] ?? '', fileId, scan)));
  for (const scan of scans) countReferences(index, scan);
  // Without any references (no query, no identifiers) let definitions stand in, so ranks still differ.
  if (index.refNames.every((list) => list.length === 0)) {
    index.defTags.forEach((defs, fileId) => {
      const unique = [...new Set(defs.map((d) => d.nameId))];
      index.refNames[fileId] = unique;
      index.refCounts[fileId] = unique.map(() => 1);
    });
  }
  return index;
}

/** Registers the file's defined names; returns its distinct definitions as Tag objects. */
function indexDefinitions(index: NameIndex, file: string, fileId: number, scan: FileScan): { tag: Tag; nameId: number }[] {
  const { data, names, kinds } = scan.packed;
  const localIds = new Int32Array(names.length).fill(-1);
  const defs: { tag: Tag; nameId: number }[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += 4) {
    const kind = data[i + 1] ?? 0;
    if (scan.isDef[kind] !== true) continue;
    const local = data[i] ?? 0;
    let nameId = localIds[local] ?? -1;
    if (nameId < 0) {
      nameId = nameIdOf(index, names[local] ?? '');
      localIds[local] = nameId;
    }
    const list = index.definers[nameId] ?? [];
    if (list[list.length - 1] !== fileId) list.push(fileId);
    const line = data[i + 2] ?? 0;
    // (name, line) as one number: a string key here cost a sixth of the ranking on big trees.
    const identity = nameId * LINE_SPAN + line;
    if (seen.has(identity)) continue;
    seen.add(identity);
    const kindKey = kinds[kind] ?? '';
    const tag: Tag = { path: file, name: names[local] ?? '', role: 'def', kind: kindKey.slice(kindKey.indexOf(':') + 1), line, endLine: data[i + 3] ?? 0 };
    defs.push({ tag, nameId });
  }
  return defs;
}

function nameIdOf(index: NameIndex, name: string): number {
  let id = index.nameIds.get(name);
  if (id === undefined) {
    id = index.names.length;
    index.nameIds.set(name, id);
    index.names.push(name);
    index.definers.push([]);
  }
  return id;
}

/**
 * Counts the file's references per distinct name (over the packed numbers), then looks each
 * distinct name up once. Names keep the order of their first reference, so sums of weights
 * are added up in the same order as when every reference was a tag object.
 */
function countReferences(index: NameIndex, scan: FileScan): void {
  const { data, names } = scan.packed;
  const counts = new Int32Array(names.length);
  const order: number[] = [];
  for (let i = 0; i < data.length; i += 4) {
    if (scan.isDef[data[i + 1] ?? 0] === true) continue;
    const local = data[i] ?? 0;
    if (counts[local] === 0) order.push(local);
    counts[local] = (counts[local] ?? 0) + 1;
  }
  const refNames: number[] = [];
  const refCounts: number[] = [];
  for (const local of order) {
    const nameId = index.nameIds.get(names[local] ?? '');
    if (nameId === undefined) continue;
    refNames.push(nameId);
    refCounts.push(counts[local] ?? 0);
  }
  index.refNames.push(refNames);
  index.refCounts.push(refCounts);
}

function isDescriptive(name: string): boolean {
  if (name.length < RANK_WEIGHTS.descriptiveMinLength) return false;
  return name.includes('_') || /[a-z0-9][A-Z]/.test(name) || name.includes('-');
}

function nameMultiplier(name: string, definerCount: number, mentioned: ReadonlySet<string>): number {
  let multiplier = 1;
  if (mentioned.has(name)) multiplier *= RANK_WEIGHTS.mentionedName;
  if (isDescriptive(name)) multiplier *= RANK_WEIGHTS.descriptiveName;
  if (name.startsWith('_')) multiplier *= RANK_WEIGHTS.privateName;
  if (definerCount > RANK_WEIGHTS.widelyDefinedLimit) multiplier *= RANK_WEIGHTS.widelyDefinedName;
  return multiplier;
}

/** Weight of one (referencing file, name) pair, applied to each edge towards a definer of the name. */
type RefWeight = (fileId: number, nameId: number, count: number) => number;

function refWeigher(index: NameIndex, chat: ReadonlySet<number>, mentioned: ReadonlySet<string>): RefWeight {
  const multipliers = index.names.map((name, id) => nameMultiplier(name, index.definers[id]?.length ?? 0, mentioned));
  return (fileId, nameId, count) =>
    (multipliers[nameId] ?? 0) * Math.sqrt(count) * (chat.has(fileId) ? RANK_WEIGHTS.referencedFromChat : 1);
}

/** Edges from each referencing file to each file defining a referenced name; parallel edges summed. */
function buildAdjacency(index: NameIndex, weigh: RefWeight): WeightedAdjacency {
  const count = index.files.length;
  const row = new Float64Array(count);
  const touched = new Int32Array(count);
  const starts = new Int32Array(count + 1);
  const edges = new EdgeList();
  for (let source = 0; source < count; source++) {
    starts[source] = edges.length;
    let touchedCount = 0;
    const names = index.refNames[source] ?? [];
    const counts = index.refCounts[source] ?? [];
    for (let k = 0; k < names.length; k++) {
      const nameId = names[k] ?? 0;
      const definers = index.definers[nameId] ?? [];
      if (definers.length === 0) continue;
      const weight = weigh(source, nameId, counts[k] ?? 1);
      for (const target of definers) {
        if (row[target] === 0) touched[touchedCount++] = target;
        row[target] = (row[target] ?? 0) + weight;
      }
    }
    // Targets ascending: sort the few touched, or sweep the row when a file reaches many files.
    if (touchedCount * 8 < count) {
      for (const target of touched.subarray(0, touchedCount).sort()) edges.push(target, row[target] ?? 0);
      for (let t = 0; t < touchedCount; t++) row[touched[t] ?? 0] = 0;
    } else {
      for (let target = 0; target < count; target++) {
        if (row[target] === 0) continue;
        edges.push(target, row[target] ?? 0);
        row[target] = 0;
      }
    }
  }
  starts[count] = edges.length;
  return { nodeCount: count, starts, targets: edges.targets.slice(0, edges.length), weights: edges.weights.slice(0, edges.length) };
}

/** Growable parallel typed arrays of edge targets and weights. */
class EdgeList {
  targets = new Int32Array(1024);
  weights = new Float64Array(1024);
  length = 0;

  push(target: number, weight: number): void {
    if (this.length === this.targets.length) {
      const targets = new Int32Array(this.length * 2);
      targets.set(this.targets);
      const weights = new Float64Array(this.length * 2);
      weights.set(this.weights);
      this.targets = targets;
      this.weights = weights;
    }
    this.targets[this.length] = target;
    this.weights[this.length] = weight;
    this.length++;
  }
}

/** The ranking's file graph as a graphology graph (for inspection and for checking the ranks). */
export function fileGraphOf(files: readonly string[], adjacency: WeightedAdjacency): MultiDirectedGraph {
  const graph = new MultiDirectedGraph();
  for (const file of files) graph.addNode(file);
  for (let source = 0; source < adjacency.nodeCount; source++) {
    for (let j = adjacency.starts[source] ?? 0; j < (adjacency.starts[source + 1] ?? 0); j++) {
      graph.addEdge(files[source] ?? '', files[adjacency.targets[j] ?? 0] ?? '', { weight: adjacency.weights[j] ?? 0 });
    }
  }
  return graph;
}

function normalizeStem(text: string): string {
  return text.toLowerCase().replace(/[-_.]/g, '');
}

function fileStem(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.indexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function personalization(index: NameIndex, options: RankOptions): Float64Array {
  const chosen = new Float64Array(index.files.length);
  for (const file of [...options.chatFiles, ...(options.mentionedFiles ?? [])]) {
    const id = index.fileIds.get(file);
    if (id !== undefined) chosen[id] = 1;
  }
  // The request itself points at the files defining the names it mentions.
  for (const name of options.mentionedIdents ?? []) {
    for (const id of index.definers[index.nameIds.get(name) ?? -1] ?? []) chosen[id] = 1;
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

/** Rank of each (name, defining file) pair, stored at slotStart[name] + position among its definers. */
interface DefinitionRanks {
  readonly slotStart: Int32Array;
  readonly ranks: Float64Array;
}

function definitionRanks(index: NameIndex, weigh: RefWeight, fileRanks: Float64Array, mentioned: ReadonlySet<string>): DefinitionRanks {
  const slotStart = new Int32Array(index.names.length + 1);
  index.definers.forEach((list, nameId) => (slotStart[nameId + 1] = (slotStart[nameId] ?? 0) + list.length));
  const ranks = new Float64Array(slotStart[index.names.length] ?? 0);
  index.files.forEach((_file, source) => {
    const names = index.refNames[source] ?? [];
    const counts = index.refCounts[source] ?? [];
    const weights = names.map((nameId, k) => weigh(source, nameId, counts[k] ?? 1));
    let total = 0;
    names.forEach((nameId, k) => (total += (weights[k] ?? 0) * (index.definers[nameId]?.length ?? 0)));
    if (total <= 0) return;
    const share = (fileRanks[source] ?? 0) / total;
    names.forEach((nameId, k) => {
      const start = slotStart[nameId] ?? 0;
      const length = index.definers[nameId]?.length ?? 0;
      for (let slot = start; slot < start + length; slot++) ranks[slot] = (ranks[slot] ?? 0) + share * (weights[k] ?? 0);
    });
  });
  // A mentioned name may be referenced by no file at all; the request is then its only referrer.
  for (const name of mentioned) {
    const nameId = index.nameIds.get(name);
    if (nameId === undefined) continue;
    (index.definers[nameId] ?? []).forEach((fileId, k) => {
      const slot = (slotStart[nameId] ?? 0) + k;
      ranks[slot] = (ranks[slot] ?? 0) + (fileRanks[fileId] ?? 0) * RANK_WEIGHTS.mentionedName;
    });
  }
  return { slotStart, ranks };
}

function definitionRank(index: NameIndex, defRanks: DefinitionRanks, nameId: number, fileId: number): number {
  const list = index.definers[nameId] ?? [];
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const value = list[mid] ?? 0;
    if (value === fileId) return defRanks.ranks[(defRanks.slotStart[nameId] ?? 0) + mid] ?? 0;
    if (value < fileId) low = mid + 1;
    else high = mid - 1;
  }
  return 0;
}

/** Rank every definition outside the chat files. Deterministic for the same inputs. */
export function rankDefinitions(tagsByFile: ReadonlyMap<string, FileTags>, options: RankOptions): RankResult {
  const index = indexTags(tagsByFile);
  const chat = new Set(options.chatFiles.flatMap((file) => index.fileIds.get(file) ?? []));
  const mentioned = new Set(options.mentionedIdents ?? []);
  const weigh = refWeigher(index, chat, mentioned);
  const adjacency = buildAdjacency(index, weigh);
  const ranks = pageRankAdjacency(adjacency, { personalization: personalization(index, options) }).ranks;
  const defRanks = definitionRanks(index, weigh, ranks, mentioned);

  const defs: Candidate[] = [];
  const bare: { path: string; rank: number }[] = [];
  index.files.forEach((file, fileId) => {
    if (chat.has(fileId)) return;
    const fileRank = ranks[fileId] ?? 0;
    const tags = index.defTags[fileId] ?? [];
    if (tags.length === 0) bare.push({ path: file, rank: fileRank });
    for (const { tag, nameId } of tags) defs.push({ tag, rank: definitionRank(index, defRanks, nameId, fileId), fileRank });
  });
  defs.sort(compareDefs);
  bare.sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const items: RankedItem[] = defs.map((d): RankedItem => ({ kind: 'def', tag: d.tag, rank: d.rank }));
  for (const b of bare) items.push({ kind: 'file', path: b.path, rank: b.rank });
  const fileRanks = new Map(index.files.map((file, i) => [file, ranks[i] ?? 0]));
  return { items, fileRanks, files: index.files, adjacency };
}
