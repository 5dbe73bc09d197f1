import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PathRefusedError, normalizeRepoPath } from '../../src/edits/paths.js';
import { resolveRepoPath } from '../../src/round/real-repo-path.js';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-paths-')));
  outside = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'tandem-out-')));
  await fs.mkdir(path.join(root, 'src'));
  await fs.mkdir(path.join(root, '.git'));
  await fs.writeFile(path.join(root, 'src', 'a.ts'), 'x\n');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

async function refusal(p: string): Promise<string> {
  try {
    await resolveRepoPath(root, p);
  } catch (err) {
    if (err instanceof PathRefusedError) return err.kind;
    throw err;
  }
  return 'accepted';
}

describe('normalizeRepoPath', () => {
  it('normalizes harmless spellings', () => {
    expect(normalizeRepoPath('./src//a.ts')).toBe('src/a.ts');
    expect(normalizeRepoPath('src\\a.ts')).toBe('src/a.ts');
    expect(normalizeRepoPath('/repo/src/a.ts', '/repo')).toBe('src/a.ts');
  });

  it('refuses escapes lexically', () => {
    expect((normalizeRepoPath('../x') as PathRefusedError).kind).toBe('escapes_root');
    expect((normalizeRepoPath('a/../../x') as PathRefusedError).kind).toBe('escapes_root');
    expect((normalizeRepoPath('/etc/passwd', '/repo') as PathRefusedError).kind).toBe('absolute_outside');
    expect((normalizeRepoPath('/repository/x', '/repo') as PathRefusedError).kind).toBe('absolute_outside');
    expect((normalizeRepoPath('.git/config') as PathRefusedError).kind).toBe('git_internal');
    expect((normalizeRepoPath('') as PathRefusedError).kind).toBe('empty');
  });

  it('refuses a path starting with ~ (a home folder), never a folder named ~', () => {
    for (const p of ['~/.bashrc', '~', '~root/.ssh/authorized_keys', './~/x', '~\\x']) {
      expect((normalizeRepoPath(p, '/repo') as PathRefusedError).kind, p).toBe('home');
    }
    expect((normalizeRepoPath('~/.bashrc') as PathRefusedError).message).toMatch(/home folder.*no folder named `~` is created/);
    expect(normalizeRepoPath('docs/~draft.md')).toBe('docs/~draft.md');
  });
});

describe('resolveRepoPath', () => {
  it('accepts existing and new files inside the root', async () => {
    expect(await resolveRepoPath(root, 'src/a.ts')).toBe('src/a.ts');
    expect(await resolveRepoPath(root, 'new/dir/b.ts')).toBe('new/dir/b.ts');
    expect(await resolveRepoPath(root, path.join(root, 'src/a.ts'))).toBe('src/a.ts');
  });

  it('refuses a symlinked folder that points outside', async () => {
    await fs.symlink(outside, path.join(root, 'link'));
    expect(await refusal('link/x.txt')).toBe('symlink_outside');
  });

  it('refuses a symlinked file that points outside', async () => {
    await fs.writeFile(path.join(outside, 'secret'), 's');
    await fs.symlink(path.join(outside, 'secret'), path.join(root, 'secret'));
    expect(await refusal('secret')).toBe('symlink_outside');
  });

  it('refuses a dangling symlink and a link into .git', async () => {
    await fs.symlink(path.join(outside, 'nothing'), path.join(root, 'dangling'));
    await fs.symlink(path.join(root, '.git'), path.join(root, 'g'));
    expect(await refusal('dangling')).toBe('symlink_outside');
    expect(await refusal('g/config')).toBe('git_internal');
  });

  it('accepts a symlink that stays inside', async () => {
    await fs.symlink(path.join(root, 'src'), path.join(root, 'alias'));
    expect(await resolveRepoPath(root, 'alias/a.ts')).toBe('alias/a.ts');
  });

  it('refuses .. and absolute paths outside', async () => {
    expect(await refusal('../x')).toBe('escapes_root');
    expect(await refusal(path.join(outside, 'x'))).toBe('absolute_outside');
  });
});
