// Git's own ignore rules (.gitignore files, info/exclude, core.excludesFile), asked of git itself.
import { createGit, runGit, toRepoPaths, type GitOptions } from './repo.js';

/** Those of `paths` (returned as given) that git ignores. Tracked files are never ignored. */
export async function ignoredPaths(root: string, paths: readonly string[], options: GitOptions = {}): Promise<string[]> {
  if (paths.length === 0) return [];
  const relative = toRepoPaths(root, paths);
  // check-ignore exits 1 when nothing is ignored. Unquoted output is enough for sane names.
  const args = ['-c', 'core.quotePath=false', 'check-ignore', '--', ...relative];
  const out = await runGit(createGit(root, options), args, { okExitCodes: [0, 1] });
  const ignored = new Set(out.split('\n').filter((path) => path !== ''));
  return paths.filter((_, i) => ignored.has(relative[i] ?? ''));
}

export async function isIgnored(root: string, path: string, options: GitOptions = {}): Promise<boolean> {
  return (await ignoredPaths(root, [path], options)).length > 0;
}
