// Where a write to a repository path really lands once symlinks are followed, so the edit policy judges
// the real target too: `notes.txt -> .tandem.conf.yml` or `docs -> .husky` must not be a way around it.
import path from 'node:path';
import { normalizeRepoPath, PathRefusedError, refuse } from '../edits/paths.js';
import { nodeFileSystem, type FileSystem, type Stats } from '../platform/file-system.js';
import { isBelow } from '../platform/path-inside.js';

/** The repository-relative posix path a write to `rel` would reach, or null when it leaves the repository. */
export async function realRepoPath(root: string, rel: string, fs: FileSystem = nodeFileSystem): Promise<string | null> {
  const realRoot = await fs.realpath(root);
  const segments = rel.split('/');
  for (let i = segments.length; i > 0; i--) {
    let real: string;
    try {
      real = await fs.realpath(path.join(root, ...segments.slice(0, i)));
    } catch {
      continue;
    }
    const relReal = path.relative(realRoot, path.join(real, ...segments.slice(i)));
    if (relReal.startsWith('..') || path.isAbsolute(relReal)) return null;
    return relReal.split(path.sep).join('/');
  }
  return rel;
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
