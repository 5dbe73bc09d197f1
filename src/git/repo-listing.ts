// One listing of the repository per request: the index (tracked files, skip-worktree and
// assume-unchanged bits, submodules) and the work tree's status (changes, untracked files, HEAD),
// from one git status and the index file read as it runs (index-file.ts; `ls-files` when it cannot be), for everything the request asks of git before it commits: the
// map's files, the files a message names, the files of `.tandem/` git tracks, HEAD for /diff, which
// files hold the user's own changes, which cannot be committed. A new request starts a new listing,
// and so does each commit; a file changed since the status ran is asked about again.
import { join } from 'node:path';
import { changedSince as realChangedSince, type ChangedSince } from '../platform/change-times.js';
import { dirtyFiles } from './dirty.js';
import { indexEntries } from './index-file.js';
import type { IndexEntry } from './ls-files.js';
import { createGit, toRepoPaths, type GitOptions } from './repo.js';
import { isUnmerged, untrackableIn, untrackablePaths, type UntrackablePath } from './state.js';
import { isUntracked, statusSnapshot, type StatusEntry } from './status.js';

export interface RepoListing {
  /** Tracked files and untracked ones git does not ignore, repository-relative, each once. */
  readonly files: readonly string[];
  readonly index: readonly IndexEntry[];
  readonly status: readonly StatusEntry[];
  /** HEAD's commit, null before the first commit. */
  readonly head: string | null;
  /** When the status was asked for (ms since the epoch): files changed after it are asked about again. */
  readonly takenAt: number;
}

/**
 * The index's blob id of each tracked file the status found unchanged in the work tree, and when
 * that status was asked for: a file changed after it may no longer hold that content.
 */
export interface CleanBlobs {
  readonly ids: ReadonlyMap<string, string>;
  readonly takenAt: number;
}

/** Regular files (not links, not submodules): their blob is the file's content. */
const REGULAR_FILE = /^100(644|755)$/;
/** A SHA-1 blob id: the form the shared tag cache is keyed by (a SHA-256 repository's ids are not). */
const SHA1_ID = /^[0-9a-f]{40}$/;

/**
 * The blob ids of `listing`'s tracked files whose content git's status found equal to the index's:
 * a tracked regular file with no staged or unstaged change and no conflict. Status compares content
 * itself where the stat cannot tell (a racily clean file), so an id here names the file's content
 * as git's clean filter sees it. Files marked skip-worktree or assume-unchanged are left out: git
 * does not look at them, so their bytes may be anything.
 */
export function cleanBlobIds(listing: Pick<RepoListing, 'index' | 'status'>): Map<string, string> {
  const changed = new Set(listing.status.map((entry) => entry.path));
  const ids = new Map<string, string>();
  for (const entry of listing.index) {
    // 'H': cached and compared with the work tree (not skip-worktree 'S', not assume-unchanged 'h').
    if (entry.stage !== 0 || entry.tag !== 'H' || !REGULAR_FILE.test(entry.mode) || !SHA1_ID.test(entry.object)) continue;
    if (!changed.has(entry.path)) ids.set(entry.path, entry.object);
  }
  // A path listed twice (a conflict's stages) is not clean.
  for (const entry of listing.index) if (entry.stage !== 0) ids.delete(entry.path);
  return ids;
}

export interface RequestListingOptions extends GitOptions {
  /** Wall-clock milliseconds (default Date.now). */
  readonly now?: () => number;
  readonly changedSince?: ChangedSince;
  /**
   * The first request follows start-up at once (a one-shot run): the listing start-up made serves it.
   * Otherwise (a person at the prompt, a watched file) every request lists anew.
   */
  readonly firstRequestAtOnce?: boolean;
}

export class RequestListing {
  private current: Promise<RepoListing> | null = null;
  private carryOver: boolean;

  constructor(
    readonly root: string,
    private readonly options: RequestListingOptions = {},
  ) {
    this.carryOver = options.firstRequestAtOnce === true;
  }

  /** A request starts: it gets a listing of its own (the first of a one-shot run keeps start-up's). */
  beginRequest(): void {
    if (!this.carryOver) this.invalidate();
    this.carryOver = false;
  }

  /** The listing of this request: made on first use, shared until the next request (or commit). */
  listing(): Promise<RepoListing> {
    if (this.current) return this.current;
    const taking = this.take();
    this.current = taking;
    // A failed listing is not kept: the next question asks git again.
    taking.catch(() => {
      if (this.current === taking) this.current = null;
    });
    return taking;
  }

  /** A new request (or a commit) follows: the next question lists again. */
  invalidate(): void {
    this.current = null;
  }

  /** Tracked plus untracked-not-ignored files; null when git cannot list them (not a repository). */
  async files(): Promise<string[] | null> {
    try {
      return [...(await this.listing()).files];
    } catch {
      return null;
    }
  }

  /** The files git tracks under `folder` (e.g. `.tandem`); empty when none or when git cannot say. */
  async trackedUnder(folder: string): Promise<Set<string>> {
    try {
      const prefix = `${folder.replace(/\/+$/, '')}/`;
      return new Set((await this.listing()).index.map((entry) => entry.path).filter((path) => path === folder || path.startsWith(prefix)));
    } catch {
      return new Set();
    }
  }

  /** The blob ids of the files git's status found unchanged (see cleanBlobIds); null when git cannot list them. */
  async cleanBlobs(): Promise<CleanBlobs | null> {
    try {
      const listing = await this.listing();
      return { ids: cleanBlobIds(listing), takenAt: listing.takenAt };
    } catch {
      return null;
    }
  }

  async head(): Promise<string | null> {
    return (await this.listing()).head;
  }

  /** Those of `paths` (returned as given) that are tracked, not conflicted, with staged or unstaged changes. */
  async dirtyFiles(paths: readonly string[]): Promise<string[]> {
    if (paths.length === 0) return [];
    const listing = await this.listing();
    const changedSince = this.options.changedSince ?? realChangedSince;
    const relative = toRepoPaths(this.root, paths);
    // A file written since the status ran (by the user, or by tandem in an earlier round) is asked about now.
    if (relative.some((path) => changedSince(join(this.root, path), listing.takenAt))) return dirtyFiles(this.root, paths, this.options);
    const dirty = new Set(listing.status.filter((entry) => !isUntracked(entry) && !isUnmerged(entry.index, entry.worktree)).map((entry) => entry.path));
    return paths.filter((_, i) => dirty.has(relative[i] ?? ''));
  }

  /** Those of `paths` a commit would not pick up (skip-worktree, assume-unchanged, inside a submodule). */
  async untrackable(paths: readonly string[]): Promise<UntrackablePath[]> {
    if (paths.length === 0) return [];
    try {
      return untrackableIn((await this.listing()).index, toRepoPaths(this.root, paths));
    } catch {
      return untrackablePaths(this.root, paths, this.options);
    }
  }

  private async take(): Promise<RepoListing> {
    const git = createGit(this.root, this.options);
    const takenAt = (this.options.now ?? Date.now)();
    const [index, status] = await Promise.all([indexEntries(git), statusSnapshot(git)]);
    const files = new Set(index.map((entry) => entry.path));
    for (const entry of status.entries) if (isUntracked(entry)) files.add(entry.path);
    return { files: [...files], index, status: status.entries, head: status.head, takenAt };
  }
}
