import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { appendFile, chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitFiles } from '../../src/git/commit.js';
import { parseConfigList, repositoryCommandOverrides, type ConfigEntry } from '../../src/git/config-guard.js';
import { diffFiles, diffSince } from '../../src/git/diff.js';
import { listRepoFiles } from '../../src/git/ls-files.js';
import { createGit, runGit } from '../../src/git/repo.js';
import { statusOf } from '../../src/git/status.js';
import { makeFixture, userCommit, type Fixture } from './git-fixture.js';

/** A gpg stand-in: reads what to sign, reports SIG_CREATED on the status fd (2) as git expects, prints a signature. */
export const FAKE_GPG = `#!/bin/sh
cat >/dev/null
echo "[GNUPG:] SIG_CREATED D 1 8 00 1700000000 FAKEKEY" >&2
printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nZmFrZS1zaWduYXR1cmU=\\n-----END PGP SIGNATURE-----\\n'
`;

describe('repositoryCommandOverrides', () => {
  const entry = (scope: string, key: string, value: string): ConfigEntry => ({ scope, key, value });

  it('overrides what the repository sets, with the user value when there is one', () => {
    const overrides = repositoryCommandOverrides([
      entry('global', 'gpg.program', '/home/me/sign'),
      entry('global', 'credential.helper', 'store'),
      entry('local', 'gpg.program', './evil'),
      entry('local', 'core.fsmonitor', './evil'),
      entry('local', 'filter.x.clean', './evil'),
      entry('local', 'credential.https://example.com.helper', '!evil'),
      entry('local', 'alias.st', 'status'),
      entry('local', 'alias.pwn', '!evil'),
      entry('local', 'user.name', 'Mallory'),
    ]);
    expect(overrides).toEqual([
      ['gpg.program', '/home/me/sign'],
      ['core.fsmonitor', 'false'],
      ['filter.x.clean', ''],
      ['alias.pwn', ''],
      ['filter.x.required', 'false'],
      ['credential.helper', ''],
      ['credential.helper', 'store'],
    ]);
  });

  it('leaves a config with no repository command keys alone', () => {
    expect(repositoryCommandOverrides([entry('global', 'core.fsmonitor', 'true'), entry('local', 'core.bare', 'false')])).toEqual([]);
  });

  it('parses git\'s -z listing, a bare key included', () => {
    expect(parseConfigList('global\0user.name\nAda\0local\0core.bare\0')).toEqual([entry('global', 'user.name', 'Ada'), entry('local', 'core.bare', 'true')]);
  });
});

describe("tandem's git calls with a repository config that names commands", () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it('run none of them: fsmonitor, filters, textconv, diff and merge drivers, gpg, editor, credential helper, askpass, alias', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', 'b.bin': 'b\n' });
    const markers = join(fx.root, '..', 'markers');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(markers);
    const script = join(fx.root, '..', 'evil.sh');
    // Every command writes a marker named after its first argument and succeeds.
    await writeFile(script, `#!/bin/sh\ntouch "${markers}/$1"\ncat\n`);
    await chmod(script, 0o755);
    const cmd = (name: string): string => `"${script} ${name}"`;
    // The planted keys live in a file .git/config includes, as a shipped repository could arrange.
    await writeFile(
      join(fx.root, '..', 'included.cfg'),
      [
        '[core]',
        `  fsmonitor = ${cmd('fsmonitor')}`,
        `  editor = ${cmd('editor')}`,
        `  askPass = ${cmd('askpass')}`,
        `  pager = ${cmd('pager')}`,
        '[filter "x"]',
        `  clean = ${cmd('clean')}`,
        `  smudge = ${cmd('smudge')}`,
        '  required = true',
        '[filter "p"]',
        `  process = ${cmd('process')}`,
        '  required = true',
        '[diff "x"]',
        `  textconv = ${cmd('textconv')}`,
        `  command = ${cmd('diffcmd')}`,
        '[diff]',
        `  external = ${cmd('external')}`,
        '[merge "x"]',
        `  driver = ${cmd('merge')}`,
        '[gpg]',
        `  program = ${cmd('gpg')}`,
        '[credential]',
        `  helper = "!${script} credential"`,
        '[alias]',
        `  pwn = "!${script} alias"`,
        '',
      ].join('\n'),
    );
    // The user's own signing program (global config) signs tandem's commits; the repository's never runs.
    const signer = join(fx.root, '..', 'sign.sh');
    await writeFile(signer, FAKE_GPG);
    await chmod(signer, 0o755);
    await writeFile(join(fx.root, '..', 'home', '.gitconfig'), `[gpg]\n  program = ${signer}\n[commit]\n  gpgSign = true\n`);
    await appendFile(join(fx.root, '.git', 'config'), `[includeIf "gitdir:${fx.root}/"]\n  path = ../../included.cfg\n`);
    await fx.write({ '.gitattributes': '*.txt filter=x diff=x merge=x\n*.bin filter=p\n', 'a.txt': '2\n', 'b.bin': 'c\n', 'new.txt': 'n\n' });
    const options = { env: fx.env };
    expect(await listRepoFiles(fx.root, fx.env)).toContain('new.txt');
    const git = createGit(fx.root, options);
    expect((await statusOf(git, ['.'])).length).toBeGreaterThan(0);
    expect(await diffFiles(fx.root, ['a.txt', 'new.txt'], options)).toContain('+2');
    const base = (await runGit(git, ['rev-parse', 'HEAD'])).trim();
    const hash = await commitFiles(fx.root, ['.gitattributes', 'a.txt', 'b.bin', 'new.txt'], 'change', { ...options, attribution: true });
    expect(hash).toMatch(/^[0-9a-f]{40}$/);
    expect(await fx.git('cat-file', '-p', hash!)).toContain('gpgsig -----BEGIN PGP SIGNATURE-----');
    expect(await diffSince(fx.root, base, options)).toContain('+2');
    await runGit(git, ['credential', 'fill'], {}).catch(() => '');
    await runGit(git, ['pwn']).catch(() => '');
    await runGit(git, ['log', '-p', '-1']);
    expect(readdirSync(markers)).toEqual([]);
    expect(existsSync(join(markers, 'clean'))).toBe(false);
  });
});

