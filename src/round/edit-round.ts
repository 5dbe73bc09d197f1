// One parsed reply becomes a change: lock -> plan a ChangeSet (dry run) -> refuse what cannot be written
// -> approvals -> write -> commit -> unlock. Everything the model must fix comes back as text in
// `problems`; nothing here throws for a model mistake.
import { ApplyError, loadSnapshots, type JournalOptions } from './apply.js';
import { recoverJournal } from './apply-journal.js';
import { describeRoundProblems } from '../edits/failure-message.js';
import { placeholderFolder } from '../edits/redirect.js';
import type { BlockFailure, Edit, ParseResult, PlannedFile } from '../edits/types.js';
import { unifiedDiff } from '../edits/unified-diff.js';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';
import { checkWrites } from './write-plan.js';
import { join } from 'node:path';
import type { AuditLog } from '../platform/audit-log.js';
import type { RepoLock } from '../platform/repo-lock.js';
import type { Asker, GitPort } from '../coders/ports.js';
import { approveChangeSet, auditOutsidePaths, type ApprovalOptions } from './approvals.js';
import { blockFailures, countAppliedEdits, planChangeSet, refuseFiles, unchangedOnly, type ChangeSet } from './change-set.js';
import type { UncommittedLedger } from './ledger.js';
import type { EmitRoundEvent } from './round-events.js';
import { recordUncommitted, writeAndCommit, type CommitWritten, type WrittenFile } from './write-change.js';

export type { CommitWritten } from './write-change.js';

export interface EditRoundOptions extends ApprovalOptions {
  readonly dryRun: boolean;
  readonly dirtyCommits: boolean;
  /** SIGTERM / Ctrl-C: a reply being applied stops between two files and is rolled back. */
  readonly signal?: AbortSignal;
}

export interface EditRoundResult {
  /** Files written (repo-relative), with their text before the change (null when created). */
  readonly written: readonly WrittenFile[];
  /** Files that joined the chat because the user allowed editing or creating them. */
  readonly addedToChat: string[];
  /** Every block not written: the plan's failures, then each block of a refused file. */
  readonly failures: BlockFailure[];
  readonly parseProblems: string[];
  readonly appliedCount: number;
  readonly shellCommands: string[];
  readonly approvalRequired: boolean;
  readonly diff: string;
  /** Set when the written files were left uncommitted, with the reason in words. */
  readonly uncommitted?: string;
  /** Every block of the reply had SEARCH equal to REPLACE: their number (nothing changed, nothing failed). */
  readonly unchangedOnly?: number;
}

export interface EditRoundDeps {
  readonly asker: Asker;
  readonly git: GitPort | null;
  readonly emit: EmitRoundEvent;
  /** Held from planning until the commit, so one process at a time writes to the repository. */
  readonly lock?: RepoLock | null;
  /** Commits the written files (null: leave them uncommitted, e.g. --no-auto-commits). */
  readonly commit?: CommitWritten | null;
  /** The file operations of the writer (tests inject failures here). */
  readonly fs?: FileSystem;
  /** The on-disk record of a reply being applied, so a killed tandem's half-applied reply is put back. */
  readonly journal?: JournalOptions | null;
  /** Records the decisions made without a question: a path refused by policy, a file declined earlier. */
  readonly audit?: AuditLog;
  /** What tandem wrote and has not committed in this chat: never committed as the user's work. */
  readonly ledger?: UncommittedLedger;
}

export async function runEditRound(parsed: ParseResult, options: EditRoundOptions, deps: EditRoundDeps): Promise<EditRoundResult> {
  const parseProblems = parsed.problems.map((p) => `line ${p.line} of your reply: ${p.message}`);
  if (parsed.edits.length === 0) {
    // A reply without edits (an answer, a question) reads no file.
    return { written: [], addedToChat: [], failures: [], parseProblems, appliedCount: 0, shellCommands: parsed.shellCommands, approvalRequired: false, diff: '' };
  }
  const release = options.dryRun || !deps.lock ? null : await deps.lock.acquire((holder) => {
    const who = holder ? `tandem process ${holder.pid}` : 'another tandem process';
    deps.emit({ type: 'info', message: `Waiting for ${who}, which is writing to this repository...` });
  });
  try {
    if (release && deps.journal) await recoverKilledReply(options.root, deps.journal.file, deps);
    return await planAndWrite(parsed, parseProblems, options, deps);
  } finally {
    await release?.();
  }
}

/** Holding the lock: a journal left on disk is from a tandem that was killed while applying. */
async function recoverKilledReply(root: string, file: string, deps: EditRoundDeps): Promise<void> {
  const fs = deps.fs ?? nodeFileSystem;
  if (!(await exists(fs, file))) return;
  const warn = (message: string): void => deps.emit({ type: 'info', message });
  const restored = await recoverJournal(fs, root, file, { trustDir: deps.journal?.trustDir ?? '', warn });
  if (restored.length > 0) {
    deps.emit({ type: 'info', message: `Put back ${restored.length} file(s) that a stopped tandem had left half-applied: ${restored.join(', ')}.` });
  }
}

