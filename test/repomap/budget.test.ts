import { afterAll, describe, expect, it } from 'vitest';
import { get_encoding } from 'tiktoken';
import { effectiveBudget, fitToBudget, largestPrefix } from '../../src/repomap/budget.js';
import { rankDefinitions } from '../../src/repomap/rank.js';
import { createMapRenderer } from '../../src/repomap/render.js';
import { SMALL_REPO, fileReader, generatedRepo, tagsFor, writeRepo } from './map-fixture.js';

const encoder = get_encoding('o200k_base');
const count = (text: string): number => encoder.encode_ordinary(text).length;
afterAll(() => encoder.free());

async function rankedRepo(files: Record<string, string>, chatFiles: string[]) {
  const root = await writeRepo(files);
  const tags = tagsFor(files);
  const { items } = rankDefinitions(tags, { chatFiles });
  return { items, renderer: createMapRenderer({ readFile: fileReader(root), tagsByFile: tags }) };
}

describe('fitToBudget', () => {
  it('never exceeds the budget and uses at least 90% of it when there is enough content', async () => {
    const { items, renderer } = await rankedRepo(generatedRepo(80), ['pkg/main.ts']);
    expect(count(renderer.render(items))).toBeGreaterThan(4096);
    for (const budget of [128, 256, 512, 1024, 2048, 4096]) {
      const fit = fitToBudget(items, { budget, count, renderBlocks: renderer.blocks });
      const tokens = count(fit.text);
      expect(tokens).toBe(fit.tokens);
      expect(tokens).toBeLessThanOrEqual(budget);
      expect(tokens).toBeGreaterThanOrEqual(0.9 * budget);
      expect(fit.items.slice(0, fit.prefix)).toEqual(items.slice(0, fit.prefix));
    }
  });

  it('takes everything when it all fits, and nothing for a zero budget', async () => {
    const { items, renderer } = await rankedRepo(SMALL_REPO, ['src/app.ts']);
    const all = renderer.render(items);
    const fit = fitToBudget(items, { budget: 10_000, count, renderBlocks: renderer.blocks });
    expect(fit.text).toBe(all);
    expect(fit.prefix).toBe(items.length);
    expect(fitToBudget(items, { budget: 0, count, renderBlocks: renderer.blocks }).text).toBe('');
  });

  it('stays within the budget with a counter that is not additive over blocks', async () => {
    const { items, renderer } = await rankedRepo(generatedRepo(20), ['pkg/main.ts']);
    // Whole-text overhead the per-block estimate cannot see forces the exact shrinking path.
    const lumpy = (text: string): number => (text === '' ? 0 : count(text) + 40);
    for (const budget of [100, 300, 700]) {
      const fit = fitToBudget(items, { budget, count: lumpy, renderBlocks: renderer.blocks });
      expect(lumpy(fit.text)).toBeLessThanOrEqual(budget);
      expect(fit.text.length).toBeGreaterThan(0);
    }
  });

  it('finds the largest fitting prefix with few rendered prefixes', async () => {
    const { items, renderer } = await rankedRepo(generatedRepo(80), ['pkg/main.ts']);
    const tokensOf = (k: number): number => renderer.blocks(items.slice(0, k)).reduce((sum, block) => sum + count(block), 0);
    for (const budget of [64, 128, 256, 512, 1024, 2048, 4096]) {
      const fit = fitToBudget(items, { budget, count, renderBlocks: renderer.blocks });
      expect(tokensOf(fit.prefix)).toBeLessThanOrEqual(budget);
      expect(tokensOf(fit.prefix + 1)).toBeGreaterThan(budget);
      // Few prefixes rendered, where galloping from 8 then halving takes about two per doubling.
      expect(fit.searchRenders).toBeLessThanOrEqual(8);
    }
  });

  it('searches any growing count to its largest fitting prefix', () => {
    const shapes = [(k: number) => k * 3, (k: number) => 40 + k * 7, (k: number) => Math.floor(k ** 1.5), (k: number) => (k < 50 ? k : 50 + (k - 50) * 90)];
    for (const tokensAt of shapes) {
      for (const [length, budget] of [[0, 10], [1, 0], [1, 10], [400, 5], [400, 1000], [400, 100_000], [1000, 777]] as const) {
        let renders = 0;
        const k = largestPrefix(length, budget, (n) => (renders++, tokensAt(n)));
        let expected = 0;
        while (expected < length && tokensAt(expected + 1) <= budget) expected++;
        expect(k).toBe(expected);
        expect(renders).toBeLessThanOrEqual(20);
      }
    }
  });

  it('is deterministic', async () => {
    const { items, renderer } = await rankedRepo(generatedRepo(30), ['pkg/main.ts']);
    const first = fitToBudget(items, { budget: 700, count, renderBlocks: renderer.blocks }).text;
    const again = fitToBudget(items, { budget: 700, count, renderBlocks: renderer.blocks }).text;
    expect(again).toBe(first);
  });
});

describe('effectiveBudget', () => {
  it('grows only when the chat is empty, by the multiplier (default 2), up to the hard cap', () => {
    expect(effectiveBudget(1024, 2)).toBe(1024);
    expect(effectiveBudget(1024, 0)).toBe(2048);
    expect(effectiveBudget(1024, 0, { noChatMultiplier: 8 })).toBe(8192);
    expect(effectiveBudget(1024, 0, { noChatMultiplier: 8, maxBudget: 4000 })).toBe(4000);
    expect(effectiveBudget(0, 0)).toBe(0);
  });

  it('never exceeds multiplier x budget nor the cap, for any combination', () => {
    for (const budget of [1, 100, 1024, 5000, 40_000]) {
      for (const multiplier of [1, 2, 3, 8]) {
        for (const maxBudget of [50, 1000, 16_000]) {
          const used = effectiveBudget(budget, 0, { noChatMultiplier: multiplier, maxBudget });
          expect(used).toBeLessThanOrEqual(budget * multiplier);
          expect(used).toBeLessThanOrEqual(maxBudget);
          expect(used).toBe(Math.min(budget * multiplier, maxBudget));
        }
      }
    }
  });
});
