// One reply becomes a change: parse -> lock -> plan (dry run) -> approvals -> apply -> commit -> unlock.
// Everything the model must fix comes back as text in `problems`; nothing here throws for a model mistake.
import type { AuditKind, AuditLog } from '../platform/audit-log.js';
import { nodeFileSystem, type FileSystem } from '../platform/file-system.js';
import { join } from 'node:path';
import { ApplyError, applyPlanWithUndo, loadSnapshots, type AppliedPlan, type JournalOptions } from '../edits/apply.js';
import { recoverJournal } from '../edits/apply-journal.js';
import { decideEdit, type EditPolicyDecision } from '../edits/edit-policy.js';
import { describeRoundProblems } from '../edits/failure-message.js';
import { replyLimitReason } from '../edits/reply-limits.js';
import { realRepoPath } from '../edits/real-repo-path.js';
import { placeholderFolder } from '../edits/redirect.js';
import { planEdits } from '../edits/plan.js';
import type { Edit, EditFailure, EditPlan, FileSnapshot, PlannedFile } from '../edits/types.js';
import { unifiedDiff } from '../edits/unified-diff.js';
import { checkWrites } from '../edits/write-plan.js';
import type { RepoLock } from '../platform/repo-lock.js';
import type { EmitRoundEvent } from './round-events.js';
import type { Coder } from './base-coder.js';
import type { Asker, GitPort } from './ports.js';

export interface EditRoundOptions {
  readonly root: string;
  readonly chatFiles: readonly string[];
  readonly dryRun: boolean;
  readonly dirtyCommits: boolean;
  /** Read-only files (--read, AGENTS.md), repository-relative: never edited. */
  readonly readOnly?: readonly string[];
  /** git's hooks folder (core.hooksPath) relative to the root, when it is inside the repository. */
  readonly hooksDir?: string | null;
  /** Files the repository's git config includes, repository-relative: only a person may edit them. */
  readonly gitIncludes?: readonly string[];
  /** The lint and test commands: new files that change what they load need a person. */
  readonly commands?: readonly string[];
  /**
   * Text tandem wrote to files it could not commit (during a merge, with auto-commits off), by path:
   * such a file still holding that text is tandem's work, not the user's, and is never a "wip" commit.
   */
  readonly uncommittedByTandem?: ReadonlyMap<string, string>;
  /** Files the user declined in this chat: never asked about again, and a "no" here joins them. */
  readonly declined?: Set<string>;
  /** SIGTERM / Ctrl-C: a reply being applied stops between two files and is rolled back. */
  readonly signal?: AbortSignal;
}

