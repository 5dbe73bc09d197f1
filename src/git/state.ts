// What git is in the middle of (a merge, a rebase...) and which files git will not take from the work
// tree (skip-worktree, assume-unchanged, inside a submodule), so tandem never stages a conflict or
// reports as committed an edit that git ignores.
import { resolve } from 'node:path';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { createGit, runGit, toRepoPaths, type Git, type GitOptions } from './repo.js';

const IN_PROGRESS: ReadonlyArray<readonly [string, string]> = [
  ['MERGE_HEAD', 'a merge'],
  ['CHERRY_PICK_HEAD', 'a cherry-pick'],
  ['REVERT_HEAD', 'a revert'],
  ['rebase-merge', 'a rebase'],
  ['rebase-apply', 'a rebase'],
];

/** "a merge", "a rebase"... when one is in progress, else null. */
export async function operationInProgress(git: Git): Promise<string | null> {
  const out = await runGit(git, ['rev-parse', ...IN_PROGRESS.flatMap(([name]) => ['--git-path', name])]);
  const paths = out.split('\n').filter((line) => line !== '');
  const index = paths.findIndex((path) => fs.exists(resolve(git.root, path)));
  return index >= 0 ? (IN_PROGRESS[index]?.[1] ?? null) : null;
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
  const git = createGit(root, options);
  const relative = toRepoPaths(root, paths);
  const found: UntrackablePath[] = [];
  const index = await indexEntries(git);
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

interface IndexEntry {
  /** ls-files -v's tag: S for skip-worktree, lower case for assume-unchanged. */
  readonly tag: string;
  readonly mode: string;
  readonly path: string;
}

/** Every index entry with its tag and mode, in one listing (`<tag> <mode> <hash> <stage>\t<path>`). */
async function indexEntries(git: Git): Promise<IndexEntry[]> {
  const out = await runGit(git, ['ls-files', '-s', '-v', '-z']);
  return out
    .split('\0')
    .filter((record) => record.includes('\t'))
    .map((record) => ({ tag: record[0] ?? '', mode: record.slice(2, record.indexOf(' ', 2)), path: record.slice(record.indexOf('\t') + 1) }));
}
