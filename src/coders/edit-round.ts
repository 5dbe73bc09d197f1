// One reply becomes a change: parse -> plan (dry run) -> approvals -> apply -> commit.
// Everything the model must fix comes back as text in `problems`; nothing here throws for a model mistake.
import { dirname } from 'node:path/posix';
import { applyPlan, loadSnapshots } from '../edits/apply.js';
import { describeFailures } from '../edits/failure-message.js';
import { planEdits } from '../edits/plan.js';
import type { Edit, EditFailure, EditPlan, FileSnapshot, PlannedFile } from '../edits/types.js';
import { unifiedDiff } from '../edits/unified-diff.js';
import type { EmitRoundEvent } from './round-events.js';
import type { Coder } from './base-coder.js';
import type { Asker, GitPort } from './ports.js';

export interface EditRoundOptions {
  readonly root: string;
  readonly chatFiles: readonly string[];
  readonly dryRun: boolean;
  readonly dirtyCommits: boolean;
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
}

interface Deps {
  readonly coder: Coder;
  readonly asker: Asker;
  readonly git: GitPort | null;
  readonly emit: EmitRoundEvent;
}

export async function runEditRound(reply: string, options: EditRoundOptions, deps: Deps): Promise<EditRoundResult> {
  const parsed = deps.coder.parse(reply, { chatFiles: options.chatFiles });
  const parseProblems = parsed.problems.map((p) => `line ${p.line} of your reply: ${p.message}`);
  if (parsed.edits.length === 0) {
    // A reply without edits (an answer, a question) reads no file.
    return { written: [], addedToChat: [], failures: [], parseProblems, appliedCount: 0, shellCommands: parsed.shellCommands, approvalRequired: false, diff: '' };
  }
  const paths = unique([...parsed.edits.map((e) => e.path), ...options.chatFiles]);
  const loaded = await loadSnapshots(options.root, paths);
  const plan = planEdits(parsed.edits, loaded.files, { chatFiles: options.chatFiles, refused: loaded.refused, root: options.root });
  const approval = await approvePlan(plan, options.chatFiles, deps);
  const failures = [...plan.failures, ...approval.denied];
  for (const failure of failures) {
    const denied = failure.reason === 'denied';
    deps.emit({ type: 'edit', path: failure.edit.path, status: denied ? 'denied' : 'failed', error: firstLine(failure.message), ...(denied ? {} : { detail: failure.message }) });
  }

  const diffs = approval.files.map((file) => unifiedDiff(file.path, file.before.text ?? '', file.after));
  const base = {
    failures,
    parseProblems,
    shellCommands: parsed.shellCommands,
    approvalRequired: approval.unanswerable,
    addedToChat: approval.addedToChat,
    diff: diffs.join(''),
  };
  if (options.dryRun) {
    approval.files.forEach((file, i) => deps.emit({ type: 'edit', path: file.path, status: 'planned', diff: diffs[i] }));
    return { ...base, written: [], appliedCount: approval.files.length };
  }
  if (options.dirtyCommits && deps.git && approval.files.length > 0) {
    await commitUserWork(approval.files, deps);
  }
  const toWrite: EditPlan = { files: approval.files, failures: [] };
  const touched = await applyPlan(options.root, toWrite);
  approval.files.forEach((file, i) => deps.emit({ type: 'edit', path: file.path, status: 'applied', diff: diffs[i] }));
  for (const note of approval.files.flatMap((file) => file.notes)) deps.emit({ type: 'info', message: note });
  const written = approval.files
    .filter((file) => touched.includes(file.path))
    .map((file) => ({ path: file.path, before: file.before.text, after: file.after }));
  return { ...base, written, appliedCount: countAppliedEdits(approval.files) };
}

/** The text sent back to the model for everything this round could not do; '' when all went well. */
export function describeEditProblems(result: EditRoundResult, prompts: { parseProblems: string; denied: string }): string {
  const sections: string[] = [];
  if (result.parseProblems.length > 0) {
    const applied = result.appliedCount > 0 ? `The other ${result.appliedCount} block(s) were applied; do not send them again.` : '';
    sections.push(prompts.parseProblems.replace('{problems}', () => result.parseProblems.join('\n')).replace('{applied}', () => applied).trim());
  }
  const denied = result.failures.filter((f) => f.reason === 'denied');
  const others = result.failures.filter((f) => f.reason !== 'denied');
  if (others.length > 0) sections.push(describeFailures(others, result.appliedCount));
  if (denied.length > 0) {
    const paths = unique(denied.map((f) => f.edit.path)).join(', ');
    sections.push(prompts.denied.replace('{details}', () => paths).trim());
  }
  return sections.join('\n\n');
}

interface Approval {
  readonly files: PlannedFile[];
  readonly denied: EditFailure[];
  readonly addedToChat: string[];
  readonly unanswerable: boolean;
}

async function approvePlan(plan: EditPlan, chatFiles: readonly string[], deps: Deps): Promise<Approval> {
  const files: PlannedFile[] = [];
  const denied: EditFailure[] = [];
  const addedToChat: string[] = [];
  let unanswerable = false;
  for (const file of plan.files) {
    const question = approvalQuestion(file, chatFiles);
    if (!question) {
      files.push(file);
      continue;
    }
    const answer = await deps.asker.confirm(question.text, question.kind);
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

function approvalQuestion(file: PlannedFile, chatFiles: readonly string[]) {
  if (chatFiles.includes(file.path)) return null;
  if (!file.created) return { text: `Allow edits to ${file.path}, which is not in the chat?`, kind: 'edit-outside-chat' as const };
  const folder = dirname(file.path);
  const inChatFolder = chatFiles.some((chat) => {
    const chatFolder = dirname(chat);
    return chatFolder === '.' || folder === chatFolder || folder.startsWith(`${chatFolder}/`);
  });
  if (inChatFolder) return null;
  return { text: `Create new file ${file.path}?`, kind: 'create-file' as const };
}

async function commitUserWork(files: readonly PlannedFile[], deps: Deps): Promise<void> {
  const existing = files.filter((f) => !f.created).map((f) => f.path);
  if (existing.length === 0 || !deps.git) return;
  const dirty = await deps.git.dirtyFiles(existing);
  if (dirty.length === 0) return;
  const message = `wip: your changes to ${dirty.join(', ')} before tandem's edit`;
  const hash = await deps.git.commitUserChanges(dirty, message);
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
