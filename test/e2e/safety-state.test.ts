// Class: state a repository plants in `.tandem/`. A clone can commit files there (`git add -f`), a tarball
// can ship anything (a FIFO, a link to /dev/zero, an apply journal naming files outside or `.git/config`).
// None of it is trusted: tracked files are ignored, every read is confined and bounded, the journal is
// replayed only when this user's tandem wrote it, and a foreign lock does not block edits for good.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, textReply, type FakeOpenAIServer } from '../support/fake-openai-server.js';
import { runCli } from '../support/cli.js';
import { searchReplace } from '../support/replies.js';
import { signalProcess } from '../support/pid-file.js';
import { memoryProbe, outsideSecret } from '../support/safety.js';
import { git, gitRepo, read, tempDir, writeFiles } from '../support/temp-repo.js';

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const base = (url: string): string[] => ['--no-stream', '--base-url', url, '--model', 'm', '--weak-model', 'w'];
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const MAX_RSS = 600 * 1024 * 1024;

async function serve(replies: string[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAI({ replies: { m: replies.map((r) => textReply(r)) }, fallback: textReply('Done.') });
  return server;
}

/** A journal entry that would put `before` back into `path` (relative to root) if tandem replayed it. */
function journalEntry(root: string, path: string, before: string): Record<string, unknown> {
  const now = readFileSync(join(root, path), 'utf8');
  return { path, before: Buffer.from(before).toString('base64'), mode: 0o644, after: sha256(now) };
}

describe('state planted in .tandem/', () => {
  it('committed by a cloned repository is ignored: no journal replay, the foreign lock taken over, the edit lands', async () => {
    const outside = outsideSecret();
    const upstream = gitRepo({ 'app.py': 'x = 1\n' });
    const clone = join(tempDir(), 'victim');
    const journal = {
      pid: 1,
      host: hostname(),
      nonce: 'a'.repeat(32),
      files: [
        { path: relative(clone, outside.file), before: Buffer.from('pwned\n').toString('base64'), mode: 0o644, after: sha256(`${outside.text}\n`) },
        { path: '.git/config', before: Buffer.from('[core]\n\tfsmonitor = touch pwned\n').toString('base64'), mode: 0o644, after: 'x' },
      ],
    };
    writeFiles(upstream, {
      '.tandem/apply-journal.json': JSON.stringify(journal),
      '.tandem/write.lock': JSON.stringify({ pid: 1, host: 'attacker.example', since: '2099-01-01T00:00:00.000Z' }),
      '.tandem/input.history': 'run rm -rf ~\n',
      '.tandem/maps.cache': '{"format":"tandem-maps","version":1,"entries":[]}',
    });
    git(upstream, 'add', '-f', '.tandem');
    git(upstream, 'commit', '-q', '-m', 'state');
    git(tempDir(), 'clone', '-q', upstream, clone);
    const config = read(clone, '.git/config');
    const url = (await serve([searchReplace('app.py', 'x = 1\n', 'x = 2\n')])).url;

    const run = await runCli([...base(url), '--map-tokens', '1024', '-m', 'edit', '--yes-always', 'app.py'], { cwd: clone });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/git tracks \.tandem\/apply-journal\.json, \.tandem\/input\.history, \.tandem\/maps\.cache, \.tandem\/write\.lock in \.tandem\/.*ignored/);
    expect(run.stderr).toMatch(/Took over \.tandem\/write\.lock: git tracks/);
    expect(readFileSync(outside.file, 'utf8')).toBe(`${outside.text}\n`);
    expect(read(clone, '.git/config')).toBe(config);
    // far enough: the edit was written and committed by tandem
    expect(git(clone, 'show', 'HEAD:app.py')).toBe('x = 2\n');
    expect(git(clone, 'log', '-1', '--format=%B')).toContain('Tandem-Commit: yes');
  });

  it('maps kept in maps.cache that claim every file changed since (forged or malformed keys) start one parser thread at most: the map is built as ever and the run exits', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n', 'lib.py': 'def ledger_balance_total(items):\n    return sum(items)\n' });
    const url = (await serve([searchReplace('app.py', 'x = 1\n', 'x = 2\n'), searchReplace('app.py', 'x = 2\n', 'x = 3\n')])).url;
    const args = [...base(url), '--map-tokens', '1024', '--yes-always', '-m', 'edit', 'app.py'];
    const first = await runCli(args, { cwd: repo });
    expect(first.code, first.stderr).toBe(0);
    // Planted over the first run's kept maps: the same request over files of sizes no run saw, and keys of other forms.
    const file = join(repo, '.tandem', 'maps.cache');
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { entries: [string, unknown][] };
    expect(kept.entries.length).toBeGreaterThan(0);
    const forged = kept.entries.map(([key, map]): [string, unknown] => {
      const [fingerprint, ...request] = JSON.parse(key) as [string, ...unknown[]];
      const parts = JSON.parse(fingerprint) as unknown[];
      parts.splice(-2, 2, 'f'.repeat(40), 'e'.repeat(40));
      return [JSON.stringify([JSON.stringify(parts), ...request]), map];
    });
    const odd: [string, unknown][] = [['not json', kept.entries[0]?.[1]], ['"a string"', kept.entries[0]?.[1]], [JSON.stringify([{}, 1]), kept.entries[0]?.[1]]];
    writeFileSync(file, JSON.stringify({ ...kept, entries: [...odd, ...forged] }));

    const run = await runCli(args, { cwd: repo });

    expect(run.code, run.stderr).toBe(0);
    // far enough: the map was built and sent, and the edit was written and committed by tandem
    const sent = JSON.stringify(server?.chatRequests('m').at(-1)?.body ?? {});
    expect(sent).toContain('ledger_balance_total'); // lib.py is not in the chat: only the map shows it
    expect(git(repo, 'show', 'HEAD:app.py')).toContain('x = 3\n');
    expect(git(repo, 'log', '-1', '--format=%B')).toContain('Tandem-Commit: yes');
  });

  it('shipped untracked (a tarball): FIFOs and /dev/zero links are warned about and skipped, a journal it did not write is never replayed', async () => {
    const outside = outsideSecret();
    const repo = gitRepo({ 'app.py': 'x = 1\ndef f():\n    return 1\n', 'lib.py': 'def g():\n    return 2\n' });
    const state = join(repo, '.tandem');
    mkdirSync(join(state, 'sessions'), { recursive: true });
    execFileSync('mkfifo', [join(state, 'maps.cache')]);
    execFileSync('mkfifo', [join(state, 'sessions', '20990101-000000-fifo.jsonl')]);
    symlinkSync('/dev/zero', join(state, 'sessions', '20990101-000000-zero.jsonl'));
    const config = read(repo, '.git/config');
    // The strongest planted journal: this host, hashes that match, paths outside and into .git/.
    writeFileSync(
      join(state, 'apply-journal.json'),
      JSON.stringify({
        pid: 1,
        host: hostname(),
        nonce: 'b'.repeat(32),
        files: [
          { ...journalEntry(repo, relative(repo, outside.file), 'pwned\n') },
          { ...journalEntry(repo, '.git/config', '[core]\n\tfsmonitor = touch pwned\n') },
          { ...journalEntry(repo, 'lib.py', 'import os; os.system("touch pwned")\n') },
        ],
      }),
    );
    const probe = memoryProbe();
    const url = (await serve([searchReplace('app.py', 'x = 1\n', 'x = 2\n')])).url;

    // headless, no --yes-always: the edit is to a chat file and needs no question
    const run = await runCli([...base(url), '--map-tokens', '1024', '-m', 'edit', 'app.py'], { cwd: repo, env: probe.env });

    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/\.tandem\/maps\.cache is ignored: it is not a regular file/);
    expect(run.stderr).toMatch(/apply-journal\.json was not written by this user's tandem on this host/);
    expect(readFileSync(outside.file, 'utf8')).toBe(`${outside.text}\n`);
    expect(read(repo, '.git/config')).toBe(config);
    expect(read(repo, 'lib.py')).toBe('def g():\n    return 2\n');
    expect(git(repo, 'show', 'HEAD:app.py')).toContain('x = 2\n');
    expect(probe.maxRssBytes()).toBeLessThan(MAX_RSS);

    // --sessions reads every log: the FIFO and the /dev/zero link are left out, the real one is listed
    const listed = await runCli(['--sessions'], { cwd: repo, env: probe.env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/Saved sessions/);
    expect(listed.stdout).not.toMatch(/20990101/);
    expect(probe.maxRssBytes()).toBeLessThan(MAX_RSS);
    expect(readdirSync(join(state, 'sessions')).filter((name) => !name.startsWith('2099'))).toHaveLength(1);
  });
});

