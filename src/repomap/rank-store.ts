// Rankings kept on disk at <root>/.tandem/ranks.cache, so a new process whose ranking inputs are an
// earlier process's (an edit that moved no reference: a touched file, lines moved) takes the ranks
// instead of building the file graph and iterating over it.
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createStateReader, STATE_CAPS, type StateReader } from '../platform/state-files.js';
import { writeAtomically } from '../platform/tag-files.js';

/**
 * Format: one JSON line, {"format","version","endian","entries":[{digest, files, slots, sum}...]},
 * then each entry's numbers in that order: `files` file ranks and `slots` definition ranks as
 * float64 in the writer's byte order (bit for bit what was ranked), `sum` the sha256 of those bytes.
 * A file whose length is not exactly the header's, a bad sum, a number that is not a finite rank
 * >= 0, another format, version or byte order: all read as an empty store.
 */
export const RANK_STORE_VERSION = 1;
const FORMAT = 'tandem-ranks';
const ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 'le' : 'be';
/** A few chat sets per repository; a big tree's entry is ~1 MB. */
export const RANK_STORE_ENTRIES = 4;
/** A ranking is written this long after the last one, unless flush() comes first. */
const WRITE_DELAY_MS = 1000;
/** The header line is small (a few entries); a longer first line is not a header. */
const HEADER_MAX_BYTES = 4096;

/** One ranking's numbers: file ranks by file id, definition ranks by definer slot (rank.ts). */
export interface StoredRanking {
  readonly ranks: Float64Array;
  readonly defRanks: Float64Array;
}

export interface RankStore {
  /** The ranking kept under `digest`, when its sizes are the expected ones. */
  get(digest: string, files: number, slots: number): StoredRanking | undefined;
  /** Remembered now; written once no ranking followed for a moment, or by flush(). */
  set(digest: string, ranking: StoredRanking): void;
}

export interface RankStoreFile extends RankStore {
  /** Writes what set() remembered, if not yet written; resolves once the file is written. */
  flush(): Promise<void>;
}

export interface RankStoreEntry {
  readonly files: number;
  readonly slots: number;
  /** Unchecked bytes as read (checked on use), or the numbers as ranked. */
  readonly bytes?: Uint8Array;
  readonly sum?: string;
  readonly ranking?: StoredRanking;
}

export function rankStorePath(root: string): string {
  return path.join(root, '.tandem', 'ranks.cache');
}

