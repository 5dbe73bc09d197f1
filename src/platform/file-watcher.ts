// The file watcher port and its real implementation on chokidar (inotify on Linux through fs.watch:
// event-driven, no polling). It watches only what `include` admits under the root, and of git's own
// folder only the files that move when HEAD or the index does.
import { relative, sep } from 'node:path';
import type { Stats } from 'node:fs';

export type WatchEvent =
  /** A file under the root was added, changed or removed (repository-relative, forward slashes). */
  | { readonly kind: 'file'; readonly path: string }
  /** HEAD, the index or its lock moved in git's folder. */
  | { readonly kind: 'git'; readonly name: string };

export interface WatchOptions {
  readonly root: string;
  /** git's folder for this work tree (a linked work tree keeps HEAD and the index outside the root). */
  readonly gitDir: string | null;
  /** Whether a repository-relative path is watched; `directory` when it is a folder. */
  readonly include: (path: string, directory: boolean) => boolean;
  readonly onEvent: (event: WatchEvent) => void;
  readonly onError: (message: string) => void;
}

export interface FileWatcher {
  close(): Promise<void>;
}

/** Starts watching; resolves once the initial scan is done (events before that are not reported). */
export type WatchFiles = (options: WatchOptions) => Promise<FileWatcher>;

/** The files in git's folder whose change means the work tree is git's doing (checkout, pull, rebase, stash). */
export const GIT_MOVES = new Set(['HEAD', 'index', 'index.lock', 'ORIG_HEAD']);

export function createChokidarWatcher(): WatchFiles {
  return async (options) => {
    const { watch } = await import('chokidar');
    const { root, gitDir } = options;
    const inGitDir = (path: string): string | null => {
      if (gitDir === null) return null;
      const rel = relative(gitDir, path);
      return rel.startsWith('..') ? null : rel;
    };
    const ignored = (path: string, stats?: Stats): boolean => {
      const git = inGitDir(path);
      if (git !== null) return git !== '' && !GIT_MOVES.has(git);
      const rel = relative(root, path).split(sep).join('/');
      if (rel === '') return false;
      if (rel.startsWith('..')) return true;
      if (!stats) return false;
      return !options.include(rel, stats.isDirectory());
    };
    const watcher = watch(gitDir ? [root, gitDir] : [root], {
      ignored,
      ignoreInitial: true,
      persistent: true,
      followSymlinks: false,
      atomic: true,
    });
    const report = (path: string): void => {
      const git = inGitDir(path);
      if (git !== null) {
        if (GIT_MOVES.has(git)) options.onEvent({ kind: 'git', name: git });
        return;
      }
      options.onEvent({ kind: 'file', path: relative(root, path).split(sep).join('/') });
    };
    watcher.on('add', report).on('change', report).on('unlink', report);
    watcher.on('error', (error) => options.onError(error instanceof Error ? error.message : String(error)));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return { close: () => watcher.close() };
  };
}