export interface EditRoundResult {
  /** Files written (repo-relative), with their text before the change (null when created). */
  readonly written: ReadonlyArray<{ path: string; before: string | null; after: string }>;
  /** Files that joined the chat because the user allowed editing or creating them. */
  readonly addedToChat: string[];
  readonly failures: EditFailure[];
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

/** Commits what a round wrote; throwing makes the round put every written file back. */
export type CommitWritten = (paths: string[], diff: string) => Promise<void>;

interface Deps {
  readonly coder: Coder;
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
}

export async function runEditRound(reply: string, options: EditRoundOptions, deps: Deps): Promise<EditRoundResult> {
  const parsed = deps.coder.parse(reply, { chatFiles: options.chatFiles });
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
async function recoverKilledReply(root: string, file: string, deps: Deps): Promise<void> {
  if (!nodeFileSystem.exists(file)) return;
  const warn = (message: string): void => deps.emit({ type: 'info', message });
  const restored = await recoverJournal(deps.fs ?? nodeFileSystem, root, file, { trustDir: deps.journal?.trustDir ?? '', warn });
  if (restored.length > 0) {
    deps.emit({ type: 'info', message: `Put back ${restored.length} file(s) that a stopped tandem had left half-applied: ${restored.join(', ')}.` });
  }
}

async function planAndWrite(
  parsed: { edits: Edit[]; shellCommands: string[] },
  parseProblems: string[],
  options: EditRoundOptions,
  deps: Deps,
): Promise<EditRoundResult> {
  const paths = unique([...parsed.edits.map((e) => e.path), ...options.chatFiles]);
  const loaded = await loadSnapshots(options.root, paths);
  stopIfInterrupted(options.signal);
  const existingFolders = exampleFoldersThatExist(options.root, parsed.edits);
  const plan = planEdits(parsed.edits, loaded.files, { chatFiles: options.chatFiles, refused: loaded.refused, root: options.root, existingFolders });
  auditOutsidePaths(plan.failures, deps);
  // A write that cannot happen goes back to the model as its mistake; nobody is asked about it first.
  const writable = await refuseUnwritable(plan.files, options.root, deps);
  stopIfInterrupted(options.signal);
  const approval = await approvePlan({ ...plan, files: writable.files }, options, deps);
  stopIfInterrupted(options.signal);
  const failures = [...plan.failures, ...writable.refused, ...approval.denied];
  for (const failure of failures) {
    const denied = failure.reason === 'denied';
    deps.emit({ type: 'edit', path: failure.edit.path, status: denied ? 'denied' : 'failed', error: firstLine(failure.message), ...(denied ? {} : { detail: failure.message }) });
  }

  const files = approval.files;
  const unchanged = plan.unchanged ?? [];
  for (const edit of unchanged.filter((e) => !files.some((f) => f.path === e.path))) {
    deps.emit({ type: 'info', message: `Edit ${edit.index + 1}: its SEARCH and REPLACE are identical, so it changed nothing in ${edit.path}.` });
  }
  const unchangedOnly = unchanged.length > 0 && unchanged.length === parsed.edits.length ? { unchangedOnly: unchanged.length } : {};
  const diffs = files.map((file) => unifiedDiff(file.path, file.before.text ?? '', file.after));
  const base = {
    failures,
    parseProblems,
    shellCommands: parsed.shellCommands,
    approvalRequired: approval.unanswerable,
    addedToChat: approval.addedToChat.filter((path) => files.some((f) => f.path === path)),
    diff: diffs.join(''),
    ...unchangedOnly,
  };
  if (options.dryRun) {
    files.forEach((file, i) => deps.emit({ type: 'edit', path: file.path, status: 'planned', diff: diffs[i] }));
    return { ...base, written: [], appliedCount: files.length };
  }
  if (options.dirtyCommits && deps.git && deps.commit && files.length > 0) {
    await commitUserWork(files, options.uncommittedByTandem ?? new Map(), deps);
  }
  const applied = await applyPlanWithUndo(options.root, { files, failures: [] }, deps.fs, deps.journal ?? undefined, options.signal);
  if (options.signal?.aborted) {
    const unrestored = await applied.rollback();
    throw new ApplyError('interrupted', '', `Interrupted before the reply was committed; ${unrestored.length === 0 ? 'every file written was put back' : `could not restore ${unrestored.join(', ')}`}.`);
  }
  const written = files
    .filter((file) => applied.touched.includes(file.path))
    .map((file) => ({ path: file.path, before: file.before.text, after: file.after }));
  const uncommitted = await commitOrUndo(applied, written, base.diff, deps);
  files.forEach((file, i) => deps.emit({ type: 'edit', path: file.path, status: 'applied', diff: diffs[i], blocks: file.editIndexes.length, rungs: file.rungs }));
  for (const note of files.flatMap((file) => file.notes)) deps.emit({ type: 'info', message: note });
  return { ...base, written, appliedCount: countAppliedEdits(files), ...(uncommitted ? { uncommitted } : {}) };
}

function stopIfInterrupted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ApplyError('interrupted', '', 'Interrupted before the reply was written; nothing was changed.');
}

/**
 * Commits what was written; when the commit fails the written files are put back, so the work tree
 * is either the state before the reply or the reply applied and committed. The one exception: git is in
 * the middle of a merge (or rebase...), where the edits stay, uncommitted, and the reason is returned.
 */
async function commitOrUndo(applied: AppliedPlan, written: EditRoundResult['written'], diff: string, deps: Deps): Promise<string | null> {
  if (!deps.commit || written.length === 0) {
    await applied.settle();
    return null;
  }
  try {
    await deps.commit(written.map((f) => f.path), diff);
    await applied.settle();
    return null;
  } catch (error) {
    if ((error as { kind?: unknown }).kind === 'operation_in_progress') {
      await applied.settle();
      return (error as Error).message;
    }
    const unrestored = await applied.rollback();
    const undone = unrestored.length === 0 ? 'the edits were undone' : `could not restore ${unrestored.join(', ')}`;
    throw new EditCommitError(`${(error as Error).message}; ${undone}, nothing was changed.`, error);
  }
}

/** The commit of a round failed and its writes were rolled back; `kind` is the commit error's. */
class EditCommitError extends Error {
  readonly kind: string;
  /** The commit error's long form (git's hints), for the log. */
  readonly detail: string;
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = 'EditCommitError';
    const detail = (cause as { detail?: unknown }).detail;
    this.detail = typeof detail === 'string' ? detail : '';
    const kind = (cause as { kind?: unknown }).kind;
    this.kind = typeof kind === 'string' ? kind : 'commit_failed';
  }
}

