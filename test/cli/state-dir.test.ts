import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateDirProblem, writesInside } from '../../src/cli/state-dir.js';

function dirs(): { root: string; outside: string } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-state-')));
  mkdirSync(join(base, 'repo'));
  mkdirSync(join(base, 'outside'));
  return { root: join(base, 'repo'), outside: join(base, 'outside') };
}

describe('.tandem must be a real folder of the repository', () => {
  it.each([
    ['absent', () => {}, null],
    ['a folder', (r: string) => mkdirSync(join(r, '.tandem', 'sessions'), { recursive: true }), null],
    ['a symlink', (r: string, o: string) => symlinkSync(o, join(r, '.tandem')), /\.tandem is a symlink/],
    ['a file', (r: string) => writeFileSync(join(r, '.tandem'), 'x'), /\.tandem is not a folder/],
    ['a symlinked log folder', (r: string, o: string) => { mkdirSync(join(r, '.tandem')); symlinkSync(o, join(r, '.tandem', 'sessions')); }, /\.tandem\/sessions is a symlink/],
    ['a planted 4 GiB tag cache', (r: string) => { mkdirSync(join(r, '.tandem')); writeFileSync(join(r, '.tandem', 'tags.cache'), 'x'); truncateSync(join(r, '.tandem', 'tags.cache'), 4 * 1024 ** 3); }, /tags\.cache is 4,294,967,296 bytes/],
    ['a symlinked transcript', (r: string, o: string) => { mkdirSync(join(r, '.tandem')); symlinkSync(join(o, 't.md'), join(r, '.tandem', 'chat.history.md')); }, /chat\.history\.md is a symlink/],
  ])('%s', (_, make, expected) => {
    const { root, outside } = dirs();
    make(root, outside);
    const problem = stateDirProblem(root);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it('writesInside follows symlinked folders', () => {
    const { root, outside } = dirs();
    symlinkSync(outside, join(root, 'logs'));
    expect(writesInside(root, join(root, 'new', 'deeper', 'llm.jsonl'))).toBe(true);
    expect(writesInside(root, join(root, 'logs', 'llm.jsonl'))).toBe(false);
    expect(writesInside(root, join(outside, 'llm.jsonl'))).toBe(false);
  });
});
