// Golden tags per language: each fixture folder's files against its expected-tags.json.
// UPDATE_GOLDEN=1 rewrites the expectations (review the diff before committing).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createGrammarLoader } from '../../src/platform/tree-sitter.js';
import { createTagExtractor, findQueriesDir } from '../../src/repomap/extract-tags.js';
import type { Tag } from '../../src/repomap/tag.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const LANGUAGES = ['python', 'javascript', 'typescript', 'tsx', 'go', 'rust', 'java', 'c', 'cpp', 'ruby', 'csharp', 'php'];
const update = process.env['UPDATE_GOLDEN'] === '1';

const loader = createGrammarLoader();
const extractor = createTagExtractor(loader, findQueriesDir(import.meta.url));

/** One readable line per tag: `path:line[-endLine] role kind name`. */
function describeTag(tag: Tag): string {
  const lines = tag.endLine > tag.line ? `${tag.line + 1}-${tag.endLine + 1}` : `${tag.line + 1}`;
  return `${tag.path}:${lines} ${tag.role} ${tag.kind} ${tag.name}`;
}

describe('golden tags', () => {
  for (const lang of LANGUAGES) {
    it(`tags ${lang} as expected`, async () => {
      const dir = path.join(FIXTURES, lang);
      const files = (await readdir(dir)).filter((f) => !f.startsWith('expected-')).sort();
      const actual: string[] = [];
      for (const file of files) {
        const tags = await extractor.extract(file, await readFile(path.join(dir, file), 'utf8'));
        actual.push(...tags.map(describeTag));
      }
      const goldenPath = path.join(dir, 'expected-tags.json');
      if (update) await writeFile(goldenPath, `${JSON.stringify(actual, null, 1)}\n`);
      const expected = JSON.parse(await readFile(goldenPath, 'utf8')) as string[];
      expect(actual).toEqual(expected);
      // Every language must find definitions of several kinds and real references.
      expect(actual.filter((t) => t.includes(' def ')).length).toBeGreaterThan(4);
      expect(actual.some((t) => t.includes(' ref '))).toBe(true);
    });
  }
});
