// Which files of the repository its own git config includes (`include.path`, `includeIf.<cond>.path`,
// nested includes too): a reply that edits one rewrites git's config, so only a person may say yes.
// Reading config runs nothing the repository names (no fsmonitor, filter or pager is started by it).
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { createGit, tryGit, type GitOptions } from './repo.js';

/** Repository-relative (posix) paths of every file the local git config includes or may include. */
export async function gitConfigIncludes(root: string, options: GitOptions = {}): Promise<string[]> {
  const out = await tryGit(createGit(root, options), ['config', '--local', '--includes', '--show-origin', '-z', '--list']);
  if (out === null) return [];
  const found = new Set<string>();
  const fields = out.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = fields[i] ?? '';
    if (!origin.startsWith('file:')) continue; // `command line:` entries are tandem's own -c settings
    const originFile = resolve(root, origin.slice('file:'.length));
    addInside(found, root, originFile);
    const entry = fields[i + 1] ?? '';
    const newline = entry.indexOf('\n');
    const key = (newline < 0 ? entry : entry.slice(0, newline)).toLowerCase();
    const value = newline < 0 ? '' : entry.slice(newline + 1);
    // Every include directive counts, whether or not its condition holds today (a branch switch may make it hold).
    if (value === '' || !/^include(?:if\..*)?\.path$/.test(key)) continue;
    const home = options.env?.['HOME'];
    // git expands `~/` to the home folder: a repository inside it can be named that way too.
    if (value.startsWith('~/') && home) addInside(found, root, resolve(home, value.slice(2)));
    else if (!value.startsWith('~')) addInside(found, root, resolve(dirname(originFile), value));
  }
  return [...found].filter((p) => p !== '.git/config' && !p.startsWith('.git/'));
}

/** The file as named and, when it is a link, the file it leads to (a reply could edit either). */
function addInside(found: Set<string>, root: string, file: string): void {
  addOne(found, root, file);
  try {
    addOne(found, realpathSync(root), realpathSync(file));
  } catch {
    // not there (yet): the name alone is what a reply could create
  }
}

function addOne(found: Set<string>, root: string, file: string): void {
  const rel = relative(root, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return;
  found.add(rel.split(sep).join('/'));
}
