// Ranks definitions for the repo map: a weighted file graph (referencing file -> defining file),
// personalized PageRank over it, then each file's rank flows along its edges to (file, name) pairs.

import { MultiDirectedGraph } from 'graphology';
import { NameTable, sharesOneTable } from './name-table.js';
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

/**
 * Names and files as small integers, so the hot loops touch typed arrays rather than maps and
 * strings. Name ids are those of one shared table of names (the tag cache's, or one built here).
 */
interface NameIndex {
  readonly files: string[];
  readonly fileIds: Map<string, number>;
  /** The shared table: name id -> name. */
  readonly names: readonly string[];
  /** Defining files of name id n, ascending: definerFiles[definerStart[n] .. definerStart[n + 1]). */
  readonly definerStart: Int32Array;
  readonly definerFiles: Int32Array;
  /** file id -> referenced (and defined) name ids and their counts (parallel arrays). */
  readonly refNames: number[][];
  readonly refCounts: number[][];
  /** file id -> its distinct definition tags, with each tag's name id. */
  readonly defTags: { tag: Tag; nameId: number }[][];
}

/** Above any line number of a file within the size limit; keeps name * LINE_SPAN + line exact. */
const LINE_SPAN = 2 ** 24;

/** One file's packed tags (names in the shared table) and which of its kinds are definitions. */
interface FileScan {
  readonly packed: PackedTags;
  readonly isDef: readonly boolean[];
}

/** The files' packed tags on one table of names: as they come from the cache, or moved onto a new one. */
function onOneTable(packs: readonly PackedTags[]): { names: readonly string[]; packs: readonly PackedTags[] } {
  if (packs.length > 0 && sharesOneTable(packs)) return { names: packs[0]?.names ?? [], packs };
  const table = new NameTable();
  return { names: table.names, packs: packs.map((packed) => table.adopt(packed)) };
}

