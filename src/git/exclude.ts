// Keeps tandem's own folder out of git without touching the user's tracked .gitignore: the pattern
// goes to the repository's info/exclude (found through git, so worktrees work too).
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createGit, gitPaths, type GitOptions } from './repo.js';

/** Adds `pattern` (e.g. ".tandem/") as a line of info/exclude unless it is there. True when added. */
export async function ensureExcluded(root: string, pattern: string, options: GitOptions = {}): Promise<boolean> {
  const file = (await gitPaths(createGit(root, options))).get('info/exclude')!;
  const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  if (current.split(/\r?\n/).some((line) => line.trim() === pattern)) return false;
  await mkdir(dirname(file), { recursive: true });
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await appendFile(file, `${separator}${pattern}\n`);
  return true;
}