describe('the command keys tandem itself never triggers, exercised through runGit (as /git would)', () => {
  let fx: Fixture;
  afterEach(async () => fx.cleanup());

  it('runs no editor, sequence editor, merge driver, ssh command, upload-pack, ext:: transport or pager of the repository', async () => {
    fx = await makeFixture();
    await userCommit(fx, { 'a.txt': '1\n', '.gitattributes': '*.txt merge=x\n' });
    const markers = join(fx.root, '..', 'markers');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(markers);
    const script = join(fx.root, '..', 'evil.sh');
    await writeFile(script, `#!/bin/sh\ntouch "${markers}/$1"\nexit 0\n`);
    await chmod(script, 0o755);
    const cmd = (name: string): string => `"${script} ${name}"`;
    await appendFile(
      join(fx.root, '.git', 'config'),
      [
        '[core]',
        `  editor = ${cmd('editor')}`,
        `  sshCommand = ${cmd('ssh')}`,
        `  pager = ${cmd('pager')}`,
        '[sequence]',
        `  editor = ${cmd('sequence-editor')}`,
        '[merge "x"]',
        `  driver = ${cmd('merge')}`,
        '[remote "local"]',
        `  url = ${fx.root}`,
        `  uploadpack = ${cmd('uploadpack')}`,
        '[protocol]',
        '  allow = always',
        '[pager]',
        `  log = ${cmd('pager-log')}`,
        '',
      ].join('\n'),
    );
    const git = createGit(fx.root, { env: fx.env });
    const attempt = (args: string[]): Promise<unknown> => runGit(git, args).catch(() => null);
    // two branches changing a.txt: the merge uses the repository's driver for *.txt
    await runGit(git, ['checkout', '-q', '-b', 'side']);
    await fx.write({ 'a.txt': 'side\n' });
    await runGit(git, ['-c', 'user.name=A', '-c', 'user.email=a@x', 'commit', '-q', '-am', 'side']);
    await runGit(git, ['checkout', '-q', '-']);
    await fx.write({ 'a.txt': 'main\n' });
    await runGit(git, ['-c', 'user.name=A', '-c', 'user.email=a@x', 'commit', '-q', '-am', 'main']);
    await attempt(['-c', 'user.name=A', '-c', 'user.email=a@x', 'merge', '--no-edit', 'side']);
    await attempt(['merge', '--abort']);
    await attempt(['-c', 'user.name=A', '-c', 'user.email=a@x', 'commit', '--amend']);
    await attempt(['-c', 'user.name=A', '-c', 'user.email=a@x', 'rebase', '-i', 'HEAD~1']);
    await attempt(['ls-remote', 'ssh://example.invalid/repo.git']);
    await attempt(['ls-remote', 'local']);
    await attempt(['ls-remote', `ext::sh -c touch% ${markers}/ext`]);
    await attempt(['log', '-1']);
    expect(readdirSync(markers)).toEqual([]);
  });
});

describe('a shipped core.worktree', () => {
  it('naming a folder that does not contain the one tandem started in is refused', async () => {
    const fx = await makeFixture();
    try {
      const { findRepoRoot } = await import('../../src/git/repo.js');
      expect(await findRepoRoot(fx.root, { env: fx.env })).toBe(fx.root);
      await appendFile(join(fx.root, '.git', 'config'), `[core]\n  worktree = ${join(fx.root, '..', 'home')}\n`);
      await expect(findRepoRoot(fx.root, { env: fx.env })).rejects.toMatchObject({ kind: 'not_a_repo', message: expect.stringMatching(/does not contain this folder/) });
    } finally {
      await fx.cleanup();
    }
  });
});

describe("a shipped index that is not a regular file", () => {
  it.each([
    ['a FIFO', (file: string) => execFileSync('mkfifo', [file])],
    ['a link to /dev/zero', (file: string) => symlinkSync('/dev/zero', file)],
  ])('(%s) is refused before any git call reads it, where git would wait or read garbage', async (_what, plant) => {
    const fx = await makeFixture();
    try {
      await userCommit(fx, { 'a.txt': '1\n' });
      const { findRepoRoot } = await import('../../src/git/repo.js');
      expect(await findRepoRoot(fx.root, { env: fx.env })).toBe(fx.root);
      const index = join(fx.root, '.git', 'index');
      await rm(index);
      plant(index);
      await expect(findRepoRoot(fx.root, { env: fx.env })).rejects.toMatchObject({ kind: 'not_a_repo', message: expect.stringMatching(/index .* is not a regular file/) });
    } finally {
      await fx.cleanup();
    }
  });
});
