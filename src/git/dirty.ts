// The user's own uncommitted work on files tandem is about to edit: find it and commit it on its own,
// so tandem's commit holds only tandem's change and the user's work is never lost in an undo.
import { commitFiles } from './commit.js';
import { createGit, toRepoPaths, type GitOptions } from './repo.js';
import { isUnmerged } from './state.js';
import { isUntracked, statusOf } from './status.js';

export const DIRTY_COMMIT_MESSAGE = 'wip: user changes before tandem edit';

/** Those of `paths` (returned as given) that are tracked, not conflicted, and have staged or unstaged changes. */
export async function dirtyFiles(root: string, paths: readonly string[], options: GitOptions = {}): Promise<string[]> {
  const relative = toRepoPaths(root, paths);
  const entries = await statusOf(createGit(root, options), relative);
  // Conflicted files are the user's merge in progress, not work to commit on their behalf.
  const dirty = new Set(entries.filter((entry) => !isUntracked(entry) && !isUnmerged(entry.index, entry.worktree)).map((entry) => entry.path));
  return paths.filter((_, i) => dirty.has(relative[i] ?? ''));
}

/**
 * Commits the user's pending changes to those of `paths` that are dirty, without tandem's attribution.
 * Other dirty files stay as they are. Returns the commit hash, or null when there was nothing to commit.
 */
export async function commitDirty(
  root: string,
  paths: readonly string[],
  message: string = DIRTY_COMMIT_MESSAGE,
  options: GitOptions = {},
): Promise<string | null> {
  const dirty = await dirtyFiles(root, paths, options);
  if (dirty.length === 0) return null;
  return commitFiles(root, dirty, message, { ...options, attribution: false });
}
