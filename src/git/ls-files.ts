// The repository's files as git sees them: tracked, plus untracked ones git does not ignore.
import { createGit, runGit, type Git, type GitOptions, type GuardState } from './repo.js';

/**
 * The config listings of the repositories this process listed with its own environment: a map
 * listed again in the same process (a new chat set, a new budget) runs one git process, not two,
 * as a session's calls share theirs. A listing is taken again when `.git/config` changes (repo.ts).
 */
const ownEnvGuards = new Map<string, GuardState>();

/** Repo-relative posix paths, or null when `root` is not in a git work tree. */
export async function listRepoFiles(root: string, env?: Readonly<Record<string, string | undefined>>): Promise<string[] | null> {
  try {
    // Through runGit: `ls-files` may consult an fsmonitor, which a repository's config could name.
    const stdout = await runGit(createGit(root, env ? { env: { ...env } } : { guards: ownEnvGuards }), ['ls-files', '-co', '--exclude-standard', '-z']);
    return [...new Set(stdout.split('\0').filter(Boolean))];
  } catch {
    return null;
  }
}

/** The files git tracks under `folder` (e.g. `.tandem`), repo-relative posix; empty when none or not a repository. */
export async function trackedUnder(root: string, folder: string, options: GitOptions = {}): Promise<Set<string>> {
  try {
    const stdout = await runGit(createGit(root, options), ['--literal-pathspecs', 'ls-files', '-z', '--', folder]);
    return new Set(stdout.split('\0').filter(Boolean));
  } catch {
    return new Set();
  }
}

/** One entry of git's index, as `ls-files -s -v` shows it. */
export interface IndexEntry {
  /** ls-files -v's tag: H tracked, S skip-worktree, M unmerged...; lower case for assume-unchanged. */
  readonly tag: string;
  readonly mode: string;
  /** The object id the index holds for the path (a blob; a commit for a submodule). */
  readonly object: string;
  /** 0, or 1-3 for the sides of a conflict. */
  readonly stage: number;
  readonly path: string;
}

/** Every index entry with its tag, mode and stage, as `ls-files -s -v` lists them (indexEntries reads the file first). */
export async function listIndex(git: Git): Promise<IndexEntry[]> {
  return parseIndexListing(await runGit(git, ['ls-files', '-s', '-v', '-z']));
}

/** Parses `ls-files -s -v -z`: records `<tag> <mode> <hash> <stage>\t<path>`. */
export function parseIndexListing(out: string): IndexEntry[] {
  return out
    .split('\0')
    .filter((record) => record.includes('\t'))
    .map((record) => {
      const tab = record.indexOf('\t');
      const [tag = '', mode = '', object = '', stage = '0'] = record.slice(0, tab).split(' ');
      return { tag, mode, object, stage: Number(stage), path: record.slice(tab + 1) };
    });
}
