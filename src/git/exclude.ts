// Keeps tandem's own folder out of git without touching the user's tracked .gitignore: the pattern
// goes to the repository's info/exclude (found through git, so worktrees work too).
import { dirname } from 'node:path';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { createGit, gitPaths, type GitOptions } from './repo.js';

/** Adds `pattern` (e.g. ".tandem/") as a line of info/exclude unless it is there. True when added. */
export async function ensureExcluded(root: string, pattern: string, options: GitOptions = {}): Promise<boolean> {
  const file = (await gitPaths(createGit(root, options))).get('info/exclude')!;
  const current = await fs.readFile(file).then((bytes) => bytes.toString('utf8'), (error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  if (current.split(/\r?\n/).some((line) => line.trim() === pattern)) return false;
  await fs.mkdir(dirname(file));
  const separator = current === '' || current.endsWith('\n') ? '' : '\n';
  await fs.appendFile(file, `${separator}${pattern}\n`);
  return true;
}
