// The files git reads as the repository's own config: `.git/config`, its worktree config and every file
// they include (`include.path`, `includeIf.<cond>.path` whatever its condition, nested includes), as git
// itself lists them. A path setting must never point at one of them, and a reply that edits one inside the
// repository rewrites git's config, so only a person may say yes. Listing config runs nothing it names.
import { dirname, resolve } from 'node:path';
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { configListing, createGit, type GitOptions } from './repo.js';
import { repoRelativePath } from '../platform/repo-path.js';

/** Absolute paths of the repository-scope config files git reads, and of every file they include. */
export async function repositoryConfigFiles(root: string, options: GitOptions = {}): Promise<string[]> {
  const entries = (await configListing(createGit(root, options))) ?? [];
  const files = new Set<string>([resolve(root, '.git', 'config')]);
  const home = options.env?.['HOME'];
  for (const { scope, origin = '', key, value } of entries) {
    // An origin is `file:<path>`, relative to where git ran.
    if ((scope !== 'local' && scope !== 'worktree') || !origin.startsWith('file:')) continue;
    const from = resolve(root, origin.slice('file:'.length));
    files.add(from);
    // An included file with no keys yet (or whose condition does not hold today) is not listed as an origin:
    // take the include itself too.
    if (!/^include(if\..*)?\.path$/i.test(key) || value === '' || value === 'true') continue;
    // git expands `~/` to the home folder: a repository inside it can be named that way too.
    if (value.startsWith('~/') && home) files.add(resolve(home, value.slice(2)));
    else if (!value.startsWith('~')) files.add(resolve(dirname(from), value));
  }
  return [...files];
}

/**
 * Of `files` (absolute), those a reply could edit: repository-relative (posix) paths inside `root` and
 * outside `.git/`, each as named and, for a link, the file it leads to.
 */
export function configFilesInRepository(root: string, files: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of files) {
    addOne(found, root, file);
    try {
      addOne(found, fs.realpathSync(root), fs.realpathSync(file));
    } catch {
      // not there (yet): the name alone is what a reply could create
    }
  }
  return [...found].filter((p) => !p.startsWith('.git/'));
}

function addOne(found: Set<string>, root: string, file: string): void {
  const rel = repoRelativePath(root, file);
  if (rel !== null) found.add(rel);
}
