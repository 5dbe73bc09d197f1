// The files git reads as the repository's own config: `.git/config`, its worktree config and every file
// they include (`include.path`, `includeIf`), as git itself lists them. A setting that names a path must
// never point at one of them.
import { dirname, resolve } from 'node:path';
import { createGit, tryGit, type GitOptions } from './repo.js';

/** Absolute paths of the repository-scope config files git reads (those that hold at least one key). */
export async function repositoryConfigFiles(root: string, options: GitOptions = {}): Promise<string[]> {
  const out = (await tryGit(createGit(root, options), ['config', '--list', '--show-scope', '--show-origin', '--includes', '-z'])) ?? '';
  const fields = out.split('\0');
  const files = new Set<string>([resolve(root, '.git', 'config')]);
  // Records of three fields: scope, origin (`file:<path>`, relative to where git ran), `key\nvalue`.
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const scope = fields[i] ?? '';
    const origin = fields[i + 1] ?? '';
    if ((scope !== 'local' && scope !== 'worktree') || !origin.startsWith('file:')) continue;
    const from = resolve(root, origin.slice('file:'.length));
    files.add(from);
    // An included file with no keys yet is not listed as an origin: take the include itself too.
    const record = fields[i + 2] ?? '';
    const newline = record.indexOf('\n');
    const key = newline < 0 ? record : record.slice(0, newline);
    const value = newline < 0 ? '' : record.slice(newline + 1);
    if (/^include(if\..*)?\.path$/i.test(key) && value !== '' && !value.startsWith('~')) files.add(resolve(dirname(from), value));
  }
  return [...files];
}