function indexTags(tagsByFile: ReadonlyMap<string, FileTags>): NameIndex {
  const files = [...tagsByFile.keys()].sort();
  const fileIds = new Map(files.map((file, i) => [file, i]));
  const { names, packs } = onOneTable(files.map((file) => toPacked(tagsByFile.get(file) ?? [])));
  const scans: FileScan[] = packs.map((packed) => ({ packed, isDef: definitionKinds(packed) }));
  const definerStart = countDefiners(scans, names.length);
  const definerFiles = new Int32Array(definerStart[names.length] ?? 0);
  const index: NameIndex = { files, fileIds, names, definerStart, definerFiles, refNames: [], refCounts: [], defTags: [] };
  // Definitions first: a reference to a name no file defines adds no edge, so it is dropped here.
  const next = definerStart.slice(0, names.length);
  const lastDefiner = new Int32Array(names.length).fill(-1);
  scans.forEach((scan, fileId) => index.defTags.push(indexDefinitions(index, files[fileId] ?? '', fileId, scan, next, lastDefiner)));
  const counts = new Int32Array(names.length);
  for (const scan of scans) countReferences(index, scan, counts);
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

/** Per name id, where its defining files start in one flat array (length: names + 1). */
function countDefiners(scans: readonly FileScan[], nameCount: number): Int32Array {
  const start = new Int32Array(nameCount + 1);
  const lastDefiner = new Int32Array(nameCount).fill(-1);
  scans.forEach(({ packed: { data }, isDef }, fileId) => {
    for (let i = 0; i < data.length; i += 4) {
      if (isDef[data[i + 1] ?? 0] !== true) continue;
      const nameId = data[i] ?? 0;
      if (lastDefiner[nameId] === fileId) continue;
      lastDefiner[nameId] = fileId;
      start[nameId + 1] = (start[nameId + 1] ?? 0) + 1;
    }
  });
  for (let id = 0; id < nameCount; id++) start[id + 1] = (start[id + 1] ?? 0) + (start[id] ?? 0);
  return start;
}

function definerCount(index: NameIndex, nameId: number): number {
  return (index.definerStart[nameId + 1] ?? 0) - (index.definerStart[nameId] ?? 0);
}

function definersOf(index: NameIndex, nameId: number): Int32Array {
  return index.definerFiles.subarray(index.definerStart[nameId] ?? 0, index.definerStart[nameId + 1] ?? 0);
}

/** Records the file as a definer of its names; returns its distinct definitions as Tag objects. */
function indexDefinitions(
  index: NameIndex, file: string, fileId: number, scan: FileScan, next: Int32Array, lastDefiner: Int32Array,
): { tag: Tag; nameId: number }[] {
  const { data, kinds } = scan.packed;
  const defs: { tag: Tag; nameId: number }[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < data.length; i += 4) {
    const kind = data[i + 1] ?? 0;
    if (scan.isDef[kind] !== true) continue;
    const nameId = data[i] ?? 0;
    if (lastDefiner[nameId] !== fileId) {
      lastDefiner[nameId] = fileId;
      const slot = next[nameId] ?? 0;
      index.definerFiles[slot] = fileId;
      next[nameId] = slot + 1;
    }
    const line = data[i + 2] ?? 0;
    // (name, line) as one number: a string key here cost a sixth of the ranking on big trees.
    const identity = nameId * LINE_SPAN + line;
    if (seen.has(identity)) continue;
    seen.add(identity);
    const kindKey = kinds[kind] ?? '';
    const tag: Tag = { path: file, name: index.names[nameId] ?? '', role: 'def', kind: kindKey.slice(kindKey.indexOf(':') + 1), line, endLine: data[i + 3] ?? 0 };
    defs.push({ tag, nameId });
  }
  return defs;
}

/**
 * Counts the file's references per defined name id. Names keep the order of their first
 * reference, so sums of weights are added up in the same order as when every reference was a
 * tag object. `counts` is all zeros on entry and on return (shared by every file).
 */
function countReferences(index: NameIndex, scan: FileScan, counts: Int32Array): void {
  const { data } = scan.packed;
  const order: number[] = [];
  for (let i = 0; i < data.length; i += 4) {
    if (scan.isDef[data[i + 1] ?? 0] === true) continue;
    const nameId = data[i] ?? 0;
    const count = counts[nameId] ?? 0;
    if (count === 0) order.push(nameId);
    counts[nameId] = count + 1;
  }
  const refNames: number[] = [];
  const refCounts: number[] = [];
  for (const nameId of order) {
    if (definerCount(index, nameId) > 0) {
      refNames.push(nameId);
      refCounts.push(counts[nameId] ?? 0);
    }
    counts[nameId] = 0;
  }
  index.refNames.push(refNames);
  index.refCounts.push(refCounts);
}

/** Ids of the defined names among `mentioned`: a scan by length first, so few names are hashed. */
function mentionedNameIds(index: NameIndex, mentioned: ReadonlySet<string>): number[] {
  if (mentioned.size === 0) return [];
  const lengths = new Set([...mentioned].map((name) => name.length));
  const ids: number[] = [];
  for (let id = 0; id < index.names.length; id++) {
    const name = index.names[id] ?? '';
    if (lengths.has(name.length) && definerCount(index, id) > 0 && mentioned.has(name)) ids.push(id);
  }
  return ids;
}

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

/** Weight of one (referencing file, name) pair, applied to each edge towards a definer of the name. */
type RefWeight = (fileId: number, nameId: number, count: number) => number;

function refWeigher(index: NameIndex, chat: ReadonlySet<number>, mentionedIds: readonly number[]): RefWeight {
  const mentioned = new Uint8Array(index.names.length);
  for (const id of mentionedIds) mentioned[id] = 1;
  // Only defined names are ever weighed: the table also holds every local and library name.
  const multipliers = new Float64Array(index.names.length);
  for (let id = 0; id < index.names.length; id++) {
    const count = definerCount(index, id);
    if (count > 0) multipliers[id] = nameMultiplier(index.names[id] ?? '', count, mentioned[id] === 1);
  }
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
      const definers = definersOf(index, nameId);
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

/** Rank of each (name, defining file) pair, parallel to index.definerFiles. */
function definitionRanks(index: NameIndex, weigh: RefWeight, fileRanks: Float64Array, mentionedIds: readonly number[]): Float64Array {
  const ranks = new Float64Array(index.definerFiles.length);
  index.files.forEach((_file, source) => {
    const names = index.refNames[source] ?? [];
    const counts = index.refCounts[source] ?? [];
    const weights = names.map((nameId, k) => weigh(source, nameId, counts[k] ?? 1));
    let total = 0;
    names.forEach((nameId, k) => (total += (weights[k] ?? 0) * definerCount(index, nameId)));
    if (total <= 0) return;
    const share = (fileRanks[source] ?? 0) / total;
    names.forEach((nameId, k) => {
      const start = index.definerStart[nameId] ?? 0;
      const end = index.definerStart[nameId + 1] ?? 0;
      for (let slot = start; slot < end; slot++) ranks[slot] = (ranks[slot] ?? 0) + share * (weights[k] ?? 0);
    });
  });
  // A mentioned name may be referenced by no file at all; the request is then its only referrer.
  for (const nameId of mentionedIds) {
    const start = index.definerStart[nameId] ?? 0;
    definersOf(index, nameId).forEach((fileId, k) => {
      ranks[start + k] = (ranks[start + k] ?? 0) + (fileRanks[fileId] ?? 0) * RANK_WEIGHTS.mentionedName;
    });
  }
  return ranks;
}

function definitionRank(index: NameIndex, defRanks: Float64Array, nameId: number, fileId: number): number {
  const start = index.definerStart[nameId] ?? 0;
  let low = start;
  let high = (index.definerStart[nameId + 1] ?? 0) - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const value = index.definerFiles[mid] ?? 0;
    if (value === fileId) return defRanks[mid] ?? 0;
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
  const mentionedIds = mentionedNameIds(index, mentioned);
  const weigh = refWeigher(index, chat, mentionedIds);
  const adjacency = buildAdjacency(index, weigh);
  const ranks = pageRankAdjacency(adjacency, { personalization: personalization(index, options, mentionedIds) }).ranks;
  const defRanks = definitionRanks(index, weigh, ranks, mentionedIds);

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
