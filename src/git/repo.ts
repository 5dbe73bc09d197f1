// Opening, finding and creating repositories on simple-git, and the guarded way every module runs git.
// Each function takes the directory it works in; nothing here looks at the current process's cwd.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { GitError, simpleGit, type SimpleGit } from 'simple-git';
import { GitOperationError } from './errors.js';

export interface GitOptions {
  /**
   * The environment for git processes. Without it git inherits this process's environment (simple-git
   * drops the GIT_* and editor variables from it). Variables simple-git refuses are filtered out.
   */
  readonly env?: Record<string, string | undefined>;
  /** Let git run the repository's hooks (only the user's --git-commit-verify asks); default: none run. */
  readonly hooks?: boolean;
}

// simple-git throws when these are set explicitly, so they never reach it.
const REFUSED_ENV = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);

function gitEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const lower = name.toLowerCase();
    if (value === undefined || lower.startsWith('git_') || REFUSED_ENV.has(lower)) continue;
    clean[name] = value;
  }
  return clean;
}

/** A simple-git instance rooted at `root`. Throws GitOperationError when the folder does not exist. */
export function createGit(root: string, options: GitOptions = {}): SimpleGit {
  try {
    // A repository's hooks are its code: a hooks folder no file can live under turns every hook off,
    // for commits and for the post-index-change hook that `git add` and `git status` may run.
    const noHooks = options.hooks ? [] : ['core.hooksPath=/dev/null'];
    const git = simpleGit({ baseDir: root, config: noHooks, unsafe: { allowUnsafeHooksPath: true } });
    return options.env ? git.env(gitEnv(options.env)) : git;
  } catch (error) {
    throw new GitOperationError('not_a_repo', `Cannot run git in ${root}: ${String(error)}`, { cause: error });
  }
}

/** Runs `git args...`, turning simple-git's failures into GitOperationError. */
export async function runGit(git: SimpleGit, args: string[]): Promise<string> {
  try {
    return await git.raw(args);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    const name = args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? 'command';
    throw new GitOperationError('git_failed', `git ${name} failed: ${error.message.trim()}`, { cause: error });
  }
}

/** Like runGit, but a failure (bad revision, no upstream...) is null instead of an error. */
export async function tryGit(git: SimpleGit, args: string[]): Promise<string | null> {
  try {
    return await git.raw(args);
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** The top folder of the work tree containing `cwd`, or null when `cwd` is not inside a repository. */
export async function findRepoRoot(cwd: string, options: GitOptions = {}): Promise<string | null> {
  let git: SimpleGit;
  try {
    git = createGit(cwd, options);
  } catch {
    return null;
  }
  const top = await tryGit(git, ['rev-parse', '--show-toplevel']);
  const root = top?.trim();
  return root ? root : null;
}

/** Creates a repository in `dir` (an existing folder). */
export async function initRepo(dir: string, options: GitOptions = {}): Promise<void> {
  await runGit(createGit(dir, options), ['init', '--quiet']);
}

/**
 * Repository-relative posix paths for `paths` (absolute, or relative to `root`).
 * Throws GitOperationError('path_outside_repo') for a path that leaves the repository.
 */
export function toRepoPaths(root: string, paths: readonly string[]): string[] {
  return paths.map((path) => {
    const absolute = isAbsolute(path) ? path : resolve(root, path);
    const rel = relative(root, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      throw new GitOperationError('path_outside_repo', `${path} is not a file inside the repository ${root}.`);
    }
    return rel.split(sep).join('/');
  });
}
