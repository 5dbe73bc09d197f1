// Definition ranks summed once per name and copied to its definers are, bit for bit, the sums per
// (name, definer) pair that rank.ts computed before: chat files, mentioned names, a reused scratch.
import { describe, expect, it } from 'vitest';
import { definitionRanks, plainRefWeights } from '../../src/repomap/def-ranks.js';
import { definersOf, indexTags, mentionedNameIds, type NameIndex } from '../../src/repomap/name-index.js';
import { RANK_WEIGHTS } from '../../src/repomap/rank.js';
import { generatedRepo, SMALL_REPO, tagsFor } from './map-fixture.js';

/** The sum per (name, definer) pair, as rank.ts wrote it before: the reference the new code must equal. */
function perDefiner(index: NameIndex, multipliers: Float64Array, chat: ReadonlySet<number>, fileRanks: Float64Array, mentionedIds: readonly number[]): Float64Array {
  const weigh = (fileId: number, nameId: number, count: number): number =>
    (multipliers[nameId] ?? 0) * Math.sqrt(count) * (chat.has(fileId) ? RANK_WEIGHTS.referencedFromChat : 1);
  const ranks = new Float64Array(index.definerFiles.length);
  const { definerStart } = index;
  for (let source = 0; source < index.files.length; source++) {
    const names = index.refNames[source] ?? [];
    const counts = index.refCounts[source] ?? [];
    const weights = names.map((nameId, k) => weigh(source, nameId, counts[k] ?? 1));
    let total = 0;
    names.forEach((nameId, k) => (total += (weights[k] ?? 0) * ((definerStart[nameId + 1] ?? 0) - (definerStart[nameId] ?? 0))));
    if (total <= 0) continue;
    const share = (fileRanks[source] ?? 0) / total;
    names.forEach((nameId, k) => {
      const add = share * (weights[k] ?? 0);
      for (let slot = definerStart[nameId] ?? 0; slot < (definerStart[nameId + 1] ?? 0); slot++) ranks[slot] = (ranks[slot] ?? 0) + add;
    });
  }
  for (const nameId of mentionedIds) {
    const start = definerStart[nameId] ?? 0;
    definersOf(index, nameId).forEach((fileId, k) => (ranks[start + k] = (ranks[start + k] ?? 0) + (fileRanks[fileId] ?? 0) * RANK_WEIGHTS.mentionedName));
  }
  return ranks;
}

/** Uneven multipliers and file ranks, the same on every run. */
function inputs(index: NameIndex): { multipliers: Float64Array; fileRanks: Float64Array } {
  const multipliers = new Float64Array(index.definerStart.length - 1).map((_v, i) => (i % 7 === 0 ? 0.1 : i % 5 === 0 ? 10 : 1));
  const fileRanks = new Float64Array(index.files.length).map((_v, i) => 1 / (3 + i * 1.37));
  return { multipliers, fileRanks };
}

const options = { chatFactor: RANK_WEIGHTS.referencedFromChat, mentionedFactor: RANK_WEIGHTS.mentionedName };

describe('definitionRanks', () => {
  for (const [label, files] of [['small repository', SMALL_REPO], ['generated repository', generatedRepo(40)]] as const) {
    it(`equals the sum per definer bit for bit (${label})`, () => {
      const index = indexTags(tagsFor(files));
      const { multipliers, fileRanks } = inputs(index);
      const plain = plainRefWeights(index, multipliers);
      const scratch = new Float64Array(index.definerStart.length - 1);
      const mentioned = mentionedNameIds(index, new Set(index.names.filter((_n, i) => i % 3 === 0).slice(0, 4)));
      const chats = [new Set<number>(), new Set([0]), new Set([1, index.files.length - 1])];
      for (const chat of chats) {
        for (const mentionedIds of [[], mentioned]) {
          const got = definitionRanks(plain, chat, fileRanks, mentionedIds, { ...options, scratch });
          expect(Buffer.from(got.buffer)).toEqual(Buffer.from(perDefiner(index, multipliers, chat, fileRanks, mentionedIds).buffer));
          // The scratch is left all 0 for the next ranking.
          expect(scratch.every((value) => value === 0)).toBe(true);
        }
      }
      expect(Array.from(perDefiner(index, multipliers, new Set(), fileRanks, [])).some((rank) => rank > 0)).toBe(true);
    });
  }
});
