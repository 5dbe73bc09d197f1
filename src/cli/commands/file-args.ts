// Turns the paths a user typed after /add or /drop into repository-relative paths.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { repoRelativePath } from '../../platform/repo-path.js';

export interface ResolvedArg {
  readonly typed: string;
  readonly path: string | null;
  readonly problem?: string;
}

/** Splits on spaces, keeping "quoted names" whole. */
export function splitArgs(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words.filter((w) => w !== '');
}

export function toRepoPath(root: string, cwd: string, typed: string): ResolvedArg {
  const path = repoRelativePath(root, typed, cwd);
  if (path === null) return { typed, path: null, problem: `${typed} is outside the repository` };
  return { typed, path };
}

export function isExistingFile(root: string, path: string): boolean {
  const full = resolve(root, path);
  return existsSync(full) && statSync(full).isFile();
}
