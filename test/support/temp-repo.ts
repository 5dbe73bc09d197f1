// Temp git repositories written inline: `await gitRepo({ 'hello.py': '...' })`, removed after each test
// file (test/support/setup.ts calls removeTempDirs, so the cleanup runs even when modules are shared
// between files, as they are without isolation).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inject } from 'vitest';

const created: string[] = [];

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh folder with a private HOME beside it, so no user config leaks into tests. */
export function tempDir(prefix = 'tandem-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
}

export function git(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', env: gitEnv() });
}

export function gitEnv(): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: process.env['HOME'] ?? tmpdir(),
    GIT_AUTHOR_NAME: 'Test User',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test User',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
}

/** A git repository with `files` committed (no commit when `files` is empty and `commit` is false). */
export function gitRepo(files: Record<string, string> = {}, options: { commit?: boolean } = {}): string {
  const root = join(tempDir(), 'repo');
  mkdirSync(root);
  // A copy of one `git init` with the identity set is the same repository as a fresh one, three
  // processes cheaper.
  cpSync(join(templateRepo(), '.git'), join(root, '.git'), { recursive: true });
  writeFiles(root, files);
  if (options.commit !== false && Object.keys(files).length > 0) {
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'initial');
  }
  return root;
}

/**
 * An empty repository with the test identity. Made once per run by test/support/global-setup.ts, which
 * also removes it (a worker is killed at the end, so it cannot clean up after itself).
 */
export function makeTemplateRepo(): string {
  const root = join(mkdtempSync(join(tmpdir(), 'tandem-template-')), 'repo');
  mkdirSync(root);
  git(root, 'init', '-q');
  git(root, 'config', 'user.name', 'Test User');
  git(root, 'config', 'user.email', 'test@example.com');
  rmSync(join(root, '.git', 'hooks'), { recursive: true, force: true }); // samples only; nothing runs them
  return root;
}

let template: string | null = null;

function templateRepo(): string {
  template ??= inject('templateRepo');
  return template;
}

export function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

export function commitCount(root: string): number {
  return Number(git(root, 'rev-list', '--count', 'HEAD').trim());
}

export function statusShort(root: string): string {
  return git(root, 'status', '--short');
}
