// Commits exactly the given files, leaving every other staged or dirty file as it was. Tandem's own
// commits carry a `Tandem-Commit: yes` trailer and a committer name ending in " (tandem)".
import { configListing, createGit, gitPaths, runGit, toRepoPaths, tryGit, type Git, type GitOptions } from './repo.js';
import { GitOperationError } from './errors.js';
import { readIndexFile } from './index-file.js';
import type { IndexEntry } from './ls-files.js';
import { isUntracked, statusOf, type StatusEntry } from './status.js';
import { isUnmerged, operationInProgress } from './state.js';

const TANDEM_TRAILER = 'Tandem-Commit: yes';
const COMMITTER_SUFFIX = ' (tandem)';
const FALLBACK_NAME = 'tandem';
const FALLBACK_EMAIL = 'tandem@localhost';
/** Index modes of a file or a link: the entries a commit of tracked paths takes without a status first. */
const FILE_MODES = new Set(['100644', '100755', '120000']);
/** Hex digits of a full SHA-1 object id. */
const SHA1_DIGITS = 40;

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
  const relative = toRepoPaths(root, paths);
  const tracked = options.verify ? null : await plainTrackedFiles(git, relative);
  if (!tracked) return commitByStatus(git, relative, message, options);
  // Every path is a tracked file the commit takes from the work tree as it is: `commit --only` needs no
  // status first. Only when git finds nothing to commit is the status asked, to tell "no change" (null)
  // from a real failure, as commitByStatus would have before committing.
  try {
    return await commit(git, message, options, tracked);
  } catch (error) {
    if (error instanceof GitOperationError && error.kind === 'git_failed' && (await statusOf(git, relative)).length === 0) return null;
    throw error;
  }
}

/**
 * `relative` (each once) when every one of them is a tracked file or link that git compares with the work
 * tree (one stage-0 entry, not skip-worktree or assume-unchanged, not a submodule), nothing (a merge, a
 * rebase, a pick) is in progress, and the index could be read without git (index-file.ts); else null, and
 * the commit asks `git status` first.
 */
async function plainTrackedFiles(git: Git, relative: readonly string[]): Promise<string[] | null> {
  if (relative.length === 0 || (await operationInProgress(git))) return null;
  const indexFile = (await gitPaths(git)).get('index');
  const index = indexFile ? readIndexFile(indexFile) : null;
  if (!index) return null;
  const wanted = new Set(relative);
  const found = new Map<string, IndexEntry[]>();
  for (const entry of index) if (wanted.has(entry.path)) found.set(entry.path, [...(found.get(entry.path) ?? []), entry]);
  const plain = [...wanted].every((path) => {
    const entries = found.get(path) ?? [];
    return entries.length === 1 && entries[0]!.stage === 0 && entries[0]!.tag === 'H' && FILE_MODES.has(entries[0]!.mode);
  });
  return plain ? [...wanted] : null;
}

/** The commit of `paths` after `git status` said which of them changed, which are new, which are conflicted. */
async function commitByStatus(git: Git, relative: readonly string[], message: string, options: CommitOptions): Promise<string | null> {
  const entries = await statusOf(git, relative);
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
  return commit(git, message, options, changed);
}

/**
 * Runs the commit and returns its hash, read from the summary line git prints (`[main 1f2e…] message`) with
 * ids written in full; when the repository's ids are not SHA-1 ones or the line does not show one, git is
 * asked for HEAD.
 */
async function commit(git: Git, message: string, options: CommitOptions, paths: string[]): Promise<string> {
  const identity = await resolveIdentity(git);
  const args = commitArgs(identity, message, options, paths);
  if (!(await usesSha1(git))) {
    await runGit(git, args);
    return (await runGit(git, ['rev-parse', 'HEAD'])).trim();
  }
  const out = await runGit(git, ['-c', `core.abbrev=${SHA1_DIGITS}`, ...args.filter((arg) => arg !== '--quiet')]);
  return summaryHash(out, SHA1_DIGITS) ?? (await runGit(git, ['rev-parse', 'HEAD'])).trim();
}

/**
 * The new commit's id from `git commit`'s summary, whose first line is `[<branch>[ (root-commit)] <id>] <subject>`
 * (the branch may be a translated "detached HEAD"; a branch name holds no space): the first ` <id>] ` in it,
 * when the id has `digits` digits. Hooks print to stderr, so nothing comes before that line.
 */
export function summaryHash(out: string, digits: number): string | null {
  const first = out.split('\n', 1)[0] ?? '';
  const found = first.startsWith('[') ? / ([0-9a-f]+)\] /.exec(first) : null;
  return found?.[1]?.length === digits ? found[1] : null;
}

/**
 * Whether the repository's object ids are SHA-1 ones, as its config listing says (no `extensions.objectFormat`,
 * or `sha1`); false when the config could not be listed. A SHA-256 repository's commit is asked for its HEAD
 * (an abbreviation length of 64 would be out of range for git where that config does not take effect).
 */
async function usesSha1(git: Git): Promise<boolean> {
  const listed = await configListing(git);
  if (!listed) return false;
  const format = listed.filter((entry) => entry.key === 'extensions.objectformat').at(-1)?.value.trim().toLowerCase();
  return format === undefined || format === 'sha1';
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
