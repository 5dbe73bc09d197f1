// Golden maps per language: the rendered repo map of each fixture (nothing in the chat, a fixed
// budget, real o200k counts) against its expected-map.txt. UPDATE_GOLDEN=1 rewrites them.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createGrammarLoader } from '../../src/platform/tree-sitter.js';
import { createTagExtractor, findQueriesDir } from '../../src/repomap/extract-tags.js';
import { createRepoMap } from '../../src/repomap/repo-map.js';
import type { Tag } from '../../src/repomap/tag.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const LANGUAGES = ['python', 'javascript', 'typescript', 'tsx', 'go', 'rust', 'java', 'c', 'cpp', 'ruby', 'csharp', 'php'];
const BUDGET = 400;
const update = process.env['UPDATE_GOLDEN'] === '1';

const extractor = createTagExtractor(createGrammarLoader(), findQueriesDir(import.meta.url));
const { get_encoding } = createRequire(import.meta.url)('tiktoken') as typeof import('tiktoken');
const encoder = get_encoding('o200k_base');
afterAll(() => encoder.free());

describe('golden maps', () => {
  for (const lang of LANGUAGES) {
    it(`maps ${lang} as expected, within the budget`, async () => {
      const dir = path.join(FIXTURES, lang);
      const files = (await readdir(dir)).filter((f) => !f.startsWith('expected-')).sort();
      const tags = new Map<string, Tag[]>();
      for (const file of files) tags.set(file, await extractor.extract(file, await readFile(path.join(dir, file), 'utf8')));
      const count = (text: string): number => encoder.encode_ordinary(text).length;
      const map = createRepoMap({
        listFiles: async () => files,
        collectTags: async () => tags,
        readFile: (file) => readFileSync(path.join(dir, file), 'utf8'),
        countTokens: count,
        now: () => 0,
        refreshMode: 'always',
        budgetGrowth: { noChatMultiplier: 1 },
      });
      const text = await map.get({ chatFiles: [], budget: BUDGET });

      const goldenPath = path.join(dir, 'expected-map.txt');
      if (update) await writeFile(goldenPath, text);
      expect(text).toBe(await readFile(goldenPath, 'utf8'));
      expect(count(text)).toBeLessThanOrEqual(BUDGET);
      expect(text.split('\n').length).toBeGreaterThan(4);
    });
  }
});
