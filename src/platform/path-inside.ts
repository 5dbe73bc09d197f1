// Whether one path lies inside a folder, by the names alone: callers that must not be fooled by links
// resolve them first (realpath) and pass the real paths.
import { isAbsolute, relative, resolve } from 'node:path';

/** `path` lies below `root` (not `root` itself). */
export function isBelow(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** `path` is `root` or lies below it. */
export function isWithin(root: string, path: string): boolean {
  return resolve(root) === resolve(path) || isBelow(root, path);
}
