// Opening, finding and creating repositories, and the one guarded way every module runs git.
// Each function takes the directory it works in; nothing here looks at the current process's cwd.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { changedSince } from '../platform/change-times.js';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { FALLBACK_OVERRIDES, overridesEnv, parseConfigList, repositoryCommandOverrides, type ConfigEntry, type ConfigOverride } from './config-guard.js';
import { GitOperationError } from './errors.js';
import { gitErrorLine, spawnGit } from './git-process.js';
import { repoRelativePath } from '../platform/repo-path.js';

export interface GitOptions {
  /**
   * The environment for git processes. Without it git inherits this process's environment. GIT_* and
   * editor variables are dropped from it: they would point git at another repository or open an editor.
   */
  readonly env?: Record<string, string | undefined>;
  /** Let git run the repository's hooks (only the user's --git-commit-verify asks); default: none run. */
  readonly hooks?: boolean;
  /** How long one git call may take before git and its hooks are stopped (default 2 minutes). */
  readonly timeoutMs?: number;
  /**
   * Shared by every runner made with these options: the repository's command keys are listed once per
   * root (again when its `.git/config` changes), not once per runner (a start-up made some eight runners).
   */
  readonly guards?: Map<string, GuardState>;
}

/** The repository's config as git lists it (null: it could not be listed), and the `.git/config` it was listed from. */
export interface GuardState {
  listing?: Promise<ConfigEntry[] | null>;
  /** `.git/config`'s size and change time when it was listed. */
  stamp?: string;
  /** When the listing began (ms since the epoch): findRepoRoot shares a listing made in a sub-folder with the top folder. */
  listedAt?: number;
  /**
   * Where the files of GIT_PATH_NAMES live (absolute), asked once per run: they follow from the layout of
   * the repository (a worktree's own folder, the common one), which a run does not change.
   */
  gitPaths?: Promise<ReadonlyMap<string, string>>;
}

/** The files tandem looks for in git's folder: its exclude file, the index (read by index-file.ts) and the markers of an operation in progress. */
export const GIT_PATH_NAMES: readonly string[] = ['info/exclude', 'index', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'rebase-merge', 'rebase-apply'];
const GIT_PATH_ARGS = GIT_PATH_NAMES.flatMap((name) => ['--git-path', name]);

/** `rev-parse --git-path` answers (one per line, relative to `cwd`) as absolute paths by name. */
function gitPathMap(lines: readonly string[], cwd: string): Map<string, string> {
  return new Map(GIT_PATH_NAMES.map((name, i) => [name, resolve(cwd, lines[i] ?? '')]));
}

/** Where git keeps each of GIT_PATH_NAMES for this repository (one rev-parse per run, or none after findRepoRoot). */
export function gitPaths(git: Git): Promise<ReadonlyMap<string, string>> {
  if (git.guard.gitPaths) return git.guard.gitPaths;
  const asked = runGit(git, ['rev-parse', ...GIT_PATH_ARGS]).then((out) => gitPathMap(out.split('\n').filter((line) => line !== ''), git.root));
  git.guard.gitPaths = asked;
  // A failure is not kept: the next caller asks git again.
  asked.catch(() => {
    if (git.guard.gitPaths === asked) git.guard.gitPaths = undefined;
  });
  return asked;
}

/** A git runner rooted at one folder; every git call of the git layer goes through runGit. */
export interface Git {
  readonly root: string;
  readonly env: Record<string, string> | undefined;
  readonly timeoutMs: number;
  /** Whether the repository's hooks may run (only the user's --git-commit-verify asks for them). */
  readonly hooks: boolean;
  /** The overrides of the repository's command keys, listed once for this runner or its shared options (see config-guard). */
  readonly guard: GuardState;
}

const DEFAULT_TIMEOUT_MS = 120_000;
// A repository's hooks are its code: a hooks folder no file can live under turns every hook off,
// for commits and for the post-index-change hook that `git add` and `git status` may run.
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null'];
const REFUSED_ENV = new Set(['editor', 'visual', 'pager', 'prefix', 'ssh_askpass']);

