// /undo: drop tandem's last commit and put its files back as they were before it, but only when that
// is safe (tandem's own commit, not a merge, not pushed, no pending changes to its files).
import { isTandemCommit } from './commit.js';
import { headHash } from './diff.js';
import { createGit, runGit, tryGit, type Git, type GitOptions } from './repo.js';
import { statusOf } from './status.js';

export type UndoResult =
  | { readonly ok: true; readonly hash: string; readonly files: string[] }
  | { readonly ok: false; readonly reason: string };

interface Refusal {
  readonly ok: false;
  readonly reason: string;
}

function refuse(reason: string): Refusal {
  return { ok: false, reason };
}

/** The remote branch that already holds `hash`, or null when it has not been pushed. */
async function pushedTo(git: Git, hash: string): Promise<string | null> {
  const upstream = (await tryGit(git, ['rev-parse', '--abbrev-ref', '--symbolic-full-name', '@{upstream}']))?.trim();
  if (upstream) {
    const base = (await tryGit(git, ['merge-base', hash, upstream]))?.trim();
    if (base === hash) return upstream;
  }
  // A detached HEAD or a branch without upstream may still have been pushed somewhere else.
  const remotes = await runGit(git, ['branch', '--remotes', '--contains', hash, '--format=%(refname:short)']);
  return remotes.split('\n').find((name) => name.trim() !== '')?.trim() ?? null;
}

/** The files `hash` changed relative to its only parent, renames split into delete + add. */
async function changedFiles(git: Git, hash: string): Promise<string[]> {
  const out = await runGit(git, ['diff-tree', '--no-commit-id', '--name-only', '-r', '-z', '--no-renames', `${hash}^`, hash]);
  return out.split('\0').filter((path) => path !== '');
}

async function checkUndoable(git: Git, root: string, head: string, options: GitOptions): Promise<Refusal | string[]> {
  const short = head.slice(0, 7);
  if (!(await isTandemCommit(root, head, options))) {
    return refuse(`The last commit ${short} was not made by tandem, so it is left alone.`);
  }
  const parents = (await runGit(git, ['rev-list', '--parents', '-n', '1', head])).trim().split(/\s+/).length - 1;
  if (parents > 1) return refuse(`The last commit ${short} is a merge; tandem does not undo merges.`);
  if (parents === 0) return refuse(`The last commit ${short} is the repository's first commit; tandem does not undo it.`);
  const remote = await pushedTo(git, head);
  if (remote !== null) return refuse(`The last commit ${short} has already been pushed to ${remote}.`);
  const files = await changedFiles(git, head);
  const dirty = (await statusOf(git, files)).map((entry) => entry.path);
  if (dirty.length > 0) {
    return refuse(`Files of the last commit ${short} have uncommitted changes: ${dirty.join(', ')}.`);
  }
  return files;
}

/**
 * Undoes tandem's last commit: its files go back to their state in the parent commit (index and work
 * tree), HEAD moves to the parent, other staged or dirty files are untouched. On refusal nothing changes.
 */
export async function undoLastCommit(root: string, options: GitOptions = {}): Promise<UndoResult> {
  const git = createGit(root, options);
  const head = await headHash(root, options);
  if (head === null) return refuse('There is no commit to undo: the repository has no commits yet.');
  const checked = await checkUndoable(git, root, head, options);
  if (!Array.isArray(checked)) return checked;
  const files = checked;
  const existedBefore = await Promise.all(
    files.map(async (path) => (await tryGit(git, ['cat-file', '-e', `${head}^:${path}`])) !== null),
  );
  const restore = files.filter((_, i) => existedBefore[i]);
  const remove = files.filter((_, i) => !existedBefore[i]);
  if (restore.length > 0) await runGit(git, ['--literal-pathspecs', 'checkout', `${head}^`, '--', ...restore]);
  if (remove.length > 0) await runGit(git, ['--literal-pathspecs', 'rm', '--quiet', '--force', '--', ...remove]);
  await runGit(git, ['reset', '--soft', `${head}^`]);
  return { ok: true, hash: head, files };
}
