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

/** The whole work tree's status at one moment, and the commit HEAD names (null before the first commit). */
export interface StatusSnapshot {
  readonly head: string | null;
  /** Every changed, conflicted or untracked (not ignored) file, untracked files one by one, with v1's columns. */
  readonly entries: readonly StatusEntry[];
}

/** `git status` of the whole work tree in one call: what the request listing (repo-listing.ts) reads its changes from. */
export async function statusSnapshot(git: Git): Promise<StatusSnapshot> {
  return parseStatusV2(await runGit(git, ['status', '--porcelain=v2', '-z', '--branch', '--no-renames', '--untracked-files=all']));
}

/** Fields before the path in porcelain v2's records: ordinary (1), renamed (2), unmerged (u). */
const FIELDS_BEFORE_PATH: Readonly<Record<string, number>> = { '1': 8, '2': 9, u: 10 };

/** Parses `git status --porcelain=v2 -z --branch`; v2's '.' (unchanged) becomes v1's ' '. */
export function parseStatusV2(out: string): StatusSnapshot {
  const records = out.split('\0');
  let head: string | null = null;
  const entries: StatusEntry[] = [];
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length).trim();
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    if (record.startsWith('? ')) {
      entries.push({ index: '?', worktree: '?', path: record.slice(2) });
      continue;
    }
    const fields = FIELDS_BEFORE_PATH[record[0] ?? ''];
    if (fields === undefined) continue;
    // The path is what follows the fixed fields (it may hold spaces); a rename's old path is the next record.
    let at = 0;
    for (let n = 0; n < fields && at >= 0; n++) at = record.indexOf(' ', at + 1);
    if (at < 0) continue;
    const column = (c: string | undefined): string => (c === undefined || c === '.' ? ' ' : c);
    entries.push({ index: column(record[2]), worktree: column(record[3]), path: record.slice(at + 1) });
    if (record[0] === '2') i++;
  }
  return { head, entries };
}
