// What git is in the middle of (a merge, a rebase...) and which files git will not take from the work
// tree (skip-worktree, assume-unchanged, inside a submodule), so tandem never stages a conflict or
// reports as committed an edit that git ignores.
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { indexEntries } from './index-file.js';
import type { IndexEntry } from './ls-files.js';
import { createGit, gitPaths, toRepoPaths, type Git, type GitOptions } from './repo.js';

/** Each marker's name (one of GIT_PATH_NAMES) and what it means. */
const IN_PROGRESS: ReadonlyArray<readonly [string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase'],
];

/** "a merge", "a rebase"... when one is in progress, else null. */
export async function operationInProgress(git: Git): Promise<string | null> {
  const paths = await gitPaths(git);
  const found = IN_PROGRESS.find(([name]) => fs.exists(paths.get(name)!));
  return found?.[1] ?? null;
}

/** Unmerged status codes of porcelain v1 (both sides' columns). */
export function isUnmerged(index: string, worktree: string): boolean {
  return index === 'U' || worktree === 'U' || (index === 'A' && worktree === 'A') || (index === 'D' && worktree === 'D');
}

export interface UntrackablePath {
  readonly path: string;
  readonly reason: string;
}

/**
 * Those of `paths` (repo-relative) whose work-tree changes a commit would not pick up: marked
 * skip-worktree or assume-unchanged, or lying inside a submodule.
 */
export async function untrackablePaths(root: string, paths: readonly string[], options: GitOptions = {}): Promise<UntrackablePath[]> {
  if (paths.length === 0) return [];
  return untrackableIn(await indexEntries(createGit(root, options)), toRepoPaths(root, paths));
}

/** untrackablePaths over an index listing already made (`relative`: repository-relative paths). */
export function untrackableIn(index: readonly IndexEntry[], relative: readonly string[]): UntrackablePath[] {
  const found: UntrackablePath[] = [];
  const wanted = new Set(relative);
  for (const { tag, path } of index) {
    if (!wanted.has(path)) continue;
    if (tag === 'S') found.push({ path, reason: `${path} is marked skip-worktree in git, so a commit would not include the edit` });
    else if (tag !== tag.toUpperCase()) found.push({ path, reason: `${path} is marked assume-unchanged in git, so a commit would not include the edit` });
  }
  const submodules = index.filter((entry) => entry.mode === '160000').map((entry) => entry.path);
  for (const path of relative) {
    const inside = submodules.find((folder) => path === folder || path.startsWith(`${folder}/`));
    if (inside && !found.some((f) => f.path === path)) {
      found.push({ path, reason: `${path} is inside the submodule ${inside}; tandem commits only to this repository` });
    }
  }
  return found;
}
