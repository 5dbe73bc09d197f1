// A digest of everything a ranking's numbers are computed from, so ranks an earlier process kept
// on disk (rank-store.ts) are taken only for the very same inputs.
import { createHash, type Hash } from 'node:crypto';
import type { NameIndex } from './name-index.js';

/**
 * Bump when a ranking of the same inputs may give other numbers: weights, damping, tolerance, the
 * order in which sums are added. Ranks kept by another version are then never used.
 */
export const RANKING_VERSION = 1;

/** What the power iteration and the definition ranks read besides the graph (graphDigest). */
export interface RankingInputs {
  /** graphDigest of the index and the multipliers. */
  readonly graph: string;
  /** The chat files' ids, ascending: their rows weigh more. */
  readonly chat: readonly number[];
  /** The personalization vector, per file id. */
  readonly teleport: Float64Array;
  /** Ids of the names the request mentions (their definers gain rank directly). */
  readonly mentionedIds: readonly number[];
  /** The weights' settings (RANK_WEIGHTS), as text. */
  readonly settings: string;
}

function addNumbers(hash: Hash, array: Int32Array | Float64Array): void {
  hash.update(`${array.constructor.name}:${array.length}:`);
  hash.update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
}

/** Each file's referenced name ids and counts as one array: [n, ids..., counts...] per file. */
function packedReferences({ refNames, refCounts }: NameIndex): Int32Array {
  let length = 0;
  for (const names of refNames) length += 1 + names.length * 2;
  const packed = new Int32Array(length);
  let at = 0;
  refNames.forEach((names, file) => {
    const counts = refCounts[file] ?? [];
    packed[at++] = names.length;
    for (let k = 0; k < names.length; k++) packed[at++] = names[k] ?? 0;
    for (let k = 0; k < names.length; k++) packed[at++] = counts[k] ?? 0;
  });
  return packed;
}

/**
 * The names some file defines: their ids, each with its count of definers, and their multipliers.
 * Names no file defines weigh nothing and take no definer slot, so a new call of a library function
 * (a new name in the table) leaves the digest as it was.
 */
function definedNames({ definerStart, definerFiles }: NameIndex, multipliers: Float64Array): { ids: Int32Array; multipliers: Float64Array } {
  // At most one defined name per definer slot.
  const ids = new Int32Array(definerFiles.length * 2);
  const weights = new Float64Array(definerFiles.length);
  let count = 0;
  for (let id = 0; id < definerStart.length - 1; id++) {
    const definers = (definerStart[id + 1] ?? 0) - (definerStart[id] ?? 0);
    if (definers === 0) continue;
    ids[count * 2] = id;
    ids[count * 2 + 1] = definers;
    weights[count++] = multipliers[id] ?? 0;
  }
  return { ids: ids.subarray(0, count * 2), multipliers: weights.subarray(0, count) };
}

/**
 * sha256 over the files, each defined name's definers and multiplier (`multipliers`: rank.ts
 * nameMultipliers, through which alone the names' texts count), each file's references and counts:
 * a few MB of typed arrays hashed whole, milliseconds where building the graph takes hundreds. A
 * ranker works it out once per index and multipliers, so a new chat set hashes only its own part.
 */
export function graphDigest(index: NameIndex, multipliers: Float64Array): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([RANKING_VERSION, index.files.length]));
  hash.update(index.files.join('\0'));
  hash.update('\0');
  const defined = definedNames(index, multipliers);
  addNumbers(hash, defined.ids);
  addNumbers(hash, defined.multipliers);
  addNumbers(hash, index.definerFiles);
  addNumbers(hash, packedReferences(index));
  return hash.digest('hex');
}

/**
 * The graph's digest with the chat set, the personalization and the mentioned names: equal digests
 * mean every row, share and sum of a ranking from scratch would be the same numbers, so would its ranks.
 */
export function rankingDigest({ graph, chat, teleport, mentionedIds, settings }: RankingInputs): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([RANKING_VERSION, settings, graph]));
  addNumbers(hash, Int32Array.from(chat));
  addNumbers(hash, teleport);
  addNumbers(hash, Int32Array.from(mentionedIds));
  return hash.digest('hex');
}