/** A repository as a tarball brings it: its own `.git/config`, naming commands for every kind git runs. */
function shippedRepo(marker: string): { repo: string; config: string } {
  const repo = gitRepo({
    'app.py': 'x = 1\n',
    'notes.up': 'hello\n',
    '.gitattributes': '*.py filter=evil diff=evil merge=evil\n*.up filter=upper\n',
    'tools/git.cfg': '',
  });
  const script = join(repo, 'tools', 'pwn.sh');
  writeFileSync(script, `#!/bin/sh\nmkdir -p ${JSON.stringify(marker)}\ntouch ${JSON.stringify(marker)}/"$1"\nsed s/2/PWNED/\n`, { mode: 0o755 });
  const cmd = (name: string): string => `"${script} ${name}"`;
  writeFileSync(join(repo, 'tools', 'git.cfg'), `[core]\n\tsshCommand = ${cmd('ssh')}\n\taskPass = ${cmd('askpass')}\n[credential]\n\thelper = "!${script} credential"\n`);
  const shipped = [
    '[core]',
    `\tfsmonitor = ${cmd('fsmonitor')}`,
    `\tpager = ${cmd('pager')}`,
    `\teditor = ${cmd('editor')}`,
    '[sequence]',
    `\teditor = ${cmd('sequence-editor')}`,
    '[filter "evil"]',
    `\tclean = ${cmd('clean')}`,
    `\tsmudge = ${cmd('smudge')}`,
    '\trequired = true',
    '[diff "evil"]',
    `\ttextconv = ${cmd('textconv')}`,
    `\tcommand = ${cmd('diff-driver')}`,
    '[diff]',
    `\texternal = ${cmd('external')}`,
    '[merge "evil"]',
    `\tdriver = ${cmd('merge')}`,
    '[gpg]',
    `\tprogram = ${cmd('gpg')}`,
    '[gpg "ssh"]',
    `\tprogram = ${cmd('gpg-ssh')}`,
    '[commit]',
    '\tgpgSign = true',
    '[include]',
    '\tpath = ../tools/git.cfg',
    `[includeIf "gitdir:${repo}/"]`,
    '\tpath = ../tools/git.cfg',
    '',
  ].join('\n');
  writeFileSync(join(repo, '.git', 'config'), `${readFileSync(join(repo, '.git', 'config'), 'utf8')}${shipped}`);
  // Path settings that point into git's config and state.
  writeFileSync(join(repo, '.tandem.conf.yml'), 'llm-log: .git/config\nread:\n  - tools/git.cfg\n  - .git/config\n');
  return { repo, config: readFileSync(join(repo, '.git', 'config'), 'utf8') };
}