function gitEnv(env: Record<string, string | undefined>): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    const lower = name.toLowerCase();
    if (value === undefined || lower.startsWith('git_') || REFUSED_ENV.has(lower)) continue;
    clean[name] = value;
  }
  // Never wait for a password or an editor: tandem has no terminal to give git.
  clean['GIT_TERMINAL_PROMPT'] = '0';
  return clean;
}

/** A git runner rooted at `root`. Throws GitOperationError when the folder does not exist. */
export function createGit(root: string, options: GitOptions = {}): Git {
  if (!fs.exists(root)) throw new GitOperationError('not_a_repo', `Cannot run git in ${root}: no such folder.`);
  return {
    root,
    env: options.env ? gitEnv(options.env) : undefined,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    hooks: options.hooks ?? false,
    guard: sharedGuard(options.guards, root),
  };
}

function sharedGuard(guards: Map<string, GuardState> | undefined, root: string): GuardState {
  if (!guards) return {};
  let guard = guards.get(root);
  if (!guard) {
    guard = {};
    guards.set(root, guard);
  }
  return guard;
}

function commandName(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-c') {
      i++;
      continue;
    }
    if (!arg.startsWith('-')) return arg;
  }
  return 'command';
}

export interface RunGitOptions {
  /** Exit codes that are answers, not failures (check-ignore and diff --no-index exit 1). */
  readonly okExitCodes?: readonly number[];
}

/** Runs `git args...`; a non-zero exit, a timeout or a missing git is a GitOperationError with one line. */
export async function runGit(git: Git, args: string[], options: RunGitOptions = {}): Promise<string> {
  const name = commandName(args);
  let result;
  try {
    const extraEnv = overridesEnv(await commandOverrides(git));
    // --no-pager: a pager (core.pager, pager.<cmd>) is a command too, and tandem reads git's output itself.
    result = await spawnGit(['--no-pager', ...(git.hooks ? args : [...NO_HOOKS, ...args])], { cwd: git.root, env: git.env, extraEnv, timeoutMs: git.timeoutMs });
  } catch (error) {
    throw new GitOperationError('not_a_repo', `Cannot run git in ${git.root}: ${(error as Error).message}`, { cause: error });
  }
  if (result.timedOut) {
    const seconds = Math.round(git.timeoutMs / 100) / 10;
    throw new GitOperationError('git_timeout', `git ${name} did not finish within ${seconds} s (a hook may be hanging) and was stopped.`);
  }
  const ok = options.okExitCodes ?? [0];
  if (result.exitCode !== null && ok.includes(result.exitCode)) return result.stdout;
  const reason = gitErrorLine(result.stderr) || `exit code ${result.exitCode ?? 'none'}`;
  throw new GitOperationError('git_failed', `git ${name} failed: ${reason}`, { detail: result.stderr.trim() });
}

/**
 * Every setting git sees here (all scopes, includes followed, each with its origin), listed once per guard
 * and again when `.git/config` changes (a command tandem ran, a test suite, may have written it). Listing
 * runs nothing the config names. The command-key overrides, the hooks folder and the repository's config
 * files all come from this one listing.
 */
export function configListing(git: Git): Promise<ConfigEntry[] | null> {
  const stamp = configStamp(git.root);
  if (git.guard.stamp !== stamp) git.guard.listing = undefined;
  git.guard.stamp = stamp;
  if (!git.guard.listing) {
    git.guard.listedAt = Date.now();
    git.guard.listing = spawnGit(['config', '--list', '--show-scope', '--show-origin', '--includes', '-z'], { cwd: git.root, env: git.env, timeoutMs: git.timeoutMs }).then(
      (listed) => (listed.exitCode === 0 ? parseConfigList(listed.stdout, { origin: true }) : null),
      () => null,
    );
  }
  return git.guard.listing;
}

