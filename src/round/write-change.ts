// The effectful end of a round: commit the user's own pending work, write the change set, then commit it
// or put every written file back. The work tree ends as before the reply, or with the reply applied and
// committed; the one exception (git mid-merge) leaves tandem's writes uncommitted, in the ledger.
import { GitOperationError } from '../git/errors.js';
import { isTandemError, TandemError } from '../platform/errors.js';
import { ApplyError, applyPlanWithUndo, type AppliedPlan, type JournalOptions } from './apply.js';
import type { PlannedFile } from '../edits/types.js';
import type { FileSystem } from '../platform/file-system.js';
import type { GitPort } from '../coders/ports.js';
import type { UncommittedLedger } from './ledger.js';
import type { EmitRoundEvent } from './round-events.js';

/** Commits what a round wrote; throwing makes the round put every written file back. */
export type CommitWritten = (paths: string[], diff: string) => Promise<void>;

/** A file the round wrote (repo-relative), with its text before the change (null when created). */
export interface WrittenFile {
  readonly path: string;
  readonly before: string | null;
  readonly after: string;
}

export interface WriteOptions {
  readonly root: string;
  /** Commit the user's pending changes to the files first, as their own "wip" commit. */
  readonly dirtyCommits: boolean;
  /** SIGTERM / Ctrl-C: a reply being applied stops between two files and is rolled back. */
  readonly signal?: AbortSignal;
}

export interface WriteDeps {
  readonly git: GitPort | null;
  readonly emit: EmitRoundEvent;
  /** Commits the written files (null: leave them uncommitted, e.g. --no-auto-commits). */
  readonly commit?: CommitWritten | null;
  /** The file operations of the writer (tests inject failures here). */
  readonly fs?: FileSystem;
  /** The on-disk record of a reply being applied, so a killed tandem's half-applied reply is put back. */
  readonly journal?: JournalOptions | null;
  /** What tandem wrote and has not committed, for this chat (absent: nothing is remembered). */
  readonly ledger?: UncommittedLedger;
}

export interface WriteResult {
  readonly written: WrittenFile[];
  /** Set when the written files were left uncommitted, with the reason in words. */
  readonly uncommitted: string | null;
}

/** Writes `files` (all of them, or none on a failure) and commits them with `diff`. */
export async function writeAndCommit(files: readonly PlannedFile[], diff: string, options: WriteOptions, deps: WriteDeps): Promise<WriteResult> {
  if (options.dirtyCommits && deps.git && deps.commit && files.length > 0) await commitUserWork(files, deps);
  const applied = await applyPlanWithUndo(options.root, { files: [...files], failures: [] }, deps.fs, deps.journal ?? undefined, options.signal);
  if (options.signal?.aborted) {
    const unrestored = await applied.rollback();
    throw new ApplyError('interrupted', '', `Interrupted before the reply was committed; ${unrestored.length === 0 ? 'every file written was put back' : `could not restore ${unrestored.join(', ')}`}.`);
  }
  const written = files.filter((file) => applied.touched.includes(file.path)).map((file) => ({ path: file.path, before: file.before.text, after: file.after }));
  const uncommitted = await commitOrUndo(applied, written, diff, deps);
  return { written, uncommitted };
}

/** The ledger learns what this round left uncommitted (and forgets what it committed); the user is told. */
export function recordUncommitted(result: WriteResult, deps: Pick<WriteDeps, 'ledger' | 'emit'>): void {
  deps.ledger?.record(result.written, result.uncommitted ?? undefined);
  if (result.uncommitted && result.written.length > 0) {
    deps.emit({ type: 'warning', message: `Left the edits to ${result.written.map((f) => f.path).join(', ')} uncommitted: ${result.uncommitted}.` });
  }
}

/**
 * Commits what was written; when the commit fails the written files are put back, so the work tree
 * is either the state before the reply or the reply applied and committed. The one exception: git is in
 * the middle of a merge (or rebase...), where the edits stay, uncommitted, and the reason is returned.
 */
async function commitOrUndo(applied: AppliedPlan, written: readonly WrittenFile[], diff: string, deps: WriteDeps): Promise<string | null> {
  if (!deps.commit || written.length === 0) {
    await applied.settle();
    return null;
  }
  try {
    await deps.commit(written.map((f) => f.path), diff);
    await applied.settle();
    return null;
  } catch (error) {
    if (error instanceof GitOperationError && error.kind === 'operation_in_progress') {
      await applied.settle();
      return error.message;
    }
    const unrestored = await applied.rollback();
    const undone = unrestored.length === 0 ? 'the edits were undone' : `could not restore ${unrestored.join(', ')}`;
    throw new EditCommitError(`${(error as Error).message}; ${undone}, nothing was changed.`, error);
  }
}

/** The commit of a round failed and its writes were rolled back; `kind` is the commit error's. */
class EditCommitError extends TandemError {
  readonly kind: string;
  /** The commit error's long form (git's hints), for the log. */
  override readonly detail: string;
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'EditCommitError';
    this.detail = isTandemError(cause) ? (cause.detail ?? '') : '';
    this.kind = isTandemError(cause) ? cause.kind : 'commit_failed';
  }
}

async function commitUserWork(files: readonly PlannedFile[], deps: WriteDeps): Promise<void> {
  // A file still holding what tandem wrote (and could not commit) carries no work of the user's.
  const existing = files.filter((f) => !f.created && !deps.ledger?.holdsTandemsText(f.path, f.before.text)).map((f) => f.path);
  if (existing.length === 0 || !deps.git) return;
  const dirty = await deps.git.dirtyFiles(existing);
  if (dirty.length === 0) return;
  const message = `wip: your changes to ${dirty.join(', ')} before tandem's edit`;
  let hash: string | null;
  try {
    hash = await deps.git.commitUserChanges(dirty, message);
  } catch (error) {
    // Mid-merge git commits nothing partial: the user's changes stay as they are, and so will tandem's.
    if (error instanceof GitOperationError && error.kind === 'operation_in_progress') return;
    throw error;
  }
  if (hash) deps.emit({ type: 'commit', hash, message, files: dirty, user: true });
}