async function planAndWrite(parsed: ParseResult, parseProblems: string[], options: EditRoundOptions, deps: EditRoundDeps): Promise<EditRoundResult> {
  const planned = await planChange(parsed.edits, options, deps);
  auditOutsidePaths(planned, deps.audit);
  // A write that cannot happen goes back to the model as its mistake; nobody is asked about it first.
  const writable = await refuseUnwritable(planned, options.root, deps);
  stopIfInterrupted(options.signal);
  const approved = await approveChangeSet(writable, options, deps);
  stopIfInterrupted(options.signal);
  const failures = blockFailures(approved);
  reportNotWritten(approved, failures, deps.emit);

  const diffs = approved.files.map((file) => unifiedDiff(file.path, file.before.text ?? '', file.after));
  const unchanged = unchangedOnly(approved, parsed.edits.length);
  const base = {
    failures,
    parseProblems,
    shellCommands: parsed.shellCommands,
    approvalRequired: approved.approvalRequired,
    addedToChat: [...approved.addedToChat],
    diff: diffs.join(''),
    ...(unchanged === undefined ? {} : { unchangedOnly: unchanged }),
  };
  if (options.dryRun) {
    approved.files.forEach((file, i) => deps.emit({ type: 'edit', path: file.path, status: 'planned', diff: diffs[i] }));
    return { ...base, written: [], appliedCount: approved.files.length };
  }
  const result = await writeAndCommit(approved.files, base.diff, options, deps);
  approved.files.forEach((file, i) => deps.emit({ type: 'edit', path: file.path, status: 'applied', diff: diffs[i], blocks: file.editIndexes.length, rungs: file.rungs }));
  for (const note of approved.files.flatMap((file) => file.notes)) deps.emit({ type: 'info', message: note });
  recordUncommitted(result, deps);
  return { ...base, written: result.written, appliedCount: countAppliedEdits(approved.files), ...(result.uncommitted ? { uncommitted: result.uncommitted } : {}) };
}

/** Reads the files the edits name (and the chat's) and plans the change against them. */
async function planChange(edits: readonly Edit[], options: EditRoundOptions, deps: EditRoundDeps): Promise<ChangeSet> {
  const paths = [...new Set([...edits.map((e) => e.path), ...options.chatFiles])];
  const loaded = await loadSnapshots(options.root, paths, { fs: deps.fs });
  stopIfInterrupted(options.signal);
  const existingFolders = await exampleFoldersThatExist(options.root, edits, deps.fs ?? nodeFileSystem);
  return planChangeSet(edits, loaded.files, { chatFiles: options.chatFiles, refused: loaded.refused, root: options.root, existingFolders });
}

/** Tells the user about every block not written, and about blocks that changed nothing. */
function reportNotWritten(set: ChangeSet, failures: readonly BlockFailure[], emit: EmitRoundEvent): void {
  for (const failure of failures) {
    const denied = failure.reason === 'denied';
    emit({ type: 'edit', path: failure.edit.path, status: denied ? 'denied' : 'failed', error: firstLine(failure.message), ...(denied ? {} : { detail: failure.message }) });
  }
  for (const edit of set.unchanged.filter((e) => !set.files.some((f) => f.path === e.path))) {
    emit({ type: 'info', message: `Edit ${edit.index + 1}: its SEARCH and REPLACE are identical, so it changed nothing in ${edit.path}.` });
  }
}

function stopIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ApplyError('interrupted', '', 'Interrupted before the reply was written; nothing was changed.');
}

/** The example folders (`path/to`) the reply names that the repository really has. */
async function exampleFoldersThatExist(root: string, edits: readonly Edit[], fs: FileSystem): Promise<Set<string>> {
  const found = new Set<string>();
  for (const folder of new Set(edits.map((e) => placeholderFolder(e.path.replace(/\\/g, '/').replace(/^\.\//, ''))))) {
    if (folder === undefined) continue;
    const stat = await fs.stat(join(root, folder)).catch(() => null);
    if (stat?.isDirectory()) found.add(folder);
  }
  return found;
}

/** Takes out the files that cannot be written where the reply put them, or that git would not commit. */
async function refuseUnwritable(set: ChangeSet, root: string, deps: EditRoundDeps): Promise<ChangeSet> {
  const files: PlannedFile[] = [...set.files];
  const problems = await checkWrites(root, files, deps.fs);
  const untrackable = deps.git?.untrackable ? await deps.git.untrackable(files.map((f) => f.path)) : [];
  const reasons = new Map<string, { reason: 'unwritable'; message: string }>();
  for (const p of problems) reasons.set(p.path, { reason: 'unwritable', message: p.message });
  for (const u of untrackable) if (!reasons.has(u.path)) reasons.set(u.path, { reason: 'unwritable', message: `Cannot edit ${u.reason}. Leave this file alone.` });
  return refuseFiles(set, reasons);
}

async function exists(fs: FileSystem, path: string): Promise<boolean> {
  return fs.stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The text sent back to the model for everything this round could not do; '' when all went well.
 * The user's "no" is not a failure for the model to retry, so denied edits are never in it.
 */
export function describeEditProblems(result: EditRoundResult, prompts: { parseProblems: string }, skip: ReadonlySet<string> = new Set()): string {
  return describeRoundProblems(result, prompts, skip);
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? text;
}
