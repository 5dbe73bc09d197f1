// tandem writes its state only into a real `.tandem` folder inside the repository: a committed
// `.tandem` symlink (or a symlinked log inside it) would send the session log and transcript elsewhere.
import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isWithin } from '../platform/path-inside.js';
import { lstatOrNull } from '../platform/state-files.js';

/** The entries tandem writes under `.tandem/`; each must be absent or a plain file or folder of its kind. */
const ENTRIES: ReadonlyArray<readonly [name: string, kind: 'file' | 'dir']> = [
  ['sessions', 'dir'],
  ['chat.history.md', 'file'],
  ['input.history', 'file'],
  ['tags.cache', 'file'],
  ['audit.jsonl', 'file'],
];

/** tandem reads its transcript, history and cache whole: a planted file larger than this is refused. */
const MAX_STATE_FILE_BYTES = 256 * 1024 * 1024;

/** null when tandem may write under `<root>/.tandem`; else the one-line reason it writes nothing there. */
export function stateDirProblem(root: string): string | null {
  const dir = join(root, '.tandem');
  const top = lstatOrNull(dir);
  if (top === null) return null;
  const refuse = (what: string): string => `${what}: tandem writes nothing there this run (no session log, transcript, input history or repo map cache), and the repo map is off`;
  if (top.isSymbolicLink()) return refuse('.tandem is a symlink, not a folder of this repository');
  if (!top.isDirectory()) return refuse('.tandem is not a folder');
  for (const [name, kind] of ENTRIES) {
    const st = lstatOrNull(join(dir, name));
    if (st === null) continue;
    const ok = kind === 'dir' ? st.isDirectory() : st.isFile();
    if (!ok) return refuse(`.tandem/${name} is ${st.isSymbolicLink() ? 'a symlink' : 'not a plain ' + kind}`);
    if (kind === 'file' && st.size > MAX_STATE_FILE_BYTES) return refuse(`.tandem/${name} is ${st.size.toLocaleString('en-US')} bytes, more than tandem ever writes`);
  }
  return null;
}

/** Whether `path` (absolute) would be written inside `root`: its deepest existing folder's real path stays inside. */
export function writesInside(root: string, path: string): boolean {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return false;
  }
  let folder = dirname(path);
  for (;;) {
    try {
      const real = realpathSync(folder);
      if (!isWithin(realRoot, real)) return false;
      break;
    } catch {
      const parent = dirname(folder);
      if (parent === folder) return false;
      folder = parent;
    }
  }
  const existing = lstatOrNull(path);
  return existing === null || existing.isFile();
}
