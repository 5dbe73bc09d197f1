import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordJournalNonce, recoverJournal, sha256 } from '../../src/round/apply-journal.js';
import { nodeFileSystem as nodeWriteFs } from '../../src/platform/file-system.js';
import { gitRepo, tempDir } from '../support/temp-repo.js';

// node has no mkfifo: make one with the system's tool.
function mkfifo(path: string): void {
  execFileSync('mkfifo', [path]);
}

function plantedJournal(root: string, files: Array<{ path: string; before: string }>, extra: Record<string, unknown> = {}): string {
  const file = join(root, '.tandem', 'apply-journal.json');
  mkdirSync(join(root, '.tandem'), { recursive: true });
  const entries = files.map((f) => ({ path: f.path, before: Buffer.from(f.before).toString('base64'), mode: 0o644, after: sha256(readFileOr(join(root, f.path))) }));
  writeFileSync(file, JSON.stringify({ pid: 1, files: entries, ...extra }));
  return file;
}

function readFileOr(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

describe('recoverJournal with a journal it did not write', () => {
  it('ignores a journal without this user\'s nonce (one that came with a clone)', async () => {
    const root = gitRepo({ 'app.py': 'x = 2\n' });
    const trustDir = join(tempDir(), 'journals');
    const file = plantedJournal(root, [{ path: 'app.py', before: 'pwned\n' }], { host: hostname(), nonce: '0'.repeat(32) });
    const warnings: string[] = [];
    expect(await recoverJournal(nodeWriteFs, root, file, { trustDir, warn: (m) => warnings.push(m) })).toEqual([]);
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('x = 2\n');
    expect(warnings.join('\n')).toMatch(/not written by this user's tandem on this host/);
  });

  it('puts back only paths inside the repository, outside .git/ and .tandem/', async () => {
    const top = tempDir();
    const root = gitRepo({ 'app.py': 'x = 2\n' });
    const outside = join(top, 'outside.txt');
    writeFileSync(outside, 'mine\n');
    const config = readFileSync(join(root, '.git', 'config'), 'utf8');
    symlinkSync(top, join(root, 'out'));
    const trustDir = join(tempDir(), 'journals');
    const file = join(root, '.tandem', 'apply-journal.json');
    const nonce = recordJournalNonce(trustDir, file);
    const rel = (abs: string): string => relative(root, abs);
    plantedJournal(
      root,
      [
        { path: rel(outside), before: 'pwned\n' },
        { path: 'out/outside.txt', before: 'pwned\n' },
        { path: '.git/config', before: '[core]\n\tfsmonitor = touch pwned\n' },
        { path: '.GIT/config', before: 'pwned\n' },
        { path: '.tandem/apply-journal.json', before: 'pwned\n' },
        { path: 'app.py', before: 'x = 1\n' },
      ],
      { host: hostname(), nonce },
    );
    const warnings: string[] = [];
    expect(await recoverJournal(nodeWriteFs, root, file, { trustDir, warn: (m) => warnings.push(m) })).toEqual(['app.py']);
    expect(readFileSync(outside, 'utf8')).toBe('mine\n');
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe(config);
    expect(readFileSync(join(root, 'app.py'), 'utf8')).toBe('x = 1\n');
    expect(warnings).toHaveLength(5);
    expect(existsSync(join(trustDir, nonce))).toBe(false);
  });

  it('ignores a journal that is a FIFO or a link, without blocking', async () => {
    const root = gitRepo({ 'app.py': 'x = 2\n' });
    mkdirSync(join(root, '.tandem'));
    const file = join(root, '.tandem', 'apply-journal.json');
    mkfifo(file);
    const warnings: string[] = [];
    expect(await recoverJournal(nodeWriteFs, root, file, { trustDir: tempDir(), warn: (m) => warnings.push(m) })).toEqual([]);
    expect(warnings.join('\n')).toMatch(/not a regular file/);
  });
});
