// Which files git will not take from the work tree, and what git is in the middle of.
import { afterEach, describe, expect, it } from 'vitest';
import { createGit } from '../../src/git/repo.js';
import { operationInProgress, untrackablePaths } from '../../src/git/state.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

let fx: Fixture | undefined;
let sub: Fixture | undefined;
afterEach(async () => {
  await fx?.cleanup();
  await sub?.cleanup();
  fx = sub = undefined;
});

describe('untrackablePaths', () => {
  it('names skip-worktree, assume-unchanged and submodule files, and only those', async () => {
    fx = await makeFixture();
    sub = await makeFixture();
    await userCommit(sub, { 'inner.txt': 'inner\n' });
    await userCommit(fx, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    await fx.git('update-index', '--skip-worktree', 'a.txt');
    await fx.git('update-index', '--assume-unchanged', 'b.txt');
    await fx.git('-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', sub.root, 'vendor/lib');

    const found = await untrackablePaths(fx.root, ['a.txt', 'b.txt', 'c.txt', 'vendor/lib/inner.txt', 'vendor/lib/new.txt', 'new.txt'], { env: fx.env });

    expect(found.map((f) => f.path)).toEqual(['a.txt', 'b.txt', 'vendor/lib/inner.txt', 'vendor/lib/new.txt']);
    expect(found[0]?.reason).toMatch(/skip-worktree/);
    expect(found[1]?.reason).toMatch(/assume-unchanged/);
    expect(found[2]?.reason).toBe('vendor/lib/inner.txt is inside the submodule vendor/lib; tandem commits only to this repository');
  });
});

describe('operationInProgress', () => {
  it('is null normally and "a merge" while a merge stops on a conflict', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'f.txt': 'base\n' });
    const git = createGit(fx.root, { env: fx.env });
    expect(await operationInProgress(git)).toBeNull();
    const main = (await fx.git('rev-parse', '--abbrev-ref', 'HEAD')).trim();
    await fx.git('checkout', '-q', '-b', 'side');
    await userCommit(fx, { 'f.txt': 'side\n' });
    await fx.git('checkout', '-q', main);
    await userCommit(fx, { 'f.txt': 'main\n' });
    await fx.git('merge', 'side').catch(() => undefined);
    expect(await operationInProgress(git)).toBe('a merge');
  });
});
