// Where a write to a repository path really lands once symlinks are followed, so the edit policy judges
// the real target too: `notes.txt -> .tandem.conf.yml` or `docs -> .husky` must not be a way around it.
import path from 'node:path';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';

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
