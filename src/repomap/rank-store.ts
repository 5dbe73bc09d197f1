// The ranker's file graph kept on disk at <root>/.tandem/rank.graph, so a new process after one file
// changed rebuilds only the rows that file moves instead of the whole graph (see rank.ts seedRows).
// Binary, little-endian: a header, then the plain (no chat, no mentioned names) rows as one
// compressed adjacency and a fingerprint of each file's tags. Anything that does not check out
// (another version, a torn or foreign file, another file list, a number out of range) reads as absent.
import path from 'node:path';
import { writeAtomically } from '../platform/tag-files.js';
import { createStateReader, STATE_CAPS, type StateReader } from '../platform/state-files.js';
import type { NameIndex } from './name-index.js';
import type { WeightedAdjacency } from './pagerank.js';

/** Bump when a row's numbers for the same tags change (weights, edge rules, fingerprints). */
export const RANK_STORE_VERSION = 1;
const MAGIC = 0x4b4e5254; // "TRNK"
const HEADER_WORDS = 8;

/** A graph as stored: the plain rows of `fileCount` files and each file's tags fingerprint. */
export interface GraphSnapshot {
  /** Digest of the sorted file list the node ids number. */
  readonly filesDigest: readonly [number, number];
  /** Two words per file. */
  readonly fingerprints: Uint32Array;
  /** File f's defined names as digests (two words each): pairs defStarts[f] .. defStarts[f + 1]. */
  readonly defStarts: Int32Array;
  readonly defDigests: Uint32Array;
  readonly adjacency: WeightedAdjacency;
}

export interface GraphStore {
  load(): GraphSnapshot | undefined;
  /** Remembered now, written in the background; flush() waits for the write. */
  save(snapshot: () => GraphSnapshot): void;
  flush(): Promise<void>;
}

export function rankGraphPath(root: string): string {
  return path.join(root, '.tandem', 'rank.graph');
}

export function createGraphStore(root: string, reader: StateReader = createStateReader(root)): GraphStore {
  const file = rankGraphPath(root);
  let writing: Promise<void> = Promise.resolve();
  let pending: (() => GraphSnapshot) | undefined;
  return {
    load() {
      const read = reader.read(file, STATE_CAPS.rankGraph);
      return read.ok ? decodeGraph(read.data) : undefined;
    },
    save(snapshot) {
      const first = pending === undefined;
      pending = snapshot;
      if (!first) return;
      // Encoded after the map is shown, once per burst of rankings: only the newest is written.
      writing = writing
        .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
        .then(async () => {
          const next = pending;
          pending = undefined;
          if (next !== undefined) await writeAtomically(file, encodeGraph(next()));
        })
        .catch(() => undefined);
    },
    flush: () => writing,
  };
}

function byteLength(n: number, edges: number, defs: number): number {
  return HEADER_WORDS * 4 + edges * 8 + n * 8 + (n + 1) * 4 + edges * 4 + (n + 1) * 4 + defs * 8;
}

export function encodeGraph({ filesDigest, fingerprints, defStarts, defDigests, adjacency }: GraphSnapshot): Uint8Array {
  const n = adjacency.nodeCount;
  const edges = adjacency.targets.length;
  const defs = defDigests.length / 2;
  // Float64 first so every array starts aligned to its own size.
  const buffer = new ArrayBuffer(byteLength(n, edges, defs));
  new Uint32Array(buffer, 0, HEADER_WORDS).set([MAGIC, RANK_STORE_VERSION, n, edges, filesDigest[0], filesDigest[1], defs, 0]);
  let at = HEADER_WORDS * 4;
  new Float64Array(buffer, at, edges).set(adjacency.weights);
  at += edges * 8;
  new Uint32Array(buffer, at, n * 2).set(fingerprints);
  at += n * 8;
  new Int32Array(buffer, at, n + 1).set(adjacency.starts);
  at += (n + 1) * 4;
  new Int32Array(buffer, at, edges).set(adjacency.targets);
  at += edges * 4;
  new Int32Array(buffer, at, n + 1).set(defStarts);
  at += (n + 1) * 4;
  new Uint32Array(buffer, at, defs * 2).set(defDigests);
  return new Uint8Array(buffer);
}

