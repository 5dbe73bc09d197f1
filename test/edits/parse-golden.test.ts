// Golden cases for the reply parsers: each folder holds reply.md, context.json and expected.json.
// Run with UPDATE_GOLDEN=1 to rewrite expected.json from the current parser output.

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../../src/coders/registry.js';
import type { EditFormat } from '../../src/edits/types.js';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), 'golden', 'parse');
const update = process.env['UPDATE_GOLDEN'] === '1';
const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

interface CaseContext {
  readonly format: EditFormat;
  readonly chatFiles: string[];
}

describe('parse golden cases', () => {
  it('has at least 30 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  for (const name of cases) {
    it(name, () => {
      const dir = path.join(root, name);
      const reply = readFileSync(path.join(dir, 'reply.md'), 'utf8');
      const ctx = JSON.parse(readFileSync(path.join(dir, 'context.json'), 'utf8')) as CaseContext;
      const result = parseReply(ctx.format, reply, { chatFiles: ctx.chatFiles });
      const expectedPath = path.join(dir, 'expected.json');
      if (update) writeFileSync(expectedPath, `${JSON.stringify(result, null, 2)}\n`);
      const expected: unknown = JSON.parse(readFileSync(expectedPath, 'utf8'));
      expect(result).toEqual(expected);
    });
  }
});
