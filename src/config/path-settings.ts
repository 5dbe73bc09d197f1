// Path settings never point into state: a log file or read-only file a setting names must not lie in
// `.git/` or `.tandem/`, nor be a file git or tandem reads as configuration (a repository's `llm-log:
// .git/config` would append prompt lines to git's config), nor a hook. A repository's own value must
// also resolve inside the repository, after symlinks.
import { nodeFileSystem as fs } from '../platform/file-system.js';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Names git or tandem read as configuration or run, wherever they are. */
const CONFIG_NAMES: ReadonlySet<string> = new Set([
  '.tandem.conf.yml',
  '.tandem.conf.yaml',
  '.tandem.model.settings.yml',
  '.tandem.model.metadata.json',
  '.tandemignore',
  '.env',
  '.envrc',
  '.gitconfig',
  '.gitattributes',
  '.gitignore',
  '.gitmodules',
  '.mailmap',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
]);
/** Folders whose files git or a hook manager runs or reads as config. */
const STATE_FOLDERS: ReadonlySet<string> = new Set(['.git', '.tandem', '.husky', '.githooks']);

export interface PathSettingContext {
  readonly root: string;
  /** Files git reads as the repository's config (git/config-files.ts), absolute. */
  readonly gitConfigFiles: readonly string[];
  /** core.hooksPath relative to the root, when it lies in the work tree. */
  readonly hooksDir: string | null;
}

/** The real path `file` would be written at: its deepest existing folder's real path, plus the rest. */
function realTarget(file: string): string {
  const rest: string[] = [];
  for (let dir = file; ; dir = dirname(dir)) {
    try {
      return join(fs.realpathSync(dir), ...rest.reverse());
    } catch {
      if (dirname(dir) === dir) return file;
      rest.push(basename(dir));
    }
  }
}

function realOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Why `file` (absolute) may not be used by the setting `key`, or null when it may. `fromRepository`:
 * the value came from the repository's config or `.env`, so it must also lie inside the repository.
 */
export function pathSettingProblem(key: string, file: string, fromRepository: boolean, context: PathSettingContext, name = file): string | null {
  const shown = `${key} ${name}`;
  // A log is appended to: never through a link. A file read is judged by where its link leads (below).
  try {
    if (key === 'llm-log' && fs.lstatSync(file).isSymbolicLink()) return `${shown} is a symbolic link; ignored`;
  } catch {
    // does not exist yet: judged by where it would be made
  }
  const target = realTarget(resolve(file));
  const realRoot = realOrSelf(context.root);
  const rel = relative(realRoot, target);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  if (fromRepository && !inside) return `${shown} from the repository's config leads outside the repository; ignored`;
  const parts = target.split(sep).map((part) => part.toLowerCase());
  const folder = parts.slice(0, -1).find((part) => STATE_FOLDERS.has(part));
  if (folder) return `${shown} lies in ${folder}/, which holds git's or tandem's own files; ignored`;
  if (CONFIG_NAMES.has(basename(target).toLowerCase())) return `${shown} is a file git or tandem reads as configuration; ignored`;
  const realConfigs = new Set(context.gitConfigFiles.map(realOrSelf));
  if (realConfigs.has(target)) return `${shown} is a file git reads as this repository's config; ignored`;
  if (inside && context.hooksDir && (rel === context.hooksDir || rel.startsWith(context.hooksDir + sep))) return `${shown} lies in git's hooks folder ${context.hooksDir}; ignored`;
  return null;
}
