// Diffs for the user and the model: what changed since a commit, and pending changes to some files.
import { createGit, runGit, toRepoPaths, tryGit, type Git, type GitOptions } from './repo.js';
import { isUntracked, statusOf } from './status.js';

/** The hash of HEAD, or null in a repository without commits. */
export async function headHash(root: string, options: GitOptions = {}): Promise<string | null> {
  const out = await tryGit(createGit(root, options), ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  const hash = out?.trim();
  return hash ? hash : null;
}

// The empty tree's id depends on the repository's hash function, so ask git for it.
async function emptyTree(git: Git): Promise<string> {
  return (await runGit(git, ['hash-object', '-t', 'tree', '/dev/null'])).trim();
}

/**
 * The committed changes from `hash` to HEAD (`hash` null: since before the first commit). Use it for
 * "/diff": record headHash() before a request, show diffSince() after it. Empty without commits.
 */
export async function diffSince(root: string, hash: string | null, options: GitOptions = {}): Promise<string> {
  const git = createGit(root, options);
  const head = await headHash(root, options);
  if (head === null) return '';
  const base = hash ?? (await emptyTree(git));
  return runGit(git, ['diff', '--no-color', '--no-ext-diff', base, head, '--']);
}

/**
 * The work tree against HEAD for `paths` (absolute or relative to `root`), new untracked files shown as
 * added. In a repository without commits everything is shown as added.
 */
export async function diffFiles(root: string, paths: readonly string[], options: GitOptions = {}): Promise<string> {
  const git = createGit(root, options);
  const relative = toRepoPaths(root, paths);
  const entries = await statusOf(git, relative);
  if (entries.length === 0) return '';
  const base = (await headHash(root, options)) ?? (await emptyTree(git));
  const tracked = entries.filter((entry) => !isUntracked(entry)).map((entry) => entry.path);
  const parts: string[] = [];
  if (tracked.length > 0) {
    parts.push(await runGit(git, ['--literal-pathspecs', 'diff', '--no-color', '--no-ext-diff', base, '--', ...tracked]));
  }
  for (const entry of entries.filter(isUntracked)) {
    // --no-index exits 1 when the files differ.
    parts.push(await runGit(git, ['diff', '--no-color', '--no-ext-diff', '--no-index', '--', '/dev/null', entry.path], { okExitCodes: [0, 1] }));
  }
  return parts.join('');
}
