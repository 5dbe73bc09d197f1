// Reading `git status` for a set of paths: which are modified, staged, deleted or untracked.
import { runGit, type Git } from './repo.js';

export interface StatusEntry {
  /** Repository-relative posix path. */
  readonly path: string;
  /** Index column of porcelain v1 (' ' unchanged, '?' untracked, 'M', 'A', 'D'...). */
  readonly index: string;
  /** Work-tree column of porcelain v1. */
  readonly worktree: string;
}

/** Status of `paths` (repository-relative) with untracked files listed one by one; renames split. */
export async function statusOf(git: Git, paths: readonly string[]): Promise<StatusEntry[]> {
  if (paths.length === 0) return [];
  const out = await runGit(git, [
    '--literal-pathspecs',
    'status',
    '--porcelain=v1',
    '-z',
    '--no-renames',
    '--untracked-files=all',
    '--',
    ...paths,
  ]);
  return out
    .split('\0')
    .filter((record) => record.length > 3)
    .map((record) => ({ index: record[0] ?? ' ', worktree: record[1] ?? ' ', path: record.slice(3) }));
}

export function isUntracked(entry: StatusEntry): boolean {
  return entry.index === '?' && entry.worktree === '?';
}
