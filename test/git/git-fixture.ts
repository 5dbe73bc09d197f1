// Temp git repositories for the git tests: real git, a home folder of their own, files written inline.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface Fixture {
  /** The repository's work tree (a realpath, as git reports it). */
  readonly root: string;
  /** An empty home folder: no global git config, so no identity unless the repo has one. */
  readonly env: Record<string, string>;
  git(...args: string[]): Promise<string>;
  write(files: Record<string, string>): Promise<void>;
  cleanup(): Promise<void>;
}

export async function makeFixture(options: { identity?: boolean } = {}): Promise<Fixture> {
  const base = await mkdtemp(join(tmpdir(), 'tandem-git-'));
  const { stdout } = await exec('realpath', [base]);
  const top = stdout.trim();
  const root = join(top, 'repo');
  const home = join(top, 'home');
  await mkdir(root);
  await mkdir(home);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C' };
  const git = async (...args: string[]): Promise<string> => (await exec('git', args, { cwd: root, env })).stdout;
  await git('init', '--quiet');
  if (options.identity !== false) {
    await git('config', 'user.name', 'Ada User');
    await git('config', 'user.email', 'ada@example.com');
  }
  const write = async (files: Record<string, string>): Promise<void> => {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  };
  return { root, env, git, write, cleanup: () => rm(top, { recursive: true, force: true }) };
}

/** Writes `files`, stages them and commits them as the user; returns the hash. */
export async function userCommit(fx: Fixture, files: Record<string, string>, message = 'user work'): Promise<string> {
  await fx.write(files);
  await fx.git('add', '--', ...Object.keys(files));
  await fx.git('-c', 'user.name=Ada User', '-c', 'user.email=ada@example.com', 'commit', '--quiet', '-m', message);
  return (await fx.git('rev-parse', 'HEAD')).trim();
}

export async function filesIn(fx: Fixture, rev: string): Promise<string[]> {
  const out = await fx.git('show', '--name-only', '--format=', rev);
  return out.split('\n').filter((line) => line !== '').sort();
}