/** The store is read on its first get(), so a process that ranks nothing never reads it. */
export function openRankStore(root: string, reader: StateReader = createStateReader(root)): RankStoreFile {
  const file = rankStorePath(root);
  let entries: Map<string, RankStoreEntry> | undefined;
  const loaded = (): Map<string, RankStoreEntry> => {
    if (entries !== undefined) return entries;
    const read = reader.read(file, STATE_CAPS.ranksCache);
    entries = read.ok ? decodeRankStore(read.data) : new Map();
    return entries;
  };
  let saving: Promise<void> = Promise.resolve();
  let pending: NodeJS.Timeout | undefined;
  const write = (): void => {
    clearTimeout(pending);
    pending = undefined;
    const all = loaded();
    const previous = saving;
    // A failed write only costs the next process a ranking.
    saving = previous.then(() => writeAtomically(file, encodeRankStore(all))).catch(() => {});
  };
  return {
    get(digest, files, slots) {
      const all = loaded();
      const entry = all.get(digest);
      if (entry === undefined || entry.files !== files || entry.slots !== slots) return undefined;
      if (entry.ranking !== undefined) return entry.ranking;
      const ranking = checked(entry);
      if (ranking === undefined) all.delete(digest);
      else all.set(digest, { files, slots, ranking });
      return ranking;
    },
    set(digest, ranking) {
      const all = loaded();
      all.delete(digest);
      all.set(digest, { files: ranking.ranks.length, slots: ranking.defRanks.length, ranking });
      while (all.size > RANK_STORE_ENTRIES) all.delete(all.keys().next().value ?? '');
      // Once the process is idle for a moment (or at flush): encoding a big tree's entries takes
      // tens of ms, which maps asked for one after another (a new chat set, a new budget) would wait for.
      clearTimeout(pending);
      pending = setTimeout(write, WRITE_DELAY_MS);
      pending.unref();
    },
    flush: () => {
      if (pending !== undefined) write();
      return saving;
    },
  };
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** An entry's numbers, when its bytes match their sum and every number is a finite rank >= 0. */
function checked(entry: RankStoreEntry): StoredRanking | undefined {
  if (entry.bytes === undefined || sha256(entry.bytes) !== entry.sum) return undefined;
  // Copied: the bytes may sit at an offset a Float64Array cannot start at.
  const numbers = new Float64Array(entry.files + entry.slots);
  new Uint8Array(numbers.buffer).set(entry.bytes);
  for (const value of numbers) if (!(value >= 0 && value < Infinity)) return undefined;
  return { ranks: numbers.subarray(0, entry.files), defRanks: numbers.subarray(entry.files) };
}

function entryBytes(entry: RankStoreEntry): Uint8Array {
  if (entry.bytes !== undefined) return entry.bytes;
  const numbers = new Float64Array(entry.files + entry.slots);
  numbers.set(entry.ranking?.ranks ?? [], 0);
  numbers.set(entry.ranking?.defRanks ?? [], entry.files);
  return new Uint8Array(numbers.buffer);
}

/** The whole file: header line, then each entry's bytes. Entries too big for the reader's cap are left out, oldest first. */
export function encodeRankStore(entries: ReadonlyMap<string, RankStoreEntry>): Buffer {
  let kept = [...entries].map(([digest, entry]) => ({ digest, entry, bytes: entryBytes(entry) }));
  const total = (): number => kept.reduce((sum, item) => sum + item.bytes.byteLength, HEADER_MAX_BYTES);
  while (kept.length > 0 && total() > STATE_CAPS.ranksCache) kept = kept.slice(1);
  const header = JSON.stringify({
    format: FORMAT, version: RANK_STORE_VERSION, endian: ENDIAN,
    entries: kept.map(({ digest, entry, bytes }) => ({ digest, files: entry.files, slots: entry.slots, sum: entry.sum ?? sha256(bytes) })),
  });
  return Buffer.concat([Buffer.from(`${header}\n`), ...kept.map((item) => item.bytes)]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The entries of a file's bytes (their numbers unchecked until used); empty when it is not a whole store of this version. */
export function decodeRankStore(data: Uint8Array): Map<string, RankStoreEntry> {
  const entries = new Map<string, RankStoreEntry>();
  const end = data.subarray(0, HEADER_MAX_BYTES).indexOf(0x0a);
  if (end < 0) return entries;
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(data.buffer, data.byteOffset, end).toString('utf8'));
  } catch {
    return entries;
  }
  if (!isRecord(header) || header.format !== FORMAT || header.version !== RANK_STORE_VERSION || header.endian !== ENDIAN) return entries;
  const list = header.entries;
  if (!Array.isArray(list) || list.length > RANK_STORE_ENTRIES) return entries;
  let at = end + 1;
  const found = new Map<string, RankStoreEntry>();
  for (const item of list) {
    if (!isRecord(item) || typeof item.digest !== 'string' || typeof item.sum !== 'string' || !isCount(item.files) || !isCount(item.slots)) return entries;
    const length = (item.files + item.slots) * 8;
    if (at + length > data.length) return entries;
    found.set(item.digest, { files: item.files, slots: item.slots, sum: item.sum, bytes: data.subarray(at, at + length) });
    at += length;
  }
  // Anything after the last entry (or a torn last entry) is not a file this module wrote.
  return at === data.length ? found : entries;
}
