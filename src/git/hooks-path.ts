// Where git looks for hooks in a repository (core.hooksPath), so edits there need a person's yes.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { createGit, tryGit, type GitOptions } from './repo.js';

/** core.hooksPath relative to `root` (posix), or null when unset or outside the work tree. */
export async function configuredHooksDir(root: string, options: GitOptions = {}): Promise<string | null> {
  // hooks: true, or git would report the `-c core.hooksPath=/dev/null` tandem itself passes
  const value = (await tryGit(createGit(root, { ...options, hooks: true }), ['config', '--get', 'core.hooksPath']))?.trim();
  if (!value) return null;
  // git resolves a relative hooksPath against the work tree root
  const rel = relative(root, isAbsolute(value) ? value : resolve(root, value));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return null;
  return rel.split(sep).join('/');
}
