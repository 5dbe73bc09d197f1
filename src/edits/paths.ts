// Turns a path written by the model into a safe repository-relative posix path, or refuses it.
// Lexical checks are pure (usable by the planner); symlink checks read the file system through the port.
import path from 'node:path';
import { nodeFileSystem, type FileSystem, type Stats } from '../platform/file-system.js';
import { isBelow } from '../platform/path-inside.js';
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

function refuse(kind: PathRefusalKind, requested: string): PathRefusedError {
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

async function lstatOrNull(fs: FileSystem, p: string): Promise<Stats | null> {
  try {
    return await fs.lstat(p);
  } catch {
    return null;
  }
}

/**
 * Resolves `relOrAbs` against `root` and follows every symlink on the way: the real location of
 * the deepest existing component must stay inside the real root and outside `.git/`.
 * Throws PathRefusedError; returns the lexical repo-relative path.
 */
export async function resolveRepoPath(root: string, relOrAbs: string, fs: FileSystem = nodeFileSystem): Promise<string> {
  const realRoot = await fs.realpath(root);
  let rel = normalizeRepoPath(relOrAbs, root);
  if (rel instanceof PathRefusedError && rel.kind === 'absolute_outside' && realRoot !== root) {
    rel = normalizeRepoPath(relOrAbs, realRoot);
  }
  if (rel instanceof PathRefusedError) throw rel;
  const segments = rel.split('/');
  for (let i = segments.length; i > 0; i--) {
    const abs = path.join(realRoot, ...segments.slice(0, i));
    const st = await lstatOrNull(fs, abs);
    if (st === null) continue;
    let real: string;
    try {
      real = await fs.realpath(abs);
    } catch {
      // A dangling symlink: we cannot prove where a write through it would land.
      throw refuse('symlink_outside', relOrAbs);
    }
    if (!isBelow(realRoot, real)) throw refuse('symlink_outside', relOrAbs);
    const first = path.relative(realRoot, real).split(path.sep)[0] ?? '';
    if (first.toLowerCase() === '.git') throw refuse('git_internal', relOrAbs);
    break;
  }
  return rel;
}