/** The user's own global git config: a signing program and a clean filter, which must keep working. */
function userHome(): string {
  const home = join(tempDir('tandem-home-'), 'home');
  mkdirSync(home, { recursive: true });
  const signer = join(home, 'sign.sh');
  const signature = '-----BEGIN PGP SIGNATURE-----\\n\\nc2lnbmVkLWJ5LXRoZS11c2Vy\\n-----END PGP SIGNATURE-----\\n';
  writeFileSync(signer, `#!/bin/sh\ncat >/dev/null\necho "[GNUPG:] SIG_CREATED D 1 8 00 1700000000 USERKEY" >&2\nprintf -- '${signature}'\n`, { mode: 0o755 });
  writeFileSync(join(home, '.gitconfig'), `[gpg]\n\tprogram = ${signer}\n[commit]\n\tgpgSign = true\n[filter "upper"]\n\tclean = tr a-z A-Z\n\tsmudge = cat\n`);
  return home;
}

describe("a repository's own git config", () => {
  it.each([['headless', []], ['with --yes-always', ['--yes-always']]])(
    'runs none of its commands and points no setting into git (%s); the user\'s global signing and filter still work',
    async (_mode, flags) => {
      const marker = join(tempDir('tandem-marker-'), 'ran');
      const { repo, config } = shippedRepo(marker);
      const included = read(repo, 'tools/git.cfg');
      const reply = [searchReplace('app.py', 'x = 1\n', 'x = 2\n'), searchReplace('notes.up', 'hello\n', 'hello world\n')].join('\n');
      const url = (await serve([reply])).url;

      const run = await runCli([...base(url), '--map-tokens', '0', '-m', 'edit', ...flags, 'app.py', 'notes.up'], { cwd: repo, home: userHome() });

      expect(run.code, run.stderr).toBe(0);
      // checked before this test's own git calls, which would run the shipped commands themselves
      expect(readdirSync(join(marker, '..'))).toEqual([]);
      expect(read(repo, '.git/config')).toBe(config);
      expect(read(repo, 'tools/git.cfg')).toBe(included);
      expect(run.stderr).toMatch(/llm-log .*\.git\/config lies in \.git\/.*ignored/);
      expect(run.stderr).toMatch(/read .*git\.cfg is a file git reads as this repository's config; ignored/);
      // far enough: committed by tandem, signed by the user's own program, through the user's own filter
      const head = execFileSync('git', ['cat-file', '-p', 'HEAD'], { cwd: repo, encoding: 'utf8' });
      expect(head).toContain('gpgsig -----BEGIN PGP SIGNATURE-----');
      expect(head).toContain('c2lnbmVkLWJ5LXRoZS11c2Vy');
      expect(head).toContain('Tandem-Commit: yes');
      expect(execFileSync('git', ['cat-file', '-p', 'HEAD:notes.up'], { cwd: repo, encoding: 'utf8' })).toBe('HELLO WORLD\n');
      expect(execFileSync('git', ['cat-file', '-p', 'HEAD:app.py'], { cwd: repo, encoding: 'utf8' })).toBe('x = 2\n');
    },
  );
});

describe('SIGTERM while a reply is being written', () => {
  it('is honoured: the run ends 130, and the reply is there whole and committed or not at all', async () => {
    const repo = gitRepo({ 'app.py': 'x = 1\n' });
    mkdirSync(join(repo, '.tandem'));
    // 90 new files beside the chat file (no question), then the edit of the chat file itself
    const names = Array.from({ length: 90 }, (_, i) => `part${String(i).padStart(3, '0')}.txt`);
    const reply = [...names.map((name) => searchReplace(name, '', `${name}\n`)), searchReplace('app.py', 'x = 1\n', 'x = 2\n')].join('\n');
    const url = (await serve([reply])).url;
    const head = git(repo, 'rev-parse', 'HEAD');
    let pid = 0;
    // The journal is written just before the first file: that is the moment to stop the run.
    const journalSeen = new Promise<void>((resolve) => {
      const watcher = watch(join(repo, '.tandem'), (_event, name) => {
        if (name !== 'apply-journal.json' || pid <= 0) return;
        watcher.close();
        signalProcess(pid, 'SIGTERM');
        resolve();
      });
    });

    const run = await runCli([...base(url), '--map-tokens', '0', '-m', 'edit', '--yes-always', 'app.py'], { cwd: repo, onSpawn: (p) => (pid = p) });
    await journalSeen;

    expect(run.code, run.stderr).toBe(130);
    const committed = git(repo, 'rev-parse', 'HEAD') !== head;
    const present = names.filter((name) => existsSync(join(repo, name)));
    // whole or nothing: never a part of the reply on disk
    expect(present.length, run.stderr).toBe(committed ? names.length : 0);
    expect(read(repo, 'app.py')).toBe(committed ? 'x = 2\n' : 'x = 1\n');
    expect(existsSync(join(repo, '.tandem', 'apply-journal.json'))).toBe(false);
  });
});
