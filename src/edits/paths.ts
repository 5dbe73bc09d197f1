// Turns a path written by the model into a safe repository-relative posix path, or refuses it.
// Pure lexical checks (the planner's); the symlink checks that read the file system are round/real-repo-path.ts.
import path from 'node:path';
import { TandemError } from '../platform/errors.js';
import { normalizePath } from '../platform/repo-path.js';

export type PathRefusalKind =
  | 'empty'
  | 'escapes_root'
  | 'absolute_outside'
  | 'symlink_outside'
  | 'git_internal'
  | 'home';

export class PathRefusedError extends TandemError {
  constructor(
    readonly kind: PathRefusalKind,
    readonly requested: string,
    message: string,
  ) {
    super(message);
    this.name = 'PathRefusedError';
  }
}

export function refuse(kind: PathRefusalKind, requested: string): PathRefusedError {
  const why: Record<PathRefusalKind, string> = {
    empty: 'the path is empty',
    escapes_root: 'the path uses `..` to leave the repository',
    absolute_outside: 'the absolute path is outside the repository',
    symlink_outside: 'the path goes through a symlink that points outside the repository',
    git_internal: 'files inside `.git/` are never edited',
    home: '`~` means a home folder, which is outside the repository (no folder named `~` is created); use a path from the repository root',
  };
  return new PathRefusedError(kind, requested, `Refused path \`${requested}\`: ${why[kind]}.`);
}

/**
 * Pure lexical check. Backslashes count as separators because models on Windows write them.
 * Any `..` segment is refused, even one that would stay inside, so a symlinked folder cannot
 * turn `a/../x` into an escape.
 */
export function normalizeRepoPath(relOrAbs: string, root?: string): string | PathRefusedError {
  let p = normalizePath(relOrAbs);
  if (p === '' || p.includes('\0')) return refuse('empty', relOrAbs);
  if (p.startsWith('/') || /^[a-zA-Z]:\//.test(p)) {
    const rootPosix = root === undefined ? undefined : root.replace(/\\/g, '/').replace(/\/+$/, '');
    const norm = path.posix.normalize(p);
    if (rootPosix === undefined || !norm.startsWith(rootPosix + '/')) {
      return refuse('absolute_outside', relOrAbs);
    }
    p = norm.slice(rootPosix.length + 1);
  }
  const segments: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return refuse('escapes_root', relOrAbs);
    if (seg.toLowerCase() === '.git') return refuse('git_internal', relOrAbs);
    segments.push(seg);
  }
  if (segments.length === 0) return refuse('empty', relOrAbs);
  // `~/.bashrc` (or `~user/x`) means a home folder to a model and to a person: never a folder named `~` here.
  if (segments[0]?.startsWith('~') === true) return refuse('home', relOrAbs);
  return segments.join('/');
}

