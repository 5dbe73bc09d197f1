import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../../src/git/commit.js';
import { diffFiles, diffSince, headHash } from '../../src/git/diff.js';
import { ensureExcluded } from '../../src/git/exclude.js';
import { findRepoRoot, initRepo, toRepoPaths } from '../../src/git/repo.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

describe('findRepoRoot and initRepo', () => {
  let fx: Fixture | undefined;
  let plain: string | undefined;
  afterEach(async () => {
    await fx?.cleanup();
    if (plain) await rm(plain, { recursive: true, force: true });
    fx = undefined;
    plain = undefined;
  });

  it('finds the root from a sub-folder', async () => {
    fx = await makeFixture();
    await mkdir(join(fx.root, 'src', 'deep'), { recursive: true });
    expect(await findRepoRoot(join(fx.root, 'src', 'deep'), { env: fx.env })).toBe(fx.root);
  });

  it('returns null outside a repository and for a missing folder; initRepo makes one', async () => {
    plain = await realpath(await mkdtemp(join(tmpdir(), 'tandem-plain-')));
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: plain, GIT_CEILING_DIRECTORIES: tmpdir() };
    expect(await findRepoRoot(join(plain, 'nope'), { env })).toBeNull();
    expect(await findRepoRoot(plain, { env })).toBeNull();
    await initRepo(plain, { env });
    expect(await findRepoRoot(plain, { env })).toBe(plain);
  });

  it('drops the variables that would point git elsewhere or open an editor from a given environment', async () => {
    fx = await makeFixture();
    const env = { ...fx.env, GIT_DIR: '/nonexistent', EDITOR: 'vim', GIT_CONFIG_GLOBAL: '/nonexistent' };
    expect(await findRepoRoot(fx.root, { env })).toBe(fx.root);
  });

  it('turns paths into repository-relative posix paths', () => {
    expect(toRepoPaths('/r', ['/r/a/b.ts', 'c.ts', './d/../e.ts'])).toEqual(['a/b.ts', 'c.ts', 'e.ts']);
    expect(() => toRepoPaths('/r', ['/other/x'])).toThrow(/not a file inside/);
  });
});

describe('diffs', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it('headHash is null without commits, then the hash', async () => {
    fx = await makeFixture();
    expect(await headHash(fx.root, { env: fx.env })).toBeNull();
    const hash = await userCommit(fx, { 'a.txt': '1\n' });
    expect(await headHash(fx.root, { env: fx.env })).toBe(hash);
  });

  it('diffSince shows the commits after a hash, or everything from the start', async () => {
    fx = await makeFixture();
    expect(await diffSince(fx.root, null, { env: fx.env })).toBe('');
    const first = await userCommit(fx, { 'a.txt': 'one\n' });
    await fx.write({ 'a.txt': 'two\n' });
    await commitFiles(fx.root, ['a.txt'], 'change', { attribution: true, env: fx.env });
    const since = await diffSince(fx.root, first, { env: fx.env });
    expect(since).toContain('-one\n+two\n');
    const all = await diffSince(fx.root, null, { env: fx.env });
    expect(all).toContain('new file mode');
    expect(all).toContain('+two\n');
  });

  it('diffFiles shows changed and new files, nothing for others', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': 'one\n', 'b.txt': 'b\n' });
    await fx.write({ 'a.txt': 'two\n', 'b.txt': 'b2\n', 'n.txt': 'fresh\n' });
    const diff = await diffFiles(fx.root, ['a.txt', 'n.txt'], { env: fx.env });
    expect(diff).toContain('-one\n+two\n');
    expect(diff).toContain('+++ b/n.txt');
    expect(diff).toContain('+fresh');
    expect(diff).not.toContain('b.txt');
    expect(await diffFiles(fx.root, [], { env: fx.env })).toBe('');
  });

  it('diffFiles works without commits', async () => {
    fx = await makeFixture();
    await fx.write({ 'a.txt': 'one\n' });
    await fx.git('add', 'a.txt');
    await fx.write({ 'b.txt': 'two\n' });
    const diff = await diffFiles(fx.root, ['a.txt', 'b.txt'], { env: fx.env });
    expect(diff).toContain('+one');
    expect(diff).toContain('+two');
  });
});

describe('excluding .tandem/', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it('adds the pattern to info/exclude once and never touches .gitignore', async () => {
    fx = await makeFixture();
    await writeFile(join(fx.root, '.git', 'info', 'exclude'), '# comment\n*.log');
    expect(await ensureExcluded(fx.root, '.tandem/', { env: fx.env })).toBe(true);
    expect(await ensureExcluded(fx.root, '.tandem/', { env: fx.env })).toBe(false);
    expect(await readFile(join(fx.root, '.git', 'info', 'exclude'), 'utf8')).toBe('# comment\n*.log\n.tandem/\n');
    await fx.write({ '.tandem/tags.cache': 'x' });
    expect(await fx.git('status', '--porcelain')).toBe('');
    expect(await fx.git('check-ignore', '.tandem/tags.cache')).toContain('.tandem/tags.cache');
  });

  it('writes to the right exclude file from a linked worktree', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n' });
    const tree = join(fx.root, '..', 'wt');
    await fx.git('worktree', 'add', '--quiet', '--detach', tree);
    expect(await ensureExcluded(tree, '.tandem/', { env: fx.env })).toBe(true);
    expect(await readFile(join(fx.root, '.git', 'info', 'exclude'), 'utf8')).toContain('.tandem/\n');
  });
});
