import { execFile } from 'node:child_process';
import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../../src/git/commit.js';
import { undoLastCommit } from '../../src/git/undo.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

const exec = promisify(execFile);

async function tandemCommit(fx: Fixture, files: Record<string, string>): Promise<string> {
  await fx.write(files);
  const hash = await commitFiles(fx.root, Object.keys(files), 'feat: tandem change', { attribution: true, env: fx.env });
  if (hash === null) throw new Error('nothing committed');
  return hash;
}

async function head(fx: Fixture): Promise<string> {
  return (await fx.git('rev-parse', 'HEAD')).trim();
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe('undoLastCommit', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it("reverts tandem's commit, restores and removes its files, keeps the user's other work", async () => {
    fx = await makeFixture();
    const base = await userCommit(fx, { 'a.py': 'a1\n', 'notes.txt': 'n1\n', 'staged.txt': 's1\n' });
    const hash = await tandemCommit(fx, { 'a.py': 'a2\n', 'lib/new.py': 'new\n' });
    await fx.write({ 'notes.txt': 'user edit\n', 'staged.txt': 's2\n' });
    await fx.git('add', 'staged.txt');
    const result = await undoLastCommit(fx.root, { env: fx.env });
    expect(result).toEqual({ ok: true, hash, files: ['a.py', 'lib/new.py'] });
    expect(await head(fx)).toBe(base);
    expect(await readFile(join(fx.root, 'a.py'), 'utf8')).toBe('a1\n');
    expect(await exists(join(fx.root, 'lib/new.py'))).toBe(false);
    expect(await fx.git('status', '--porcelain')).toBe(' M notes.txt\nM  staged.txt\n');
  });

  it('refuses a commit the user made and changes nothing', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a1\n' });
    const user = await userCommit(fx, { 'a.py': 'a2\n' });
    const result = await undoLastCommit(fx.root, { env: fx.env });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/not made by tandem/);
    expect(await head(fx)).toBe(user);
    expect(await fx.git('status', '--porcelain')).toBe('');
  });

  it('refuses a commit already pushed to its upstream', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a1\n' });
    const hash = await tandemCommit(fx, { 'a.py': 'a2\n' });
    const remote = join(fx.root, '..', 'remote.git');
    await exec('git', ['init', '--quiet', '--bare', remote], { env: fx.env });
    await fx.git('remote', 'add', 'origin', remote);
    const branch = (await fx.git('branch', '--show-current')).trim();
    await fx.git('push', '--quiet', '-u', 'origin', branch);
    const result = await undoLastCommit(fx.root, { env: fx.env });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(`pushed to origin/${branch}`);
    expect(await head(fx)).toBe(hash);
  });

  it('undoes a commit made after the last push', async () => {
    fx = await makeFixture();
    const base = await userCommit(fx, { 'a.py': 'a1\n' });
    const remote = join(fx.root, '..', 'remote.git');
    await exec('git', ['init', '--quiet', '--bare', remote], { env: fx.env });
    await fx.git('remote', 'add', 'origin', remote);
    await fx.git('push', '--quiet', '-u', 'origin', 'HEAD');
    await tandemCommit(fx, { 'a.py': 'a2\n' });
    expect((await undoLastCommit(fx.root, { env: fx.env })).ok).toBe(true);
    expect(await head(fx)).toBe(base);
  });

  it('refuses a merge commit', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a1\n', 'b.py': 'b1\n' });
    const main = (await fx.git('branch', '--show-current')).trim();
    await fx.git('checkout', '--quiet', '-b', 'side');
    await userCommit(fx, { 'b.py': 'b2\n' });
    await fx.git('checkout', '--quiet', main);
    await userCommit(fx, { 'a.py': 'a2\n' });
    // A merge carrying tandem's trailer: only the merge rule can refuse it.
    await fx.git('merge', '--quiet', '--no-ff', '-m', 'merge side', '-m', 'Tandem-Commit: yes', 'side');
    const merge = await head(fx);
    const result = await undoLastCommit(fx.root, { env: fx.env });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/merge/);
    expect(await head(fx)).toBe(merge);
  });

  it('refuses when a file of the commit has uncommitted changes', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a1\n' });
    const hash = await tandemCommit(fx, { 'a.py': 'a2\n' });
    await fx.write({ 'a.py': 'a3 by the user\n' });
    const result = await undoLastCommit(fx.root, { env: fx.env });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain('a.py');
    expect(await head(fx)).toBe(hash);
    expect(await readFile(join(fx.root, 'a.py'), 'utf8')).toBe('a3 by the user\n');
  });

  it('refuses in a repository without commits and for a first commit', async () => {
    fx = await makeFixture();
    const none = await undoLastCommit(fx.root, { env: fx.env });
    expect(none.ok).toBe(false);
    const first = await tandemCommit(fx, { 'a.py': 'a\n' });
    const result = await undoLastCommit(fx.root, { env: fx.env });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/first commit/);
    expect(await head(fx)).toBe(first);
  });

  it('works on a detached HEAD', async () => {
    fx = await makeFixture();
    const base = await userCommit(fx, { 'a.py': 'a1\n' });
    await fx.git('checkout', '--quiet', '--detach');
    await tandemCommit(fx, { 'a.py': 'a2\n' });
    expect((await undoLastCommit(fx.root, { env: fx.env })).ok).toBe(true);
    expect(await head(fx)).toBe(base);
    expect(await readFile(join(fx.root, 'a.py'), 'utf8')).toBe('a1\n');
  });

  it('keeps an untracked file the user created in a folder of the commit', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a1\n' });
    await tandemCommit(fx, { 'pkg/mod.py': 'm\n' });
    await mkdir(join(fx.root, 'pkg'), { recursive: true });
    await fx.write({ 'pkg/mine.py': 'mine\n' });
    expect((await undoLastCommit(fx.root, { env: fx.env })).ok).toBe(true);
    expect(await readFile(join(fx.root, 'pkg/mine.py'), 'utf8')).toBe('mine\n');
  });
});
