// Adapts the git/ functions to the small ports the session and the slash commands use.
import type { GitPort, RepoFilesPort } from '../coders/ports.js';
import { commitFiles, type CommitCredit } from '../git/commit.js';
import { diffFiles, diffSince, headHash } from '../git/diff.js';
import { dirtyFiles } from '../git/dirty.js';
import { listRepoFiles } from '../git/ls-files.js';
import { createGit, runGit } from '../git/repo.js';
import { untrackablePaths } from '../git/state.js';
import { isUntracked, statusOf } from '../git/status.js';
import { undoLastCommit } from '../git/undo.js';
import type { GitOptions } from '../git/repo.js';
import type { RequestListing } from '../git/repo-listing.js';
import type { GitCommandsPort } from './commands/types.js';
import { splitArgs } from './commands/file-args.js';

/**
 * `verify`: the user's own --git-commit-verify lets tandem's commits run the repository's hooks. With the
 * request's `listing`, what the request asks before it commits comes from that one listing; a commit
 * changes HEAD and the index, so the listing after it is made anew.
 */
export function createGitPort(root: string, options: GitOptions, verify = false, credit: () => CommitCredit = () => ({}), listing: RequestListing | null = null): GitPort {
  const committed = <T>(done: Promise<T>): Promise<T> => done.finally(() => listing?.invalidate());
  return {
    dirtyFiles: (paths) => (listing ? listing.dirtyFiles(paths) : dirtyFiles(root, paths, options)),
    commitUserChanges: (paths, message) => committed(commitFiles(root, paths, message, { ...options, attribution: false, verify })),
    commitTandemChange: (paths, message) => committed(commitFiles(root, paths, message, { ...options, attribution: true, verify, credit: credit() })),
    untrackable: (paths) => (listing ? listing.untrackable(paths) : untrackablePaths(root, paths, options)),
  };
}

/** Tracked files plus untracked ones git does not ignore, repo-relative, without tandem's own. */
export function createRepoFilesPort(root: string, options: GitOptions, subtree: string | null = null, listing: RequestListing | null = null): RepoFilesPort {
  return {
    async list() {
      const files = (await (listing ? listing.files() : listRepoFiles(root, options.env))) ?? [];
      // --subtree-only: mentions, offers, completion and /ls see the files under that folder only
      return files.filter((path) => !path.startsWith('.tandem/') && (subtree === null || path.startsWith(`${subtree}/`)));
    },
  };
}

export function createGitCommands(root: string, options: GitOptions, listing: RequestListing | null = null): GitCommandsPort {
  return {
    async undo() {
      const result = await undoLastCommit(root, options);
      if (!result.ok) return { ok: false, message: `Nothing undone. ${result.reason}` };
      return { ok: true, message: `Undid commit ${result.hash.slice(0, 7)}; restored ${result.files.join(', ')}.` };
    },
    diffSince: (hash) => diffSince(root, hash, options),
    async pendingDiff(paths) {
      const changed = paths ? [...paths] : (await statusOf(createGit(root, options), ['.'])).map((entry) => entry.path);
      return changed.length === 0 ? '' : diffFiles(root, changed, options);
    },
    // Asked as each request starts (for /diff): the request gets its listing of the repository here.
    async headHash() {
      if (!listing) return headHash(root, options);
      listing.beginRequest();
      try {
        return await listing.head();
      } catch {
        return headHash(root, options);
      }
    },
    async pendingFiles() {
      // git status leaves out what git ignores: such a file is never offered, let alone committed.
      const entries = await statusOf(createGit(root, options), ['.']);
      const mine = entries.filter((entry) => !entry.path.startsWith('.tandem/'));
      return {
        tracked: [...new Set(mine.filter((entry) => !isUntracked(entry)).map((entry) => entry.path))],
        untracked: mine.filter(isUntracked).map((entry) => entry.path),
      };
    },
    async commitPending(message, paths) {
      const git = createGit(root, options);
      const changed = paths ? [...paths] : (await statusOf(git, ['.'])).map((entry) => entry.path);
      if (changed.length === 0) return { ok: false, message: 'Nothing to commit: the work tree is clean.' };
      const hash = await commitFiles(root, changed, message ?? 'chore: commit pending changes', { ...options, attribution: false });
      return hash ? { ok: true, message: `Committed ${changed.length} file(s) as ${hash.slice(0, 7)}.` } : { ok: false, message: 'Nothing to commit.' };
    },
    async raw(args) {
      try {
        return { exitCode: 0, output: await runGit(createGit(root, options), splitArgs(args)) };
      } catch (error) {
        return { exitCode: 1, output: error instanceof Error ? error.message : String(error) };
      }
    },
  };
}
