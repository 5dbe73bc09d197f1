// The one path normaliser: a repository path is relative to the root, with forward slashes, and a
// path as written (by a model, a user, a tool's output) is read the same way everywhere.
import { relative, resolve, sep } from 'node:path';
import { isBelow } from './path-inside.js';

/** `to` relative to `from`, with forward slashes on every platform ('' for `from` itself). */
export function posixRelative(from: string, to: string): string {
  return relative(from, to).split(sep).join('/');
}

/**
 * `file` (absolute, or relative to `from`, the root by default) as a repository path, or null when
 * it is the root itself or lies outside. By the names alone: resolve links first where they matter.
 */
export function repoRelativePath(root: string, file: string, from: string = root): string | null {
  const absolute = resolve(from, file);
  return isBelow(root, absolute) ? posixRelative(root, absolute) : null;
}

/** A path as written: trimmed, `\` read as `/`, no doubled slashes, no leading `./`. */
export function normalizePath(raw: string): string {
  let p = raw.trim().replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  return p;
}
