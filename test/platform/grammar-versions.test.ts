// The versions that key the tags stored across runs: those of the installed packages, read without
// asking the module resolver (web-tree-sitter's `exports` hide its package.json).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { grammarVersions } from '../../src/platform/tree-sitter.js';

const versionOf = (name: string): string =>
  (JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { version: string }).version;

describe('grammar versions', () => {
  it('names the installed web-tree-sitter and tree-sitter-wasms', () => {
    expect(grammarVersions()).toBe(`web-tree-sitter@${versionOf('web-tree-sitter')} tree-sitter-wasms@${versionOf('tree-sitter-wasms')}`);
  });
});
