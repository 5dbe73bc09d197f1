// The user's own uncommitted work on files tandem is about to edit: which files hold it. The edit
// round commits it on its own (round/write-change.ts), so tandem's commit holds only tandem's change.
import { createGit, toRepoPaths, type GitOptions } from './repo.js';
import { isUnmerged } from './state.js';
import { isUntracked, statusOf } from './status.js';

/** Those of `paths` (returned as given) that are tracked, not conflicted, and have staged or unstaged changes. */
export async function dirtyFiles(root: string, paths: readonly string[], options: GitOptions = {}): Promise<string[]> {
  const relative = toRepoPaths(root, paths);
  const entries = await statusOf(createGit(root, options), relative);
  // Conflicted files are the user's merge in progress, not work to commit on their behalf.
  const dirty = new Set(entries.filter((entry) => !isUntracked(entry) && !isUnmerged(entry.index, entry.worktree)).map((entry) => entry.path));
  return paths.filter((_, i) => dirty.has(relative[i] ?? ''));
}