/** The example folders (`path/to`) the reply names that the repository really has. */
function exampleFoldersThatExist(root: string, edits: readonly Edit[]): Set<string> {
  const found = new Set<string>();
  for (const folder of new Set(edits.map((e) => placeholderFolder(e.path.replace(/\\/g, '/').replace(/^\.\//, ''))))) {
    if (folder === undefined) continue;
    try {
      if (nodeFileSystem.statSync(join(root, folder)).isDirectory()) found.add(folder);
    } catch {
      // no such folder: the example one
    }
  }
  return found;
}

/** Drops the files that cannot be written where the reply put them, or that git would not commit. */
async function refuseUnwritable(files: PlannedFile[], root: string, deps: Deps): Promise<{ files: PlannedFile[]; refused: EditFailure[] }> {
  const problems = await checkWrites(root, files, deps.fs);
  const untrackable = deps.git?.untrackable ? await deps.git.untrackable(files.map((f) => f.path)) : [];
  const reasons = new Map<string, string>();
  for (const p of problems) reasons.set(p.path, p.message);
  for (const u of untrackable) if (!reasons.has(u.path)) reasons.set(u.path, `Cannot edit ${u.reason}. Leave this file alone.`);
  if (reasons.size === 0) return { files, refused: [] };
  const refused = files
    .filter((file) => reasons.has(file.path))
    .flatMap((file) => file.editIndexes.map((index) => ({ edit: editStub(file, index), reason: 'unwritable' as const, message: reasons.get(file.path) ?? '' })));
  return { files: files.filter((file) => !reasons.has(file.path)), refused };
}

/**
 * The text sent back to the model for everything this round could not do; '' when all went well.
 * The user's "no" is not a failure for the model to retry, so denied edits are never in it.
 */
export function describeEditProblems(result: EditRoundResult, prompts: { parseProblems: string }, skip: ReadonlySet<string> = new Set()): string {
  return describeRoundProblems(result, prompts, skip);
}

interface Approval {
  readonly files: PlannedFile[];
  readonly denied: EditFailure[];
  readonly addedToChat: string[];
  readonly unanswerable: boolean;
}

async function approvePlan(plan: EditPlan, options: EditRoundOptions, deps: Deps): Promise<Approval> {
  const tooMuch = replyLimitReason(plan.files);
  if (tooMuch !== null) {
    // One question for the whole reply, before any per-file one: a person looks at it, or nothing is written.
    const answer = await deps.asker.confirm(`Write this reply? Careful: ${tooMuch}.`, 'large-reply');
    if (answer !== 'yes') {
      const message = `The user did not allow this reply's changes: ${tooMuch}. Nothing was written.`;
      const denied = plan.files.flatMap((file) => file.editIndexes.map((index) => ({ edit: editStub(file, index), reason: 'denied' as const, message })));
      return { files: [], denied, addedToChat: [], unanswerable: answer === 'unanswerable' };
    }
  }
  const files: PlannedFile[] = [];
  const denied: EditFailure[] = [];
  const addedToChat: string[] = [];
  let unanswerable = false;
  for (const file of plan.files) {
    const question = approvalQuestion(file, options, await realRepoPath(options.root, file.path));
    if (question?.kind === 'refused') {
      deps.audit?.record({ kind: file.created ? 'new-file' : 'edit', subject: file.path, decision: 'no', by: 'policy', reason: question.text });
      for (const index of file.editIndexes) {
        denied.push({ edit: editStub(file, index), reason: 'outside_repo', message: `Refused edit of ${file.path}: ${question.text}. Do not send edits to this file again.` });
      }
      continue;
    }
    if (!question) {
      files.push(file);
      continue;
    }
    // No means no: a file declined earlier in this chat is not asked about again.
    const declinedBefore = options.declined?.has(file.path) === true;
    if (declinedBefore) deps.audit?.record({ kind: auditKindOf(question.kind), subject: file.path, decision: 'no', by: 'remembered', reason: 'declined earlier in this chat' });
    const answer = declinedBefore ? 'no' : await deps.asker.confirm(question.text, question.kind, file.path);
    if (answer === 'no') options.declined?.add(file.path);
    if (answer === 'yes') {
      files.push(file);
      addedToChat.push(file.path);
      continue;
    }
    unanswerable ||= answer === 'unanswerable';
    for (const index of file.editIndexes) {
      denied.push({ edit: editStub(file, index), reason: 'denied', message: `The user did not allow changes to ${file.path}.` });
    }
  }
  return { files, denied, addedToChat, unanswerable };
}

function approvalQuestion(file: PlannedFile, options: EditRoundOptions, realPath: string | null) {
  const context = { chatFiles: options.chatFiles, readOnly: options.readOnly, hooksDir: options.hooksDir, gitIncludes: options.gitIncludes, commands: options.commands };
  const content = { before: file.before.text, after: file.after };
  const decision = stricter(decideEdit(file.path, file.created, context, content), realPath === null ? null : decideEdit(realPath, file.created, context, content));
  if (decision.answer === 'no-question') return null;
  if (decision.answer === 'refused') return { text: decision.reason, kind: 'refused' as const };
  const action = file.created ? `Create new file ${file.path}` : `Allow edits to ${file.path}`;
  if (decision.answer === 'person-only') return { text: `${action}? Careful: ${decision.reason}.`, kind: 'sensitive-file' as const };
  if (!file.created) return { text: `Allow edits to ${file.path}, which is not in the chat?`, kind: 'edit-outside-chat' as const };
  return { text: `Create new file ${file.path}?`, kind: 'create-file' as const };
}

/** A path that leads out of the repository is refused before any question: one audit line per path. */
function auditOutsidePaths(failures: readonly EditFailure[], deps: Deps): void {
  const seen = new Set<string>();
  for (const failure of failures) {
    if (failure.reason !== 'outside_repo' || seen.has(failure.edit.path)) continue;
    seen.add(failure.edit.path);
    deps.audit?.record({ kind: 'edit', subject: failure.edit.path, decision: 'no', by: 'policy', reason: 'the path leads outside the repository' });
  }
}

function auditKindOf(kind: 'sensitive-file' | 'edit-outside-chat' | 'create-file'): AuditKind {
  return kind === 'sensitive-file' ? 'person-only' : kind === 'create-file' ? 'new-file' : 'edit';
}

/** The lexical path's answer, unless the path's real target (through symlinks) is refused or needs a person. */
function stricter(lexical: EditPolicyDecision, real: EditPolicyDecision | null): EditPolicyDecision {
  if (real === null || lexical.answer === 'refused') return lexical;
  if (real.answer === 'refused' || (real.answer === 'person-only' && lexical.answer !== 'person-only')) return real;
  return lexical;
}

async function commitUserWork(files: readonly PlannedFile[], tandems: ReadonlyMap<string, string>, deps: Deps): Promise<void> {
  // A file still holding what tandem wrote (and could not commit) carries no work of the user's.
  const existing = files.filter((f) => !f.created && tandems.get(f.path) !== f.before.text).map((f) => f.path);
  if (existing.length === 0 || !deps.git) return;
  const dirty = await deps.git.dirtyFiles(existing);
  if (dirty.length === 0) return;
  const message = `wip: your changes to ${dirty.join(', ')} before tandem's edit`;
  let hash: string | null;
  try {
    hash = await deps.git.commitUserChanges(dirty, message);
  } catch (error) {
    // Mid-merge git commits nothing partial: the user's changes stay as they are, and so will tandem's.
    if ((error as { kind?: unknown }).kind === 'operation_in_progress') return;
    throw error;
  }
  if (hash) deps.emit({ type: 'commit', hash, message, files: dirty, user: true });
}

function countAppliedEdits(files: readonly PlannedFile[]): number {
  return files.reduce((sum, file) => sum + file.editIndexes.length, 0);
}

function editStub(file: PlannedFile, index: number): Edit {
  return { kind: 'whole', path: file.path, content: file.after, index, source: '' };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

function firstLine(text: string): string {
  return text.split('\n').find((l) => l.trim() !== '') ?? text;
}

export type { FileSnapshot };
