// The file watcher port and its real implementation on chokidar (inotify on Linux through fs.watch:
// event-driven, no polling). It watches only what `include` admits under the root, and of git's own
// folder only the files that move when HEAD or the index does.
import type { Stats } from 'node:fs';
import { posixRelative } from './repo-path.js';

export type WatchEvent =
  /** A file under the root was added, changed or removed (repository-relative, forward slashes). */
  | { readonly kind: 'file'; readonly path: string }
  /** HEAD (or another of GIT_MOVES) moved in git's folder. */
  | { readonly kind: 'git'; readonly name: string };

export interface WatchOptions {
  readonly root: string;
  /**
   * git's folders: this work tree's (HEAD; a linked work tree keeps it outside the root) and the common
   * one (refs/stash). Only GIT_MOVES are watched in them.
   */
  readonly gitDirs: readonly string[];
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

/**
 * The files in git's folder whose change means git is rewriting the work tree (checkout, reset, merge,
 * rebase, cherry-pick). Not the index: `git status` (an editor's git panel) rewrites it all the time.
 */
export const GIT_MOVES = new Set(['HEAD', 'ORIG_HEAD', 'MERGE_HEAD', 'REBASE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'refs/stash']);

export function createChokidarWatcher(): WatchFiles {
  return async (options) => {
    const { watch } = await import('chokidar');
    const { root, gitDirs } = options;
    const inGitDir = (path: string): string | null => {
      for (const dir of gitDirs) {
        const rel = posixRelative(dir, path);
        if (!rel.startsWith('..')) return rel;
      }
      return null;
    };
    const ignored = (path: string, stats?: Stats): boolean => {
      const git = inGitDir(path);
      if (git !== null) return git !== '' && git !== 'refs' && !GIT_MOVES.has(git);
      const rel = posixRelative(root, path);
      if (rel === '') return false;
      if (rel.startsWith('..')) return true;
      if (!stats) return false;
      return !options.include(rel, stats.isDirectory());
    };
    const watcher = watch([root, ...gitDirs], {
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
      options.onEvent({ kind: 'file', path: posixRelative(root, path) });
    };
    watcher.on('add', report).on('change', report).on('unlink', report);
    watcher.on('error', (error) => options.onError(error instanceof Error ? error.message : String(error)));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    return { close: () => watcher.close() };
  };
}
