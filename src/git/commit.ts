// Commits exactly the given files, leaving every other staged or dirty file as it was. Tandem's own
// commits carry a `Tandem-Commit: yes` trailer and a committer name ending in " (tandem)".
import { configListing, createGit, runGit, toRepoPaths, tryGit, type Git, type GitOptions } from './repo.js';
import { GitOperationError } from './errors.js';
import { isUntracked, statusOf, type StatusEntry } from './status.js';
import { isUnmerged, operationInProgress } from './state.js';

const TANDEM_TRAILER = 'Tandem-Commit: yes';
const COMMITTER_SUFFIX = ' (tandem)';
const FALLBACK_NAME = 'tandem';
const FALLBACK_EMAIL = 'tandem@localhost';

export interface CommitOptions extends GitOptions {
  /** true for tandem's own changes (trailer + committer suffix); false for the user's pending work. */
  readonly attribution: boolean;
  /**
   * Run the repository's hooks (default false). A repository's hooks are its code, and `--no-verify`
   * skips only some of them (post-commit, prepare-commit-msg still run), so off means every hook.
   */
  readonly verify?: boolean;
  /** How tandem's own commits name it (ignored for the user's): the author, the committer, a trailer. */
  readonly credit?: CommitCredit;
}

export interface CommitCredit {
  /** ' (tandem)' after the author's name (default false: the person who asked is the author). */
  readonly author?: boolean;
  /** ' (tandem)' after the committer's name (default true). */
  readonly committer?: boolean;
  /** The model for a `Co-authored-by: tandem (MODEL)` trailer; null or absent for none. */
  readonly coAuthorModel?: string | null;
}

interface Identity {
  readonly name: string;
  readonly email: string;
}

/**
 * The configured user identity (the last value of each key wins, as in git), tandem's own for what is
 * missing. Read from the config listing the guard made already (every scope, includes followed), so a
 * commit asks git for nothing more; when that listing failed, git is asked for the two keys.
 */
async function resolveIdentity(git: Git): Promise<Identity> {
  const values = new Map<string, string>();
  const listed = await configListing(git);
  if (listed) {
    for (const { key, value } of listed) if (key === 'user.name' || key === 'user.email') values.set(key, value.trim());
  } else {
    const out = (await tryGit(git, ['config', '-z', '--get-regexp', '^user\\.(name|email)$'])) ?? '';
    for (const record of out.split('\0')) {
      const newline = record.indexOf('\n');
      if (newline > 0) values.set(record.slice(0, newline), record.slice(newline + 1).trim());
    }
  }
  return { name: values.get('user.name') || FALLBACK_NAME, email: values.get('user.email') || FALLBACK_EMAIL };
}

function commitArgs(identity: Identity, message: string, options: CommitOptions, paths: string[]): string[] {
  const credit = options.attribution ? (options.credit ?? {}) : { committer: false };
  const credited = (on: boolean | undefined): string => (on && identity.name !== FALLBACK_NAME ? identity.name + COMMITTER_SUFFIX : identity.name);
  const committer = credited(credit.committer ?? true);
  const author = credited(credit.author ?? false);
  // Tandem-Commit is what /undo checks, so it is always there; Co-authored-by is for people reading history.
  const coAuthor = credit.coAuthorModel ? `\nCo-authored-by: tandem (${credit.coAuthorModel.replace(/[\r\n<>]/g, ' ')}) <${FALLBACK_EMAIL}>` : '';
  const body = options.attribution ? ['-m', `${TANDEM_TRAILER}${coAuthor}`] : [];
  return [
    '-c',
    `user.name=${committer}`,
    '-c',
    `user.email=${identity.email}`,
    '--literal-pathspecs',
    'commit',
    '--quiet',
    '--only',
    ...(options.verify ? [] : ['--no-verify']),
    `--author=${author} <${identity.email}>`,
    '-m',
    message.trim() || 'tandem: update files',
    ...body,
    '--',
    ...paths,
  ];
}

/**
 * Commits the current contents of `paths` (absolute or relative to `root`; new and deleted files too) and
 * nothing else. Returns the new commit's hash, or null when none of the paths has a change.
 */
export async function commitFiles(
  root: string,
  paths: readonly string[],
  message: string,
  options: CommitOptions,
): Promise<string | null> {
  const git = createGit(root, { ...options, hooks: options.verify === true });
  const entries = await statusOf(git, toRepoPaths(root, paths));
  const changed = [...new Set(entries.map((entry) => entry.path))];
  if (changed.length === 0) return null;
  const operation = await operationInProgress(git);
  if (operation) {
    throw new GitOperationError('operation_in_progress', `${operation} is in progress, and git cannot commit part of it`);
  }
  // A conflicted file is never staged: that would mark the conflict resolved, markers and all.
  const conflicted = entries.filter((entry) => isUnmerged(entry.index, entry.worktree)).map((entry) => entry.path);
  if (conflicted.length > 0) throw new GitOperationError('operation_in_progress', `${conflicted.join(', ')} still has merge conflicts`);
  await stage(git, entries);
  const identity = await resolveIdentity(git);
  await runGit(git, commitArgs(identity, message, options, changed));
  return (await runGit(git, ['rev-parse', 'HEAD'])).trim();
}

/**
 * Stages the new files among `entries` with `add --force` (they are in the commit because they were asked
 * for by path). Tracked files need no staging: `commit --only` takes their work-tree side itself (edits
 * and deletions alike, whatever an ignore rule says), and leaves a fully staged entry (a staged deletion) as it is.
 */
async function stage(git: Git, entries: readonly StatusEntry[]): Promise<void> {
  const created = unique(entries.filter(isUntracked).map((entry) => entry.path));
  if (created.length > 0) await runGit(git, ['--literal-pathspecs', 'add', '--force', '--', ...created]);
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** Whether commit `hash` was made by tandem (it carries the trailer). */
export async function isTandemCommit(root: string, hash: string, options: GitOptions = {}): Promise<boolean> {
  const git = createGit(root, options);
  const out = await tryGit(git, ['log', '-1', '--format=%(trailers:key=Tandem-Commit,valueonly)', hash, '--']);
  return out !== null && out.split('\n').some((line) => line.trim().toLowerCase() === 'yes');
}
