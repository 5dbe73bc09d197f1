// The repository's files as git sees them: tracked, plus untracked ones git does not ignore.
import { createGit, runGit, type GitOptions } from './repo.js';

/** Repo-relative posix paths, or null when `root` is not in a git work tree. */
export async function listRepoFiles(root: string, env?: Readonly<Record<string, string | undefined>>): Promise<string[] | null> {
  try {
    // Through runGit: `ls-files` may consult an fsmonitor, which a repository's config could name.
    const stdout = await runGit(createGit(root, env ? { env: { ...env } } : {}), ['ls-files', '-co', '--exclude-standard', '-z']);
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
