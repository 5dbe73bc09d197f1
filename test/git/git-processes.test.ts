// The request's listing is one git process (status) once the run knows git's folder: the index comes from
// its file. A commit of files git already tracks is one git process when the run knows git's folder (findRepoRoot
// asked with the top folder): no status before it (the index is read from its file), no rev-parse after
// it (the commit's summary names the new commit). What is not plainly tracked still asks git's status.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { changedAfter } from '../../src/platform/change-times.js';
import { commitFiles, summaryHash } from '../../src/git/commit.js';
import { parseIndexListing } from '../../src/git/ls-files.js';
import { findRepoRoot, type GuardState } from '../../src/git/repo.js';
import { RequestListing } from '../../src/git/repo-listing.js';
import { gitCounter } from '../support/git-counter.js';
import { filesIn, makeFixture, userCommit, type Fixture } from './git-fixture.js';

const counter = gitCounter();

let fx: Fixture | undefined;
/**
 * Waits until `file` was last changed well before now. A listing begun within a few ms of a change to
 * `.git/config` is not shared (change-times.ts judges "maybe changed" then), and the fixture writes it last.
 */
async function settle(file: string): Promise<void> {
  while (changedAfter(statSync(file), Date.now())) await new Promise((done) => setTimeout(done, 50));
}

afterEach(async () => {
  await fx?.cleanup();
  fx = undefined;
  counter.reset();
});

describe('the git processes of a commit', () => {
  it('are the commit alone for tracked files, once the run knows where git keeps its files', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', 'sub/b.txt': '1\n', 'c.txt': '1\n' });
    await fx.write({ 'a.txt': '2\n', 'sub/b.txt': '2\n', 'c.txt': '2\n' });
    const options = { env: { ...fx.env, PATH: counter.path }, guards: new Map<string, GuardState>() };
    expect(await findRepoRoot(fx.root, options)).toBe(fx.root);
    counter.reset();

    const hash = await commitFiles(fx.root, ['a.txt', 'sub/b.txt'], 'fix: two', { ...options, attribution: true });

    expect(counter.subcommands()).toEqual(['commit']);
    expect(hash).toBe((await fx.git('rev-parse', 'HEAD')).trim());
    expect(await filesIn(fx, hash!)).toEqual(['a.txt', 'sub/b.txt']);
    expect(await fx.git('status', '--porcelain')).toBe(' M c.txt\n');
  });

  it('ask git status first for a new file', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    await fx.write({ 'a.txt': '2\n', 'new.txt': 'n\n' });
    const options = { env: { ...fx.env, PATH: counter.path }, guards: new Map<string, GuardState>() };
    await findRepoRoot(fx.root, options);
    counter.reset();

    const hash = await commitFiles(fx.root, ['a.txt', 'new.txt'], 'feat: new', { ...options, attribution: true });

    expect(counter.subcommands()).toEqual(['status', 'add', 'commit']);
    expect(await filesIn(fx, hash!)).toEqual(['a.txt', 'new.txt']);
    expect(hash).toBe((await fx.git('rev-parse', 'HEAD')).trim());
  });
});

describe('the git processes of a run started in a sub-folder', () => {
  it('list the config once: the top folder uses the listing made in the sub-folder', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'app/a.txt': '1\n' });
    await fx.write({ 'app/a.txt': '2\n' });
    await settle(join(fx.root, '.git', 'config'));
    const options = { env: { ...fx.env, PATH: counter.path }, guards: new Map<string, GuardState>() };

    const root = await findRepoRoot(join(fx.root, 'app'), options);
    await new RequestListing(root!, options).listing();
    const hash = await commitFiles(root!, ['app/a.txt'], 'fix', { ...options, attribution: true });

    expect(counter.subcommands(), counter.calls()).toEqual(['config', 'rev-parse', 'status', 'commit']);
    expect(hash).toBe((await fx.git('rev-parse', 'HEAD')).trim());
  });
});

describe('the git processes of a listing', () => {
  it("is the status alone, with the same index entries ls-files lists", async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', 'b.txt': '1\n' });
    await fx.git('update-index', '--skip-worktree', 'b.txt');
    await fx.write({ 'a.txt': '2\n', 'new.txt': 'n\n' });
    const options = { env: { ...fx.env, PATH: counter.path }, guards: new Map<string, GuardState>() };
    await findRepoRoot(fx.root, options);
    counter.reset();

    const listing = await new RequestListing(fx.root, options).listing();

    expect(counter.subcommands()).toEqual(['status']);
    expect(listing.index).toEqual(parseIndexListing(await fx.git('ls-files', '-s', '-v', '-z')));
    expect(listing.files).toEqual(['a.txt', 'b.txt', 'new.txt']);
  });
});

describe('summaryHash', () => {
  const id = 'a'.repeat(30) + '0123456789';
  it("reads the id from git commit's summary line, whatever the branch and subject say", () => {
    expect(summaryHash(`[main ${id}] fix: x\n 1 file changed\n`, 40)).toBe(id);
    expect(summaryHash(`[main (root-commit) ${id}] first\n`, 40)).toBe(id);
    expect(summaryHash(`[detached HEAD ${id}] x\n`, 40)).toBe(id);
    expect(summaryHash(`[feature/a]b ${id}] subject with ${'b'.repeat(40)}] in it\n`, 40)).toBe(id);
  });

  it('is null for another length of id or any other output (git is asked for HEAD then)', () => {
    expect(summaryHash(`[main ${id.slice(0, 7)}] x\n`, 40)).toBeNull();
    expect(summaryHash(`[main ${id}] x\n`, 64)).toBeNull();
    expect(summaryHash('', 40)).toBeNull();
    expect(summaryHash(`hook says [main ${id}] x\n`, 40)).toBeNull();
  });
});
