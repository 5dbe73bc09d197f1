// Where git looks for hooks in a repository (core.hooksPath), so edits there need a person's yes.
import { configListing, createGit, type GitOptions } from './repo.js';
import { repoRelativePath } from '../platform/repo-path.js';

/** core.hooksPath relative to `root` (posix), or null when unset or outside the work tree. */
export async function configuredHooksDir(root: string, options: GitOptions = {}): Promise<string | null> {
  // The last value wins, as in git; the listing is the one tandem's git calls are guarded with.
  const entries = (await configListing(createGit(root, options))) ?? [];
  const value = entries.filter((entry) => entry.key.toLowerCase() === 'core.hookspath').at(-1)?.value.trim();
  if (!value) return null;
  // git resolves a relative hooksPath against the work tree root
  return repoRelativePath(root, value);
}