export function decodeGraph(data: Uint8Array): GraphSnapshot | undefined {
  if (data.byteLength < HEADER_WORDS * 4) return undefined;
  // Typed views need an aligned start: copy when the bytes sit at an odd offset.
  const bytes = data.byteOffset % 8 === 0 ? data : new Uint8Array(data);
  const { buffer, byteOffset } = bytes;
  const header = new Uint32Array(buffer, byteOffset, HEADER_WORDS);
  const [magic, version, n = 0, edges = 0, digestA = 0, digestB = 0, defs = 0] = header;
  if (magic !== MAGIC || version !== RANK_STORE_VERSION) return undefined;
  if (bytes.byteLength !== byteLength(n, edges, defs)) return undefined;
  let at = byteOffset + HEADER_WORDS * 4;
  const weights = new Float64Array(buffer, at, edges);
  at += edges * 8;
  const fingerprints = new Uint32Array(buffer, at, n * 2);
  at += n * 8;
  const starts = new Int32Array(buffer, at, n + 1);
  at += (n + 1) * 4;
  const targets = new Int32Array(buffer, at, edges);
  at += edges * 4;
  const defStarts = new Int32Array(buffer, at, n + 1);
  at += (n + 1) * 4;
  const defDigests = new Uint32Array(buffer, at, defs * 2);
  if (starts[0] !== 0 || starts[n] !== edges || defStarts[0] !== 0 || defStarts[n] !== defs) return undefined;
  for (let i = 0; i < n; i++) if ((defStarts[i + 1] ?? 0) < (defStarts[i] ?? 0)) return undefined;
  for (let i = 0; i < n; i++) {
    const begin = starts[i] ?? 0;
    const end = starts[i + 1] ?? 0;
    if (end < begin) return undefined;
    // Targets ascending within a row and in range, weights positive and finite: as buildRow makes them.
    let previous = -1;
    for (let k = begin; k < end; k++) {
      const target = targets[k] ?? -1;
      const weight = weights[k] ?? 0;
      if (target <= previous || target >= n || !(weight > 0) || weight === Infinity) return undefined;
      previous = target;
    }
  }
  return { filesDigest: [digestA, digestB], fingerprints, defStarts, defDigests, adjacency: { nodeCount: n, starts, targets, weights } };
}

