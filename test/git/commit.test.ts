import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles, isTandemCommit } from '../../src/git/commit.js';
import { dirtyFiles } from '../../src/git/dirty.js';
import { GitOperationError } from '../../src/git/errors.js';
import { filesIn, makeFixture, userCommit, type Fixture } from './git-fixture.js';

describe('commitFiles', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it('commits exactly the given files and leaves other staged and dirty files alone', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.py': 'a\n', 'b.py': 'b\n', 'c.py': 'c\n' });
    await fx.write({ 'a.py': 'a2\n', 'b.py': 'b2\n', 'c.py': 'c2\n', 'new.py': 'n\n' });
    await fx.git('add', 'c.py');
    const hash = await commitFiles(fx.root, ['a.py', join(fx.root, 'new.py')], 'feat: change a', {
      attribution: true,
      env: fx.env,
    });
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    expect(await filesIn(fx, hash!)).toEqual(['a.py', 'new.py']);
    const status = await fx.git('status', '--porcelain');
    expect(status).toBe(' M b.py\nM  c.py\n');
    expect(await isTandemCommit(fx.root, hash!, { env: fx.env })).toBe(true);
  });

  it("runs none of the repository's hooks unless asked to, wherever core.hooksPath points", async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    const hook = '#!/bin/sh\necho "$0" >> "$(git rev-parse --show-toplevel)/../ran-hooks"\n';
    const names = ['pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'post-index-change'];
    await fx.write(Object.fromEntries(names.flatMap((n) => [[`.husky/_/${n}`, hook], [`.git/hooks/${n}`, hook]])));
    await fx.git('update-index', '--chmod=+x', '--add', ...names.map((n) => `.husky/_/${n}`));
    const { chmod } = await import('node:fs/promises');
    for (const n of names) {
      await chmod(join(fx.root, '.husky/_', n), 0o755);
      await chmod(join(fx.root, '.git/hooks', n), 0o755);
    }
    await fx.git('commit', '--quiet', '--no-verify', '-m', 'husky');
    await fx.git('config', 'core.hooksPath', '.husky/_');
    const ran = join(fx.root, '..', 'ran-hooks');
    const { rm } = await import('node:fs/promises');
    await rm(ran, { force: true });
    await fx.write({ 'a.txt': '2\n' });
    const hash = await commitFiles(fx.root, ['a.txt'], 'fix: two', { attribution: true, env: fx.env });
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    await expect(readFile(ran, 'utf8')).rejects.toThrow(/ENOENT/);
    await fx.write({ 'a.txt': '3\n' });
    await commitFiles(fx.root, ['a.txt'], 'fix: three', { attribution: true, env: fx.env, verify: true });
    expect(await readFile(ran, 'utf8')).toMatch(/post-commit/);
  });

  it('marks the committer, keeps the user as author, adds the trailer', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    await fx.write({ 'a.txt': '2\n' });
    const hash = await commitFiles(fx.root, ['a.txt'], 'fix: two', { attribution: true, env: fx.env });
    const info = await fx.git('log', '-1', '--format=%an <%ae>|%cn <%ce>|%B', hash!);
    expect(info).toBe('Ada User <ada@example.com>|Ada User (tandem) <ada@example.com>|fix: two\n\nTandem-Commit: yes\n\n');
  });

  it('makes plain commits without attribution', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    await fx.write({ 'a.txt': '2\n' });
    const hash = await commitFiles(fx.root, ['a.txt'], 'chore: mine', { attribution: false, env: fx.env });
    expect(await fx.git('log', '-1', '--format=%cn|%B', hash!)).toBe('Ada User|chore: mine\n\n');
    expect(await isTandemCommit(fx.root, hash!, { env: fx.env })).toBe(false);
  });

  it("takes the repository's identity over the home one, and tandem's own name for a missing one", async () => {
    fx = await makeFixture({ identity: false });
    const homeConfig = join(fx.env['HOME'] ?? '', '.gitconfig');
    await writeFile(homeConfig, '[user]\n\tname = Home Name\n\temail = home@example.com\n');
    await fx.git('config', 'user.email', 'repo@example.com');
    await fx.write({ 'a.txt': '1\n' });
    const first = await commitFiles(fx.root, ['a.txt'], 'feat: a', { attribution: false, env: fx.env });
    expect(await fx.git('log', '-1', '--format=%an <%ae>', first!)).toBe('Home Name <repo@example.com>\n');

    await rm(homeConfig);
    await fx.write({ 'a.txt': '2\n' });
    const second = await commitFiles(fx.root, ['a.txt'], 'feat: b', { attribution: true, env: fx.env });
    expect(await fx.git('log', '-1', '--format=%an <%ae>|%cn', second!)).toBe('tandem <repo@example.com>|tandem\n');
  });

  it('works in a repository without commits and without any identity', async () => {
    fx = await makeFixture({ identity: false });
    await fx.write({ 'hello.py': 'print(1)\n', 'other.py': 'x\n' });
    const hash = await commitFiles(fx.root, ['hello.py'], 'feat: hello', { attribution: true, env: fx.env });
    expect(await filesIn(fx, hash!)).toEqual(['hello.py']);
    expect(await fx.git('log', '-1', '--format=%an <%ae>|%cn', hash!)).toBe('tandem <tandem@localhost>|tandem\n');
    expect(await fx.git('status', '--porcelain')).toBe('?? other.py\n');
  });

  it('commits a deletion and a file in a sub-folder, on a detached HEAD', async () => {
    fx = await makeFixture();
    const first = await userCommit(fx, { 'gone.txt': 'x\n', 'src/keep.ts': 'let a = 1;\n' });
    await fx.git('checkout', '--quiet', '--detach', first);
    await fx.git('rm', '--quiet', '--cached', 'gone.txt');
    await fx.write({ 'src/keep.ts': 'let a = 2;\n' });
    const { rm } = await import('node:fs/promises');
    await rm(join(fx.root, 'gone.txt'));
    const hash = await commitFiles(fx.root, ['gone.txt', 'src/keep.ts'], 'refactor: x', {
      attribution: true,
      env: fx.env,
    });
    expect(await filesIn(fx, hash!)).toEqual(['gone.txt', 'src/keep.ts']);
    expect((await fx.git('rev-parse', 'HEAD')).trim()).toBe(hash);
    expect(await fx.git('status', '--porcelain')).toBe('');
  });

  it('returns null when the files have no change', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    expect(await commitFiles(fx.root, ['a.txt', 'missing.txt'], 'noop', { attribution: true, env: fx.env })).toBeNull();
  });

  it('returns null for tracked files without a change, makes no empty commit and leaves the user staged work staged', async () => {
    fx = await makeFixture();
    const head = await userCommit(fx, { 'a.txt': '1\n', 'b.txt': '1\n' });
    await fx.write({ 'b.txt': '2\n' });
    await fx.git('add', 'b.txt');
    // touched, same content: git's commit finds nothing to commit, and the status after it says why
    await fx.write({ 'a.txt': '1\n' });
    expect(await commitFiles(fx.root, ['a.txt', 'a.txt'], 'noop', { attribution: true, env: fx.env })).toBeNull();
    expect((await fx.git('rev-parse', 'HEAD')).trim()).toBe(head);
    expect(await fx.git('status', '--porcelain')).toBe('M  b.txt\n');
  });

  it('refuses a file with merge conflicts, with or without a merge in progress, and commits nothing', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'f.txt': 'base\n', 'g.txt': 'g\n' });
    const main = (await fx.git('rev-parse', '--abbrev-ref', 'HEAD')).trim();
    await fx.git('checkout', '-q', '-b', 'side');
    await userCommit(fx, { 'f.txt': 'side\n' });
    await fx.git('checkout', '-q', main);
    const head = await userCommit(fx, { 'f.txt': 'main\n' });
    await fx.git('merge', 'side').catch(() => undefined);
    await fx.write({ 'g.txt': 'g2\n' });
    const during = await commitFiles(fx.root, ['g.txt'], 'm', { attribution: true, env: fx.env }).catch((e: unknown) => e);
    expect((during as GitOperationError).kind).toBe('operation_in_progress');
    expect((during as Error).message).toMatch(/a merge is in progress/);
    // what `git stash pop` leaves: unmerged entries and no MERGE_HEAD (git itself would commit the markers)
    await rm(join(fx.root, '.git', 'MERGE_HEAD'));
    const left = await commitFiles(fx.root, ['g.txt', 'f.txt'], 'm', { attribution: true, env: fx.env }).catch((e: unknown) => e);
    expect((left as GitOperationError).kind).toBe('operation_in_progress');
    expect((left as Error).message).toBe('f.txt still has merge conflicts');
    expect((await fx.git('rev-parse', 'HEAD')).trim()).toBe(head);
  });

  it('leaves out a new file git ignores, as git status does, and still commits the tracked one', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', '.gitignore': '*.log\n' });
    await fx.write({ 'a.txt': '2\n', 'debug.log': 'x\n' });
    const hash = await commitFiles(fx.root, ['a.txt', 'debug.log'], 'fix', { attribution: true, env: fx.env });
    expect(await filesIn(fx, hash!)).toEqual(['a.txt']);
    expect((await fx.git('rev-parse', 'HEAD')).trim()).toBe(hash);
  });

  it('returns the exact new HEAD in a SHA-256 repository too', async () => {
    fx = await makeFixture();
    await rm(join(fx.root, '.git'), { recursive: true, force: true });
    await fx.git('init', '--quiet', '--object-format=sha256');
    await userCommit(fx, { 'a.txt': '1\n' });
    await fx.write({ 'a.txt': '2\n' });
    const hash = await commitFiles(fx.root, ['a.txt'], 'fix', { attribution: true, env: fx.env });
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await fx.git('rev-parse', 'HEAD')).trim()).toBe(hash);
  });

  it('refuses a path outside the repository', async () => {
    fx = await makeFixture();
    await expect(commitFiles(fx.root, ['../x'], 'm', { attribution: true })).rejects.toBeInstanceOf(GitOperationError);
  });

  it('takes file names with glob characters literally', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', 'b.txt': '1\n' });
    await fx.write({ '*.txt': 'star\n', 'a.txt': '2\n' });
    const hash = await commitFiles(fx.root, ['*.txt'], 'add star', { attribution: true, env: fx.env });
    expect(await filesIn(fx, hash!)).toEqual(['*.txt']);
  });
});

describe('dirty files', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it('lists tracked files with staged or unstaged changes, not untracked or clean ones', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', 'b.txt': '1\n', 'c.txt': '1\n' });
    await fx.write({ 'a.txt': '2\n', 'b.txt': '2\n', 'new.txt': 'n\n' });
    await fx.git('add', 'b.txt');
    expect(await dirtyFiles(fx.root, ['a.txt', 'b.txt', 'c.txt', 'new.txt'], { env: fx.env })).toEqual(['a.txt', 'b.txt']);
  });
});