/** The repository's command keys to override on every git call; a config that cannot be listed gets every fixed command key neutralized. */
async function commandOverrides(git: Git): Promise<readonly ConfigOverride[]> {
  const entries = await configListing(git);
  return entries ? repositoryCommandOverrides(entries) : FALLBACK_OVERRIDES;
}

/** Size and change time of the repository's `.git/config` (a worktree's `.git` file has none: '-'). */
function configStamp(root: string): string {
  try {
    const st = fs.statSync(join(root, '.git', 'config'));
    return `${st.size}:${st.ctimeMs}`;
  } catch {
    return '-';
  }
}

/** Like runGit, but a failure (bad revision, no upstream...) is null instead of an error. */
export async function tryGit(git: Git, args: string[]): Promise<string | null> {
  try {
    return await runGit(git, args);
  } catch (error) {
    if (error instanceof GitOperationError && error.kind === 'git_failed') return null;
    throw error;
  }
}

/** The top folder of the work tree containing `cwd`, or null when `cwd` is not inside a repository. */
export async function findRepoRoot(cwd: string, options: GitOptions = {}): Promise<string | null> {
  let top: string | null;
  try {
    // git's folder paths come with the top folder in the same call, for the rest of the run (see gitPaths).
    top = await tryGit(createGit(cwd, options), ['rev-parse', '--show-toplevel', ...GIT_PATH_ARGS]);
  } catch {
    return null;
  }
  const [first, ...paths] = (top ?? '').split('\n').filter((line) => line !== '');
  const root = first?.trim();
  if (!root) return null;
  // `core.worktree` in a shipped `.git/config` can name any folder (your home) as the work tree: tandem
  // works only in a work tree that contains the folder it was started in.
  if (!containsFolder(root, cwd)) {
    throw new GitOperationError('not_a_repo', `git's work tree for ${cwd} is ${root} (core.worktree in the repository's config?), which does not contain this folder; tandem does not work there.`);
  }
  const known = paths.length === GIT_PATH_NAMES.length ? gitPathMap(paths, cwd) : undefined;
  const index = known?.get('index');
  if (index !== undefined && !regularOrAbsent(index)) {
    throw new GitOperationError('not_a_repo', `git's index (${index}) is not a regular file (a FIFO or a device, or a link to one?): git would wait on it or read garbage; tandem does not work in this repository.`);
  }
  if (options.guards && known) sharedGuard(options.guards, root).gitPaths ??= Promise.resolve(known);
  if (options.guards && root !== cwd) shareConfigListing(options.guards, cwd, root);
  return root;
}

/**
 * Lets the top folder's runners use the config listing made in `cwd` (a sub-folder, or the top folder by
 * another path), which is the same repository's: git lists the same settings from any folder of a work
 * tree. Not when `.git/config` may have changed since that listing began (nor in a linked worktree,
 * whose `.git` is a file): the top folder's runners list again then.
 */
function shareConfigListing(guards: Map<string, GuardState>, cwd: string, root: string): void {
  const made = guards.get(cwd);
  const top = sharedGuard(guards, root);
  if (!made?.listing || made.listedAt === undefined || top.listing) return;
  if (changedSince(join(root, '.git', 'config'), made.listedAt)) return;
  top.stamp = configStamp(root);
  top.listing = made.listing;
}

/**
 * Whether `file` (followed if a link) is a regular file or is not there. A repository that comes as a
 * tarball can put a FIFO where git keeps its index: every git call that reads the index would then
 * wait until its timeout (two minutes) instead of failing.
 */
function regularOrAbsent(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function containsFolder(root: string, cwd: string): boolean {
  const real = (path: string): string => {
    try {
      return fs.realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  const rel = relative(real(root), real(cwd));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
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
    const rel = repoRelativePath(root, path);
    if (rel === null) throw new GitOperationError('path_outside_repo', `${path} is not a file inside the repository ${root}.`);
    return rel;
  });
}