function hashString(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

function mix(h: number, value: number): number {
  return Math.imul(h ^ value, 0x01000193) >>> 0;
}

const SEED_A = 0x811c9dc5;
const SEED_B = 0x12345679;

/** Two independent 32-bit digests of the sorted file list. */
export function filesDigest(files: readonly string[]): [number, number] {
  let a = SEED_A;
  let b = SEED_B;
  for (const file of files) {
    a = mix(hashString(file, a), 0);
    b = mix(hashString(file, b), 0x2f);
  }
  return [a, b >>> 0];
}

/** Per file a digest of its tags; per name id of the table a digest of its text. */
export interface Fingerprints {
  readonly files: Uint32Array;
  readonly nameA: Uint32Array;
  readonly nameB: Uint32Array;
}

/**
 * Per file, two 32-bit digests of what its row and the rows pointing at it are built from: each
 * tuple's name (as text, so independent of this process's name ids), kind, and reference count.
 */
export function tagFingerprints(index: NameIndex): Fingerprints {
  const { nameA, nameB } = nameDigests(index.names);
  const out = new Uint32Array(index.files.length * 2);
  index.packs.forEach((packed, file) => {
    const kinds = packed.kinds.length;
    const kindA = new Uint32Array(kinds);
    const kindB = new Uint32Array(kinds);
    const isRef = new Uint8Array(kinds);
    packed.kinds.forEach((kind, k) => {
      kindA[k] = hashString(kind, SEED_A);
      kindB[k] = hashString(kind, SEED_B);
      isRef[k] = kind.startsWith('ref:') ? 1 : 0;
    });
    const [a, b] = fileDigest(packed.data, nameA, nameB, kindA, kindB, isRef);
    out[file * 2] = a;
    out[file * 2 + 1] = b;
  });
  return { files: out, nameA, nameB };
}

/** Two digests of every name of the table, in one pass over each name's characters. */
function nameDigests(names: readonly string[]): { nameA: Uint32Array; nameB: Uint32Array } {
  const nameA = new Uint32Array(names.length);
  const nameB = new Uint32Array(names.length);
  for (let id = 0; id < names.length; id++) {
    const text = names[id] ?? '';
    let ha = SEED_A;
    let hb = SEED_B;
    for (let c = 0; c < text.length; c++) {
      const code = text.charCodeAt(c);
      ha = Math.imul(ha ^ code, 0x01000193);
      hb = Math.imul(hb ^ code, 0x01000197);
    }
    nameA[id] = ha >>> 0;
    nameB[id] = hb >>> 0;
  }
  return { nameA, nameB };
}

function fileDigest(data: Int32Array, nameA: Uint32Array, nameB: Uint32Array, kindA: Uint32Array, kindB: Uint32Array, isRef: Uint8Array): [number, number] {
  let a = SEED_A;
  let b = SEED_B;
  for (let i = 0; i < data.length; i += 4) {
    const name = data[i] ?? 0;
    const kind = data[i + 1] ?? 0;
    const count = isRef[kind] === 1 ? (data[i + 3] ?? 1) : 0;
    a = Math.imul(Math.imul(Math.imul(a ^ (nameA[name] ?? 0), 0x01000193) ^ (kindA[kind] ?? 0), 0x01000193) ^ count, 0x01000193);
    b = Math.imul(Math.imul(Math.imul(b ^ (nameB[name] ?? 0), 0x01000193) ^ (kindB[kind] ?? 0), 0x01000193) ^ count, 0x01000193);
  }
  return [a >>> 0, b >>> 0];
}

/** Each file's defined names as digest pairs, file after file (defStarts as in GraphSnapshot). */
export function definedDigests(index: NameIndex, prints: Fingerprints): { defStarts: Int32Array; defDigests: Uint32Array } {
  const n = index.files.length;
  const defStarts = new Int32Array(n + 1);
  const digests = new Uint32Array(index.defName.length * 2);
  // The file that last wrote each name: a name defined twice in one file is kept once.
  const lastFile = new Int32Array(prints.nameA.length).fill(-1);
  let count = 0;
  for (let file = 0; file < n; file++) {
    defStarts[file] = count;
    for (let k = index.defStart[file] ?? 0; k < (index.defStart[file + 1] ?? 0); k++) {
      const name = index.defName[k] ?? 0;
      if (lastFile[name] === file) continue;
      lastFile[name] = file;
      digests[count * 2] = prints.nameA[name] ?? 0;
      digests[count * 2 + 1] = prints.nameB[name] ?? 0;
      count++;
    }
  }
  defStarts[n] = count;
  return { defStarts, defDigests: digests.slice(0, count * 2) };
}

/** What a ranker works out once per index to use or write a stored graph. */
export interface IndexDigests {
  readonly files: readonly [number, number];
  readonly prints: Fingerprints;
  readonly defStarts: Int32Array;
  readonly defDigests: Uint32Array;
}

export function indexDigests(index: NameIndex): IndexDigests {
  const prints = tagFingerprints(index);
  return { files: filesDigest(index.files), prints, ...definedDigests(index, prints) };
}

/** One 53-bit number per name digest pair (exact in a double). */
function nameKey(a: number, b: number): number {
  return a * 2 ** 21 + (b >>> 11);
}

function definedKeys(starts: Int32Array, digests: Uint32Array, file: number): Set<number> {
  const keys = new Set<number>();
  for (let k = starts[file] ?? 0; k < (starts[file + 1] ?? 0); k++) keys.add(nameKey(digests[k * 2] ?? 0, digests[k * 2 + 1] ?? 0));
  return keys;
}

/**
 * The stored rows still true for this index, by file id (undefined: build it). A row is rebuilt when
 * its file's tags changed, when it pointed at a file whose tags changed (a name defined there may be
 * gone), or when it references a name some changed file defines now or defined then (its definers
 * and weight moved). Null when the store is for another file list.
 */
export function storedRows(snapshot: GraphSnapshot, index: NameIndex, now: IndexDigests): ({ targets: Int32Array; weights: Float64Array } | undefined)[] | null {
  const n = index.files.length;
  const { adjacency } = snapshot;
  if (adjacency.nodeCount !== n || snapshot.filesDigest[0] !== now.files[0] || snapshot.filesDigest[1] !== now.files[1]) return null;
  const changed = new Uint8Array(n);
  const dirty = new Uint8Array(n);
  const moved = new Set<number>();
  for (let file = 0; file < n; file++) {
    if (snapshot.fingerprints[file * 2] === now.prints.files[file * 2] && snapshot.fingerprints[file * 2 + 1] === now.prints.files[file * 2 + 1]) continue;
    changed[file] = 1;
    dirty[file] = 1;
    const before = definedKeys(snapshot.defStarts, snapshot.defDigests, file);
    const after = definedKeys(now.defStarts, now.defDigests, file);
    for (const key of before) if (!after.has(key)) moved.add(key);
    for (const key of after) if (!before.has(key)) moved.add(key);
  }
  const { starts, targets, weights } = adjacency;
  for (let source = 0; source < n; source++) {
    for (let k = starts[source] ?? 0; k < (starts[source + 1] ?? 0); k++) {
      if (changed[targets[k] ?? 0] === 1) {
        dirty[source] = 1;
        break;
      }
    }
  }
  if (moved.size > 0) {
    const { nameA, nameB } = now.prints;
    const movedId = new Uint8Array(nameA.length);
    for (let id = 0; id < nameA.length; id++) if (moved.has(nameKey(nameA[id] ?? 0, nameB[id] ?? 0))) movedId[id] = 1;
    index.refNames.forEach((names, source) => {
      if (dirty[source] === 1) return;
      for (const id of names) {
        if (movedId[id] === 1) {
          dirty[source] = 1;
          return;
        }
      }
    });
  }
  const rows: ({ targets: Int32Array; weights: Float64Array } | undefined)[] = [];
  for (let source = 0; source < n; source++) {
    const begin = starts[source] ?? 0;
    const end = starts[source + 1] ?? 0;
    rows.push(dirty[source] === 1 ? undefined : { targets: targets.subarray(begin, end), weights: weights.subarray(begin, end) });
  }
  return rows;
}
