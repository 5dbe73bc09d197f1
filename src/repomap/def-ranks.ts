// Definition ranks: each file's rank flows along its references to the (name, defining file) pairs.
// What does not depend on the chat set (each reference's weight outside the chat, each file's total)
// is worked out once per index and weights and kept for the next ranking.

import { definersOf, type NameIndex } from './name-index.js';

/**
 * Each reference's weight as a file outside the chat gives it (name multiplier times the square
 * root of its count), flat over every file's references (file f's at starts[f] .. starts[f + 1]),
 * and each file's total (each weight times its name's definer count, summed in reference order).
 */
export interface PlainRefWeights {
  readonly index: NameIndex;
  readonly multipliers: Float64Array;
  readonly starts: Int32Array;
  readonly weights: Float64Array;
  readonly totals: Float64Array;
}

/** The weights of `index`'s references for files outside the chat, with name `multipliers` (see rank.ts). */
export function plainRefWeights(index: NameIndex, multipliers: Float64Array): PlainRefWeights {
  const fileCount = index.files.length;
  const starts = new Int32Array(fileCount + 1);
  for (let file = 0; file < fileCount; file++) starts[file + 1] = (starts[file] ?? 0) + (index.refNames[file]?.length ?? 0);
  const weights = new Float64Array(starts[fileCount] ?? 0);
  const totals = new Float64Array(fileCount);
  const { definerStart } = index;
  for (let file = 0; file < fileCount; file++) {
    const names = index.refNames[file] ?? [];
    const counts = index.refCounts[file] ?? [];
    const at = starts[file] ?? 0;
    let total = 0;
    for (let k = 0; k < names.length; k++) {
      const nameId = names[k] ?? 0;
      // As rank.ts's refWeigher computes it for a file outside the chat (times 1, which changes no bit).
      const weight = (multipliers[nameId] ?? 0) * Math.sqrt(counts[k] ?? 1);
      weights[at + k] = weight;
      total += weight * ((definerStart[nameId + 1] ?? 0) - (definerStart[nameId] ?? 0));
    }
    totals[file] = total;
  }
  return { index, multipliers, starts, weights, totals };
}

/** What definitionRanks needs besides the weights: the chat files' factor, and the mentioned names' one. */
export interface DefinitionRankOptions {
  /** A chat file's references weigh this many times more (rank.ts's RANK_WEIGHTS.referencedFromChat). */
  readonly chatFactor: number;
  /** A mentioned name's definers get their own file rank times this (RANK_WEIGHTS.mentionedName). */
  readonly mentionedFactor: number;
  /** Scratch of at least one entry per name, all 0 (left all 0): reused between rankings. */
  readonly scratch?: Float64Array;
}

/**
 * Rank of each (name, defining file) pair, parallel to index.definerFiles. Every definer of a name
 * gets the same additions in the same order (the referencing files', ascending), so each name's sum
 * is worked out once and copied to its definers: the very numbers a sum per definer gives.
 */
export function definitionRanks(plain: PlainRefWeights, chat: ReadonlySet<number>, fileRanks: Float64Array, mentionedIds: readonly number[], options: DefinitionRankOptions): Float64Array {
  const { index, starts, weights, totals } = plain;
  const { definerStart } = index;
  const nameCount = definerStart.length - 1;
  const byName = options.scratch !== undefined && options.scratch.length >= nameCount ? options.scratch : new Float64Array(nameCount);
  for (let source = 0; source < index.files.length; source++) {
    const names = index.refNames[source] ?? [];
    const at = starts[source] ?? 0;
    const inChat = chat.has(source);
    let total = totals[source] ?? 0;
    if (inChat) {
      // Weighted as in the chat: the same products, each times the chat factor, summed again.
      total = 0;
      for (let k = 0; k < names.length; k++) {
        const nameId = names[k] ?? 0;
        total += (weights[at + k] ?? 0) * options.chatFactor * ((definerStart[nameId + 1] ?? 0) - (definerStart[nameId] ?? 0));
      }
    }
    if (total <= 0) continue;
    const share = (fileRanks[source] ?? 0) / total;
    for (let k = 0; k < names.length; k++) {
      const nameId = names[k] ?? 0;
      const weight = inChat ? (weights[at + k] ?? 0) * options.chatFactor : (weights[at + k] ?? 0);
      byName[nameId] = (byName[nameId] ?? 0) + share * weight;
    }
  }
  const ranks = new Float64Array(index.definerFiles.length);
  for (let nameId = 0; nameId < nameCount; nameId++) {
    const rank = byName[nameId] ?? 0;
    if (rank === 0) continue;
    byName[nameId] = 0;
    const end = definerStart[nameId + 1] ?? 0;
    for (let slot = definerStart[nameId] ?? 0; slot < end; slot++) ranks[slot] = rank;
  }
  // A mentioned name may be referenced by no file at all; the request is then its only referrer.
  for (const nameId of mentionedIds) {
    const start = definerStart[nameId] ?? 0;
    definersOf(index, nameId).forEach((fileId, k) => {
      ranks[start + k] = (ranks[start + k] ?? 0) + (fileRanks[fileId] ?? 0) * options.mentionedFactor;
    });
  }
  return ranks;
}
