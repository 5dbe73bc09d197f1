// scripts/check-layers.mjs reports an error class that does not stand on TandemError, even through
// another error class; the real tree passes (run on a copy of the script over a tiny src/ tree).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFiles } from '../support/temp-repo.js';

function checkLayers(files: Record<string, string>): { status: number | null; out: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'scripts'));
  copyFileSync(new URL('../../scripts/check-layers.mjs', import.meta.url), join(dir, 'scripts', 'check-layers.mjs'));
  writeFiles(dir, { 'src/platform/errors.ts': 'export abstract class TandemError extends Error {}\n', ...files });
  const run = spawnSync(process.execPath, [join(dir, 'scripts', 'check-layers.mjs')], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('the error-base check', () => {
  it('passes classes on TandemError, directly or through another error class', () => {
    const ok = checkLayers({
      'src/git/errors.ts': "import { TandemError } from '../platform/errors.js';\nexport class GitError extends TandemError {}\n",
      'src/edits/errors.ts': "import { GitError } from '../git/errors.js';\nexport class MergeError extends GitError {}\n",
    });
    expect(ok).toMatchObject({ status: 0 });
    expect(ok.out).toContain('layers ok');
  });

  it('reports a class on Error, on a built-in error, or on such a class', () => {
    const bad = checkLayers({
      'src/edits/bad.ts': 'export class RawError extends Error {}\nclass Later extends RawError {}\nexport class Range<T> extends RangeError {}\n',
    });
    expect(bad.status).toBe(1);
    expect(bad.out).toContain('src/edits/bad.ts: class RawError extends Error, not TandemError');
    expect(bad.out).toContain('class Later extends RawError, not TandemError');
    expect(bad.out).toContain('class Range extends RangeError, not TandemError');
  });
});
