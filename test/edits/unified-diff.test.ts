import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/edits/unified-diff.js';

describe('unifiedDiff', () => {
  it('is empty for identical texts', () => {
    expect(unifiedDiff('a', 'x\n', 'x\n')).toBe('');
  });

  it('writes git-style headers and hunks', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n') + '\n';
    const after = ['a', 'b', 'c', 'D', 'e', 'f', 'g', 'h'].join('\n') + '\n';
    expect(unifiedDiff('x.txt', before, after)).toBe(
      ['--- a/x.txt', '+++ b/x.txt', '@@ -1,7 +1,7 @@', ' a', ' b', ' c', '-d', '+D', ' e', ' f', ' g', ''].join('\n'),
    );
  });

  it('uses /dev/null for created files', () => {
    expect(unifiedDiff('n.txt', null, 'x\ny\n')).toBe('--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n');
  });

  it('marks a missing final newline', () => {
    expect(unifiedDiff('f', 'a\nb', 'a\nc')).toBe(
      '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
    );
  });

  it('produces patches that git apply accepts, for random edits', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-diff-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: dir });
      let seed = 7;
      const rnd = (n: number): number => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      for (let round = 0; round < 15; round++) {
        const before = Array.from({ length: 40 + rnd(40) }, () => `l${rnd(12)}`);
        const after = [...before];
        for (let k = 0; k < 1 + rnd(8); k++) {
          const at = rnd(after.length);
          if (rnd(2) === 0) after.splice(at, 1 + rnd(3));
          else after.splice(at, 0, `new${rnd(100)}`);
        }
        const b = before.join('\n') + '\n';
        const a = after.join('\n') + (rnd(3) === 0 ? '' : '\n');
        await fs.writeFile(path.join(dir, 'f.txt'), b);
        await fs.writeFile(path.join(dir, 'p.diff'), unifiedDiff('f.txt', b, a));
        execFileSync('git', ['apply', 'p.diff'], { cwd: dir });
        expect(await fs.readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(a);
      }
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  // Speed is measured by `npm run bench`; here only what a large diff says.
  it('diffs a 10k-line file, and shows a rewrite as one block', () => {
    const before = Array.from({ length: 10000 }, (_, i) => `line ${i}`);
    const after = before.map((l, i) => (i % 97 === 0 ? `${l} changed` : l));
    const d = unifiedDiff('big', before.join('\n') + '\n', after.join('\n') + '\n');
    expect(d.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toHaveLength(104);
    const whole = unifiedDiff('big', before.join('\n') + '\n', before.map((l) => `x${l}`).join('\n') + '\n');
    expect(whole.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'))).toHaveLength(10000);
    expect(whole.split('\n').filter((l) => l.startsWith('@@'))).toEqual(['@@ -1,10000 +1,10000 @@']);
  });

  it('writes the one-block form of a rewrite so that git apply accepts it', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-diff-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: dir });
      const lines = Array.from({ length: 3000 }, (_, i) => `line ${i}`);
      const before = ['keep 1', 'keep 2', 'keep 3', 'keep 4', ...lines, 'tail 1', 'tail 2'].join('\n');
      const after = ['keep 1', 'keep 2', 'keep 3', 'keep 4', ...lines.map((l) => `${l}!`), 'tail 1', 'tail 2'].join('\n');
      const patch = unifiedDiff('f.txt', before, after);
      expect(patch.split('\n').slice(2, 4)).toEqual(['@@ -2,3005 +2,3005 @@', ' keep 2']);
      await fs.writeFile(path.join(dir, 'f.txt'), before);
      await fs.writeFile(path.join(dir, 'p.diff'), patch);
      execFileSync('git', ['apply', 'p.diff'], { cwd: dir });
      expect(await fs.readFile(path.join(dir, 'f.txt'), 'utf8')).toBe(after);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
