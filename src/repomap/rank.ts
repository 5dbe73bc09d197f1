// Ranks definitions for the repo map: a weighted file graph (referencing file -> defining file),
// personalized PageRank over it, then each file's rank flows along its edges to (file, name) pairs.

import { MultiDirectedGraph } from 'graphology';
import type { Tag } from './tag.js';
import { personalizedPageRank } from './pagerank.js';

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

interface NameIndex {
  readonly files: string[];
  readonly fileIds: Map<string, number>;
  readonly definers: Map<string, number[]>;
  /** name -> (referencing file id -> count) */
  readonly references: Map<string, Map<number, number>>;
  readonly defTags: Tag[][];
}

function indexTags(tagsByFile: ReadonlyMap<string, readonly Tag[]>): NameIndex {
  const files = [...tagsByFile.keys()].sort();
  const fileIds = new Map(files.map((file, i) => [file, i]));
  const definers = new Map<string, number[]>();
  const references = new Map<string, Map<number, number>>();
  const defTags: Tag[][] = files.map(() => []);
  files.forEach((file, id) => {
    for (const tag of tagsByFile.get(file) ?? []) {
      if (tag.role === 'def') {
        defTags[id]?.push(tag);
        const list = definers.get(tag.name) ?? [];
        if (list[list.length - 1] !== id) list.push(id);
        definers.set(tag.name, list);
        continue;
      }
      const counts = references.get(tag.name) ?? new Map<number, number>();
      counts.set(id, (counts.get(id) ?? 0) + 1);
      references.set(tag.name, counts);
    }
  });
  // Without any references (no query, no identifiers) let definitions stand in, so ranks still differ.
  if (references.size === 0) {
    for (const [name, ids] of definers) references.set(name, new Map(ids.map((id) => [id, 1])));
  }
  return { files, fileIds, definers, references, defTags };
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

/** One (referencing file -> defining file, name) contribution; parallel arrays keep it compact. */
interface Contributions {
  readonly sources: number[];
  readonly targets: number[];
  readonly names: string[];
  readonly weights: number[];
}

function collectContributions(index: NameIndex, chat: ReadonlySet<number>, mentioned: ReadonlySet<string>): Contributions {
  const out: Contributions = { sources: [], targets: [], names: [], weights: [] };
  const names = [...index.definers.keys()].sort();
  for (const name of names) {
    const refs = index.references.get(name);
    const defs = index.definers.get(name);
    if (refs === undefined || defs === undefined) continue;
    const multiplier = nameMultiplier(name, defs.length, mentioned);
    for (const [source, count] of refs) {
      const weight = multiplier * Math.sqrt(count) * (chat.has(source) ? RANK_WEIGHTS.referencedFromChat : 1);
      for (const target of defs) {
        out.sources.push(source);
        out.targets.push(target);
        out.names.push(name);
        out.weights.push(weight);
      }
    }
  }
  return out;
}

function buildGraph(files: readonly string[], contributions: Contributions): MultiDirectedGraph {
  const graph = new MultiDirectedGraph();
  for (const file of files) graph.addNode(file);
  // Parallel edges sum in PageRank, so one edge per file pair gives the same ranks with far fewer edges.
  const pairWeights = new Map<number, number>();
  const count = files.length;
  contributions.sources.forEach((source, i) => {
    const key = source * count + (contributions.targets[i] ?? 0);
    pairWeights.set(key, (pairWeights.get(key) ?? 0) + (contributions.weights[i] ?? 0));
  });
  for (const [key, weight] of pairWeights) {
    const source = files[Math.floor(key / count)] ?? '';
    const target = files[key % count] ?? '';
    graph.addEdge(source, target, { weight });
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

function personalization(index: NameIndex, options: RankOptions): Map<string, number> {
  const chosen = new Map<string, number>();
  for (const file of [...options.chatFiles, ...(options.mentionedFiles ?? [])]) {
    if (index.fileIds.has(file)) chosen.set(file, 1);
  }
  // The request itself points at the files defining the names it mentions.
  for (const name of options.mentionedIdents ?? []) {
    for (const id of index.definers.get(name) ?? []) chosen.set(index.files[id] ?? '', 1);
  }
  const idents = new Set((options.mentionedIdents ?? []).map(normalizeStem).filter((s) => s.length >= 3));
  if (idents.size === 0) return chosen;
  for (const file of index.files) {
    if (idents.has(normalizeStem(fileStem(file)))) chosen.set(file, 1);
  }
  return chosen;
}

function compareDefs(a: { tag: Tag; rank: number; fileRank: number }, b: { tag: Tag; rank: number; fileRank: number }): number {
  if (a.rank !== b.rank) return b.rank - a.rank;
  if (a.fileRank !== b.fileRank) return b.fileRank - a.fileRank;
  if (a.tag.path !== b.tag.path) return a.tag.path < b.tag.path ? -1 : 1;
  if (a.tag.line !== b.tag.line) return a.tag.line - b.tag.line;
  return a.tag.name < b.tag.name ? -1 : a.tag.name > b.tag.name ? 1 : 0;
}

function definitionRanks(
  index: NameIndex,
  contributions: Contributions,
  fileRanks: ReadonlyMap<string, number>,
  mentioned: ReadonlySet<string>,
): Map<string, number> {
  const outWeight = new Float64Array(index.files.length);
  contributions.sources.forEach((source, i) => {
    outWeight[source] = (outWeight[source] ?? 0) + (contributions.weights[i] ?? 0);
  });
  const ranks = new Map<string, number>();
  contributions.sources.forEach((source, i) => {
    const total = outWeight[source] ?? 0;
    if (total <= 0) return;
    const sourceRank = fileRanks.get(index.files[source] ?? '') ?? 0;
    const key = `${contributions.targets[i] ?? 0}\0${contributions.names[i] ?? ''}`;
    ranks.set(key, (ranks.get(key) ?? 0) + (sourceRank * (contributions.weights[i] ?? 0)) / total);
  });
  // A mentioned name may be referenced by no file at all; the request is then its only referrer.
  for (const name of mentioned) {
    for (const id of index.definers.get(name) ?? []) {
      const key = `${id}\0${name}`;
      const fileRank = fileRanks.get(index.files[id] ?? '') ?? 0;
      ranks.set(key, (ranks.get(key) ?? 0) + fileRank * RANK_WEIGHTS.mentionedName);
    }
  }
  return ranks;
}

/** Rank every definition outside the chat files. Deterministic for the same inputs. */
export function rankDefinitions(tagsByFile: ReadonlyMap<string, readonly Tag[]>, options: RankOptions): RankResult {
  const index = indexTags(tagsByFile);
  const chat = new Set(options.chatFiles.flatMap((file) => index.fileIds.get(file) ?? []));
  const mentioned = new Set(options.mentionedIdents ?? []);
  const contributions = collectContributions(index, chat, mentioned);
  const graph = buildGraph(index.files, contributions);
  const fileRanks = personalizedPageRank(graph, { personalization: personalization(index, options) }).ranks;
  const defRanks = definitionRanks(index, contributions, fileRanks, mentioned);

  const defs: { tag: Tag; rank: number; fileRank: number }[] = [];
  const bare: { path: string; rank: number }[] = [];
  index.files.forEach((file, id) => {
    if (chat.has(id)) return;
    const fileRank = fileRanks.get(file) ?? 0;
    const tags = index.defTags[id] ?? [];
    if (tags.length === 0) bare.push({ path: file, rank: fileRank });
    const seen = new Set<string>();
    for (const tag of tags) {
      const identity = `${tag.line}\0${tag.name}`;
      if (seen.has(identity)) continue;
      seen.add(identity);
      defs.push({ tag, rank: defRanks.get(`${id}\0${tag.name}`) ?? 0, fileRank });
    }
  });
  defs.sort(compareDefs);
  bare.sort((a, b) => b.rank - a.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const items: RankedItem[] = [
    ...defs.map((d): RankedItem => ({ kind: 'def', tag: d.tag, rank: d.rank })),
    ...bare.map((b): RankedItem => ({ kind: 'file', path: b.path, rank: b.rank })),
  ];
  return { items, fileRanks };
}
