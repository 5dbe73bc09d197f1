// The "before" build of `npm run bench -- --against REF`: a git revision of this repository checked
// out in a temporary worktree (outside the repository), its dependencies linked from this checkout when
// package-lock.json is the same (else `npm ci`), built, and removed again at the end; or the path of a
// checkout already built, used as it is. Either way its bench cache is this checkout's, so trees are
// fetched and generated once.
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readFile, realpath, rm, symlink, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runInGroup } from './child-group.js';
import type { BuildInfo } from './compare.js';

export interface BaselineOptions {
  /** A git revision of the repository at `packageRoot`, or the path of a built tandem checkout. */
  readonly ref: string;
  /** Where a relative path in `ref` starts. */
  readonly cwd: string;
  /** This checkout (the "after" build). */
  readonly packageRoot: string;
  /** This checkout's bench cache, which the baseline shares. */
  readonly cacheDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
  readonly signal?: AbortSignal;
}

export interface Baseline {
  readonly info: BuildInfo;
  /** The bench caches the two builds use: this checkout's, and the baseline's own when it has one. */
  readonly cacheDirs: string[];
  /** Undoes everything made for the baseline (worktree, links); safe to call once on any path. */
  dispose(): Promise<void>;
}

export class BaselineError extends Error {
  readonly kind = 'baseline';
}

interface CommandOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** Runs a command to its end (in a group of its own, so stopping it stops npm's tsc too); fails on a non-zero exit. */
async function runCommand(command: string, args: readonly string[], options: CommandOptions): Promise<string> {
  const result = await runInGroup(command, args, { ...options, stdout: true });
  if (result.code === 0) return result.stdout;
  const output = (result.stderrTail || result.stdout).trim().split('\n').slice(-5).join(' | ');
  throw new BaselineError(`${command} ${args.join(' ')} exited ${result.code}: ${output}`);
}

/** The checkout's commit, short, with `+` when tracked files differ from it; nothing outside git. */
export async function describeCheckout(root: string, env: NodeJS.ProcessEnv): Promise<{ commit?: string }> {
  try {
    const commit = (await runCommand('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, env })).trim();
    const changes = (await runCommand('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, env })).trim();
    return { commit: changes === '' ? commit : `${commit}+uncommitted changes` };
  } catch {
    return {};
  }
}

const BENCH_ENTRY = path.join('dist', 'bench', 'run.js');

/** Links `<root>/.bench-cache` to the shared cache when it has none; returns the undo and the cache used. */
async function shareCache(root: string, cacheDir: string, log: (line: string) => void): Promise<{ cacheDir: string; undo: () => Promise<void> }> {
  const own = path.join(root, '.bench-cache');
  if (!existsSync(own) && !(await lstat(own).catch(() => undefined))) {
    await symlink(cacheDir, own, 'dir');
    return { cacheDir, undo: () => unlink(own).catch(() => undefined) };
  }
  if ((await realpath(own)) !== (await realpath(cacheDir))) {
    log(`bench: ${root} has a .bench-cache of its own: the baseline uses it (trees it lacks are fetched or generated there)`);
  }
  return { cacheDir: own, undo: async () => {} };
}

/** A built checkout given by path: used in place, nothing built or removed. */
async function baselineAtPath(root: string, options: BaselineOptions): Promise<Baseline> {
  if (!existsSync(path.join(root, BENCH_ENTRY))) {
    throw new BaselineError(`${root} has no ${BENCH_ENTRY}: build it first (npm ci && npm run build there)`);
  }
  const cache = await shareCache(root, options.cacheDir, options.log);
  const info: BuildInfo = { label: root, root, ...(await describeCheckout(root, options.env)) };
  return { info, cacheDirs: [cache.cacheDir], dispose: cache.undo };
}

/** The commit `ref` names in this repository, or undefined. */
async function resolveRevision(ref: string, options: BaselineOptions): Promise<string | undefined> {
  if (ref.startsWith('-')) return undefined;
  try {
    return (await runCommand('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: options.packageRoot, env: options.env })).trim();
  } catch {
    return undefined;
  }
}

/** A worktree of `commit` in a temporary folder, with dependencies, built, sharing the bench cache. */
async function baselineAtRevision(ref: string, commit: string, options: BaselineOptions): Promise<Baseline> {
  const { packageRoot, env, log, signal } = options;
  const git = (args: string[]) => runCommand('git', args, { cwd: packageRoot, env, ...(signal ? { signal } : {}) });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tandem-bench-against-'));
  const undo: Array<() => Promise<unknown>> = [];
  let disposed = false;
  const dispose = async (): Promise<void> => {
    if (disposed) return;
    disposed = true;
    // Links first, so nothing below can reach through them into this checkout.
    for (const step of undo.reverse()) await step().catch(() => undefined);
    await runCommand('git', ['worktree', 'remove', '--force', dir], { cwd: packageRoot, env }).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await runCommand('git', ['worktree', 'prune'], { cwd: packageRoot, env }).catch(() => undefined);
  };
  try {
    log(`bench: checking out ${ref} (${commit.slice(0, 10)}) in ${dir}`);
    await git(['worktree', 'add', '--detach', '--quiet', dir, commit]);
    const npm = (args: string[]) => runCommand('npm', args, { cwd: dir, env, ...(signal ? { signal } : {}) });
    const sameLock = await Promise.all([readFile(path.join(packageRoot, 'package-lock.json')), readFile(path.join(dir, 'package-lock.json'))])
      .then(([ours, theirs]) => ours.equals(theirs), () => false);
    const modules = path.join(dir, 'node_modules');
    if (sameLock) {
      log('bench: same package-lock.json: linking this checkout\'s node_modules');
      await symlink(path.join(packageRoot, 'node_modules'), modules, 'dir');
      undo.push(() => unlink(modules));
    } else {
      // npm ci also builds (the package's `prepare`).
      log('bench: package-lock.json differs: npm ci');
      await npm(['ci', '--no-audit', '--no-fund']);
    }
    const cache = await shareCache(dir, options.cacheDir, log);
    undo.push(cache.undo);
    if (sameLock || !existsSync(path.join(dir, BENCH_ENTRY))) {
      log(`bench: building ${ref}`);
      await npm(['run', 'build']);
    }
    if (!existsSync(path.join(dir, BENCH_ENTRY))) throw new BaselineError(`${ref} built no ${BENCH_ENTRY}: its bench cannot run`);
    return { info: { label: ref, commit: commit.slice(0, 10), root: dir }, cacheDirs: [cache.cacheDir], dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The baseline named by `options.ref`: a built checkout's path, else a git revision. */
export async function prepareBaseline(options: BaselineOptions): Promise<Baseline> {
  const asPath = path.resolve(options.cwd, options.ref);
  if (existsSync(asPath) && (await lstat(asPath)).isDirectory() && existsSync(path.join(asPath, 'package.json'))) {
    return baselineAtPath(asPath, options);
  }
  const commit = await resolveRevision(options.ref, options);
  if (commit === undefined) throw new BaselineError(`--against ${options.ref}: neither a built tandem checkout nor a git revision of ${options.packageRoot}`);
  return baselineAtRevision(options.ref, commit, options);
}
